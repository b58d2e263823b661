package io.coordinate.engine.state;

import io.coordinate.engine.state.codec.Keys;

public interface MutableTimeIndexState extends TimeIndexState {

  /** Drops a delayed-unit index entry that no longer matches its unit. */
  void dropStaleDelayedEntry(Keys.DelayedUnitKey key);

  /** Drops a purge entry that no longer matches a finished or failed unit. */
  void dropStalePurge(Keys.PurgeKey key);

  /** Drops a deadline entry that no longer matches a pending attempt. */
  void dropStaleDeadline(Keys.AttemptDeadlineKey key);

  /** Before a time step commits: keeps each time index's floor below any due entry still in place. */
  void checkFloors();
}
