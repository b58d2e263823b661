package io.coordinate.engine.state;

import io.coordinate.engine.state.model.WorkUnitRecord;

public interface MutableUnitState extends UnitState {

  /** Creates ({@code before == null}), changes or deletes ({@code after == null}) a unit with its indexes. */
  void write(String ns, WorkUnitRecord before, WorkUnitRecord after);

  /**
   * A unit that the available index listed (or a continuous unit just made), as {@link #get}: such a unit holds
   * no started attempt, which lets its reads skip a lookup.
   */
  WorkUnitRecord available(String ns, String spec, String name);
}
