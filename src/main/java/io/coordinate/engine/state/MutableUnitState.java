package io.coordinate.engine.state;

import io.coordinate.engine.state.model.Replica;
import io.coordinate.engine.state.model.WorkUnitRecord;
import java.util.List;

/**
 * A unit's transitions. Each writes the unit's record with its indexes, counts and job-tree entries, and tells the
 * {@link StateListener} its event. {@code before} is the unit as stored, {@code after} what it becomes.
 * An attempt's start, which moves its unit too, is {@link MutableAttemptState#start}.
 */
public interface MutableUnitState extends UnitState {

    /** A replica whose outcome or validate state a round's change moved; {@code validated}: to valid or invalid. */
    record ReplicaChange(Replica replica, boolean validated) {}

    /** Creates a unit. Event: {@code unit_added}. */
    void add(String ns, WorkUnitRecord unit);

    /**
     * An add of a unit that exists: new data, priority and not-before time, and where it rests now. Event:
     * {@code unit_status_changed} if its status moved, else {@code unit_updated}.
     */
    void replace(String ns, WorkUnitRecord before, WorkUnitRecord after);

    /** Its data, priority or not-before time changed, not its status. Event: {@code unit_updated}. */
    void update(String ns, WorkUnitRecord before, WorkUnitRecord after);

    /** Its work is done: finished, or waiting for its open children. Event: {@code unit_status_changed}. */
    void finish(String ns, WorkUnitRecord before, WorkUnitRecord after);

    /** It failed. Event: {@code unit_status_changed}. */
    void fail(String ns, WorkUnitRecord before, WorkUnitRecord after);

    /** {@code cancel_work_units}: it is cancelled, and runs no more. Event: {@code unit_status_changed}. */
    void cancel(String ns, WorkUnitRecord before, WorkUnitRecord after);

    /**
     * It rests again, available, delayed or blocked: its attempt was retried or expired, its not-before time came,
     * or its parent or predecessor let it go. Event: {@code unit_status_changed} if its status moved.
     */
    void release(String ns, WorkUnitRecord before, WorkUnitRecord after);

    /** {@code reset_work_units}: its active attempt dropped, it rests again. Event as {@link #release}. */
    void reset(String ns, WorkUnitRecord before, WorkUnitRecord after);

    /** Only its place in a job tree changed (a link, a child state, a failure to report): no event. */
    void relink(String ns, WorkUnitRecord before, WorkUnitRecord after);

    /**
     * Its replicas' round changed, and where it rests with it. Events: {@code unit_status_changed} if its status
     * moved, then {@code replica_updated} for each of {@code changed}.
     */
    void changeRound(String ns, WorkUnitRecord before, WorkUnitRecord after, List<ReplicaChange> changed);

    /** Its decided round's record went to the results. Event: {@code unit_assimilated}. */
    void assimilate(String ns, WorkUnitRecord before, WorkUnitRecord after);

    /** Deletes a unit (as stored) with its attempts and every index entry of them. Event: {@code unit_deleted}. */
    void delete(String ns, WorkUnitRecord unit);

    /** Where the spec's round robin among its groups goes on from: after {@code group} ({@code ""}: no group). */
    void moveGroupCursor(String ns, String spec, String group);
}
