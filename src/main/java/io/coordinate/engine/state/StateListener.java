package io.coordinate.engine.state;

import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.engine.state.model.Replica;
import io.coordinate.engine.state.model.RetryDecision;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.engine.state.model.WorkSpecRecord;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.engine.state.model.WorkerRecord;

/**
 * Told what each transition of {@link CoordinateState}'s modules did, after the write. The engine turns these into
 * events, so that every state change has its event and no handler can forget one. A unit or attempt is given as it
 * is after the change ({@link #unitDeleted}: as it was).
 */
public interface StateListener {

    /** A spec was created ({@code before == null}), changed, or deleted ({@code after == null}). */
    default void specChanged(String ns, WorkSpecRecord before, WorkSpecRecord after) {}

    /** A unit was created. */
    default void unitAdded(String ns, WorkUnitRecord unit) {}

    /** A unit's status moved from {@code previous} (it may have changed other fields too). */
    default void unitStatusChanged(String ns, UnitStatus previous, WorkUnitRecord unit) {}

    /** A unit's data, priority or not-before time changed, its status staying. */
    default void unitUpdated(String ns, WorkUnitRecord unit) {}

    /** A unit was deleted. */
    default void unitDeleted(String ns, WorkUnitRecord unit) {}

    /**
     * A replica of the unit's round reported, timed out, was judged or was not needed any more;
     * {@code validated}: its validate state became valid or invalid just now.
     */
    default void replicaUpdated(String ns, WorkUnitRecord unit, Replica replica, boolean validated) {}

    /** A replicated unit's decided round was assimilated (its record went to the results). */
    default void unitAssimilated(String ns, WorkUnitRecord unit) {}

    /** An attempt was created, pending. */
    default void attemptStarted(String ns, AttemptRecord attempt) {}

    /** An attempt ended: finished, failed, retryable, expired or cancelled, as its status says. */
    default void attemptEnded(String ns, AttemptRecord attempt) {}

    /** An attempt ended under its spec's retry policy, which took {@code decision} (docs/reference.md#retries). */
    default void attemptEnded(String ns, AttemptRecord attempt, RetryDecision decision) {
        attemptEnded(ns, attempt);
    }

    /** A unit failed for its spec's retry policy ran out of attempts; {@code attempt} is its last. */
    default void retriesExhausted(String ns, AttemptRecord attempt, RetryDecision decision) {}

    /** A pending attempt's lease (and data) changed. */
    default void attemptRenewed(String ns, AttemptRecord attempt) {}

    /** A pending attempt's worker reported its progress ({@link AttemptRecord#progress}). */
    default void attemptProgressed(String ns, AttemptRecord attempt) {}

    /** A worker was created or changed. */
    default void workerChanged(String ns, WorkerRecord before, WorkerRecord after) {}

    default void namespaceDestroyed(String ns) {}

    StateListener NONE = new StateListener() {};
}
