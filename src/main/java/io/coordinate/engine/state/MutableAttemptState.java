package io.coordinate.engine.state;

import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.engine.state.model.RetryDecision;
import io.coordinate.engine.state.model.WorkUnitRecord;

public interface MutableAttemptState extends AttemptState {

    /** The next attempt number of the namespace; numbers are never reused, not even after a destroy. */
    long nextSeq(String ns);

    /**
     * Starts {@code attempt} at a unit, which moves from {@code before} (as stored) to {@code after}. Events:
     * {@code attempt_started}, then {@code unit_status_changed} if the unit's status moved.
     */
    void start(String ns, WorkUnitRecord before, WorkUnitRecord after, AttemptRecord attempt);

    /**
     * A request's start of attempt {@code seq} of {@code worker} at {@code before}, a unit not pending on any
     * attempt: the unit becomes pending on it ({@link WorkUnitRecord#startedOn}, {@link AttemptRecord#started}).
     */
    AttemptRecord startRequested(
            String ns, WorkUnitRecord before, long seq, String worker, long startTime, long expirationTime);

    /**
     * Ends a pending (or failed) attempt: {@code ended} is it finished, failed, retryable or expired. Event: that of
     * its status. Its unit's move is the unit state's.
     */
    void end(String ns, AttemptRecord attempt, AttemptRecord ended);

    /**
     * {@link #end} under its spec's retry policy (docs/reference.md#retries), which took {@code decision} (null: as
     * {@link #end}). Event: that of its status, with the decision's fields.
     */
    void end(String ns, AttemptRecord attempt, AttemptRecord ended, RetryDecision decision);

    /**
     * The unit of {@code attempt} failed for its policy's attempts ran out: its failure is the unit state's, this
     * writes nothing. Event: {@code unit_retries_exhausted}.
     */
    void retriesExhausted(String ns, AttemptRecord attempt, RetryDecision decision);

    /**
     * {@code cancel_work_units} cancelled a pending attempt: {@code cancelled} is it, cancelled, and it loses its lease
     * at once. Event: {@code attempt_cancelled}. Its unit's move is the unit state's.
     */
    void cancel(String ns, AttemptRecord attempt, AttemptRecord cancelled);

    /**
     * A pending attempt's lease (and data, and progress) changed. Events: {@code attempt_renewed}, then
     * {@code attempt_progress} if the worker reported progress.
     */
    void renew(String ns, AttemptRecord attempt, AttemptRecord renewed);
}
