package io.coordinate.engine.family;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.engine.state.MutableAttemptState;
import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.engine.state.model.AttemptStatus;
import io.coordinate.engine.state.model.RetryDecision;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.engine.state.model.WorkUnitRecord;

/**
 * The lifecycle moves shared by commands and the time step: starting, ending and expiring attempts, and
 * where a unit goes when it has no active attempt. Each move writes the attempt and the unit together.
 */
public final class UnitTransitions {

    private UnitTransitions() {}

    /** The status of a unit without an active attempt: delayed until its not-before time, then available. */
    public static UnitStatus restingStatus(Long notBefore, long now) {
        return notBefore != null && now < notBefore ? UnitStatus.DELAYED : UnitStatus.AVAILABLE;
    }

    /** Starts a pending attempt of {@code worker} at the unit; the unit becomes pending. */
    public static AttemptRecord startAttempt(
            MutableAttemptState attempts,
            String ns,
            WorkUnitRecord unit,
            String worker,
            long lifetimeMillis,
            long now) {
        return attempts.startRequested(
                ns,
                unit,
                attempts.nextSeq(ns),
                worker,
                now,
                io.coordinate.protocol.Times.plusMillis(now, lifetimeMillis));
    }

    /**
     * Ends an attempt in a final status; if it is the unit's active attempt the unit takes that status, or waits
     * for its children, and its family's cascade runs (docs/children-and-heirs.md, see {@link Family}).
     */
    public static WorkUnitRecord endAttempt(Family family, AttemptRecord attempt, AttemptStatus status, JsonNode data) {
        return endAttempt(family, attempt, status, data, null);
    }

    /** {@link #endAttempt}, under its spec's retry policy, which decided {@code decision} (null: no policy). */
    public static WorkUnitRecord endAttempt(
            Family family, AttemptRecord attempt, AttemptStatus status, JsonNode data, RetryDecision decision) {
        String ns = family.namespace();
        family.attempts.end(ns, attempt, attempt.withStatus(status, data, family.now()), decision);
        WorkUnitRecord unit = family.units.get(ns, attempt.spec(), attempt.unit());
        if (unit == null || !isActive(unit, attempt)) {
            return null;
        }
        return status == AttemptStatus.FINISHED ? family.attemptFinished(unit, data) : family.attemptFailed(unit);
    }

    /**
     * Gives the unit back: the attempt becomes {@code status} (expired or retryable) and, if it was the unit's
     * active attempt, the unit loses it and rests until {@code notBefore}; the children parked during it go.
     */
    public static void releaseAttempt(
            Family family, AttemptRecord attempt, AttemptStatus status, JsonNode data, Long notBefore) {
        releaseAttempt(family, attempt, status, data, notBefore, null, false);
    }

    /**
     * {@link #releaseAttempt}, under its spec's retry policy, which decided {@code decision} (null: no policy);
     * {@code givenBack}: the attempt does not count, the unit's attempt count goes back down by one (a worker that
     * stops gives its units back: docs/reference.md#retry_attempt).
     */
    public static void releaseAttempt(
            Family family,
            AttemptRecord attempt,
            AttemptStatus status,
            JsonNode data,
            Long notBefore,
            RetryDecision decision,
            boolean givenBack) {
        String ns = family.namespace();
        long now = family.now();
        family.attempts.end(ns, attempt, attempt.withStatus(status, data, now), decision);
        WorkUnitRecord unit = family.units.get(ns, attempt.spec(), attempt.unit());
        if (unit == null || !isActive(unit, attempt)) {
            return;
        }
        Long rest = notBefore != null ? notBefore : unit.notBefore();
        WorkUnitRecord released = unit.toBuilder()
                .activeAttempt(null)
                .status(restingStatus(rest, now))
                .attemptCount(givenBack ? Math.max(0, unit.attemptCount() - 1) : unit.attemptCount())
                .build();
        if (notBefore != null) {
            released = released.toBuilder()
                    .notBefore(notBefore)
                    .status(restingStatus(notBefore, now))
                    .build();
        }
        family.attemptReleased(unit, released);
    }

    /**
     * Drops the unit's active attempt (reset, re-add): the unit rests again, its history is kept, and its
     * {@code max_retries} budget starts afresh — otherwise a unit failed for too many retries could never run
     * again. A replicated unit starts its next round: the replicas of the last one still running are superseded
     * (their reports change only their attempts), as a dropped attempt is.
     */
    public static WorkUnitRecord clearActiveAttempt(WorkUnitRecord unit, long now) {
        return unit.toBuilder()
                .activeAttempt(null)
                .status(restingStatus(unit.notBefore(), now))
                .attemptCount(0)
                .replication(
                        unit.replication() == null ? null : unit.replication().next())
                .purgeAt(null)
                .build();
    }

    public static boolean isActive(WorkUnitRecord unit, AttemptRecord attempt) {
        return unit.activeAttempt() != null && unit.activeAttempt() == attempt.seq();
    }
}
