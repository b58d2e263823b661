package io.coordinate.engine.state;

import io.coordinate.engine.state.codec.TimeIndexKeys;

public interface MutableTimeIndexState extends TimeIndexState {

    /** Drops a delayed-unit index entry that no longer matches its unit. */
    void dropStaleDelayedEntry(TimeIndexKeys.DelayedUnitKey key);

    /** Drops a purge entry that no longer matches a finished or failed unit. */
    void dropStalePurge(TimeIndexKeys.PurgeKey key);

    /** Drops a deadline entry that no longer matches a pending attempt. */
    void dropStaleDeadline(TimeIndexKeys.AttemptDeadlineKey key);

    /** Drops a next-fire entry that no longer matches its spec's schedule. */
    void dropStaleScheduleFire(TimeIndexKeys.ScheduleFireKey key);

    /** Before a time step commits: keeps each time index's floor below any due entry still in place. */
    void checkFloors();
}
