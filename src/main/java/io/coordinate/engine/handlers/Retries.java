package io.coordinate.engine.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.engine.family.Family;
import io.coordinate.engine.family.UnitTransitions;
import io.coordinate.engine.state.MutableAttemptState;
import io.coordinate.engine.state.MutableSpecState;
import io.coordinate.engine.state.UnitState;
import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.engine.state.model.AttemptStatus;
import io.coordinate.engine.state.model.RetryDecision;
import io.coordinate.engine.state.model.RetryPolicy;
import io.coordinate.engine.state.model.WorkSpecRecord;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.protocol.Command;
import io.coordinate.protocol.CommandRejection;
import io.coordinate.protocol.Times;

/**
 * A work spec's retry policy at work (docs/reference.md#retries): a retryable failure or an expired lease of a unit's
 * active attempt sends the unit back, delayed by the policy's backoff, until its attempts run out; then the unit
 * fails. A spec without a policy, a replicated spec and a superseded attempt keep the moves they had: for them this
 * reads the spec (and the unit) and decides nothing. A permanent failure reads nothing more than before.
 */
public final class Retries {

    private final Family family;
    private final MutableSpecState specs;
    private final UnitState units;
    private final MutableAttemptState attempts;

    /** The modules of one command or one time-step item; {@code family} is the namespace's. */
    public Retries(Family family, MutableSpecState specs, UnitState units, MutableAttemptState attempts) {
        this.family = family;
        this.specs = specs;
        this.units = units;
        this.attempts = attempts;
    }

    static Retries of(CommandContext ctx) {
        return new Retries(ctx.family(), ctx.specs(), ctx.units(), ctx.attempts());
    }

    /** An optional boolean field of an attempt command ({@code retryable}, {@code release}), false when absent. */
    static boolean flag(Command command, String field) {
        JsonNode value = command.get(field);
        if (value == null) {
            return false;
        }
        if (!value.isBoolean()) {
            throw CommandRejection.badCommand("field \"" + field + "\" must be true or false");
        }
        return value.booleanValue();
    }

    /**
     * {@code fail_attempt} of a pending ordinary attempt: permanent, or with {@code retryable} the unit waits for its
     * next attempt under the spec's policy, or fails if the policy's attempts ran out.
     */
    void fail(AttemptRecord attempt, JsonNode data, boolean retryable) {
        RetryDecision decision = retryable ? decide(attempt) : null;
        if (decision != null && !decision.exhausted()) {
            UnitTransitions.releaseAttempt(
                    family, attempt, AttemptStatus.RETRYABLE, data, decision.retryAt(), decision, false);
        } else {
            UnitTransitions.endAttempt(family, attempt, AttemptStatus.FAILED, data, decision);
            tellExhausted(attempt, decision);
        }
    }

    /**
     * An expired lease, by {@code expire_attempt} or the time step: the unit is available again at once, or under the
     * spec's policy waits for its next attempt, or fails if the policy's attempts ran out.
     */
    public void expire(AttemptRecord attempt, JsonNode data) {
        RetryDecision decision = decide(attempt);
        if (decision == null || !decision.exhausted()) {
            Long retryAt = decision == null ? null : decision.retryAt();
            UnitTransitions.releaseAttempt(family, attempt, AttemptStatus.EXPIRED, data, retryAt, decision, false);
        } else {
            UnitTransitions.endAttempt(family, attempt, AttemptStatus.EXPIRED, data, decision);
            tellExhausted(attempt, decision);
        }
    }

    /**
     * {@code retry_attempt}: the unit rests until {@code notBefore}; {@code release} (a worker that stops) gives the
     * attempt back, so that neither {@code max_retries} nor the policy counts it.
     */
    void retry(AttemptRecord attempt, JsonNode data, long notBefore, boolean release) {
        UnitTransitions.releaseAttempt(family, attempt, AttemptStatus.RETRYABLE, data, notBefore, null, release);
    }

    /**
     * What the spec's policy makes of the end of {@code attempt}: null without a policy (or for an attempt its unit
     * does not run on any more); else the unit's next attempt time, at least the spec's next free retry slot with
     * {@code max_per_minute} (which this moves on), or exhausted.
     */
    private RetryDecision decide(AttemptRecord attempt) {
        String ns = family.namespace();
        WorkSpecRecord spec = specs.get(ns, attempt.spec());
        RetryPolicy policy = spec == null || spec.meta().replication() != null
                ? null
                : spec.meta().retry();
        if (policy == null) {
            return null;
        }
        WorkUnitRecord unit = units.get(ns, attempt.spec(), attempt.unit());
        if (unit == null || !UnitTransitions.isActive(unit, attempt)) {
            return null;
        }
        int count = unit.attemptCount();
        if (count >= policy.maxAttempts()) {
            return new RetryDecision(count, policy.maxAttempts(), null);
        }
        long due = Times.plusMillis(family.now(), policy.delayMillis(count, ns, unit.spec(), unit.name()));
        long spacing = policy.slotSpacingMillis();
        if (spacing > 0) {
            due = Math.max(due, specs.nextRetrySlot(ns, unit.spec()));
            specs.moveRetrySlot(ns, unit.spec(), Times.plusMillis(due, spacing));
        }
        return new RetryDecision(count, policy.maxAttempts(), due);
    }

    private void tellExhausted(AttemptRecord attempt, RetryDecision decision) {
        if (decision != null && decision.exhausted()) {
            attempts.retriesExhausted(family.namespace(), attempt, decision);
        }
    }
}
