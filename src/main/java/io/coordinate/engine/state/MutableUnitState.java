package io.coordinate.engine.state;

import io.coordinate.engine.state.model.WorkUnitRecord;

public interface MutableUnitState extends UnitState {

  /** Creates ({@code before == null}) or changes a unit, with its indexes, counts and job-tree entries. */
  void write(String ns, WorkUnitRecord before, WorkUnitRecord after);

  /** Deletes a unit (as stored) with its attempts and every index entry of them. */
  void delete(String ns, WorkUnitRecord unit);

  /**
   * A unit that the available index listed (or a continuous unit just made), as {@link #get}: such a unit holds
   * no started attempt, which lets its reads skip a lookup.
   */
  WorkUnitRecord available(String ns, String spec, String name);
}
