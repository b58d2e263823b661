package io.coordinate.engine.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.engine.family.UnitTransitions;
import io.coordinate.engine.replication.Replication;
import io.coordinate.engine.state.model.AttemptProgress;
import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.engine.state.model.AttemptStatus;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.protocol.CommandRejection;
import io.coordinate.protocol.CommandType;
import io.coordinate.protocol.ErrorCode;
import io.coordinate.protocol.Limits;
import io.coordinate.protocol.Times;

/**
 * The attempt state machine (docs/reference.md#attempt-statuses): {@code renew}, {@code finish}, {@code fail},
 * {@code retry}, {@code expire}. Every command is fenced by the attempt id (see {@link Lookups#attempt}) and by the
 * attempt's status; a superseded attempt never touches its unit. A replica of a replicated unit (docs/replication.md)
 * reports to {@link Replication} instead: finish is success, fail a client error, retry and expire no reply.
 */
public final class AttemptCommands {

    private AttemptCommands() {}

    public static void register(HandlerRegistry registry) {
        registry.register(CommandType.RENEW_ATTEMPT, AttemptCommands::renew);
        registry.register(CommandType.FINISH_ATTEMPT, AttemptCommands::finish);
        registry.register(CommandType.FAIL_ATTEMPT, AttemptCommands::fail);
        registry.register(CommandType.RETRY_ATTEMPT, AttemptCommands::retry);
        registry.register(CommandType.EXPIRE_ATTEMPT, AttemptCommands::expire);
    }

    /** Extends the lease of the unit's active, pending attempt. */
    static JsonNode renew(CommandContext ctx) {
        AttemptRecord attempt = Lookups.attempt(ctx);
        double extend = ctx.command()
                .optionalNumber(
                        "extend",
                        RequestAttemptsHandler.DEFAULT_LIFETIME_SECONDS,
                        Limits.MIN_LEASE_SECONDS,
                        Limits.MAX_LEASE_SECONDS);
        JsonNode data = data(ctx, attempt);
        AttemptProgress progress = ProgressReport.parse(ctx.command().get("progress"), ctx.now());
        WorkUnitRecord unit = ctx.units().get(ctx.namespace(), attempt.spec(), attempt.unit());
        if (Replication.isReplica(unit, attempt)) {
            requirePending(attempt, "renew");
            ctx.answerIsAttempt(attempt.seq());
            return ctx.views()
                    .attempt(ctx.replication().renewed(attempt, Times.secondsToMillis(extend), data, progress));
        }
        if (unit == null || !UnitTransitions.isActive(unit, attempt)) {
            throw new CommandRejection(ErrorCode.LOST_LEASE, "attempt " + attempt.id() + " is no longer active");
        }
        requirePending(attempt, "renew");
        AttemptRecord renewed = attempt.withRenewal(Times.plus(ctx.now(), extend), data, progress);
        ctx.attempts().renew(ctx.namespace(), attempt, renewed);
        ctx.answerIsAttempt(attempt.seq());
        return ctx.views().attempt(renewed);
    }

    /**
     * Success, from pending or failed. The attempt stays the unit's active attempt and its data becomes the
     * unit's; {@code then} chaining runs only if it is still the active attempt.
     */
    static JsonNode finish(CommandContext ctx) {
        AttemptRecord attempt = applyFinish(ctx);
        ctx.answerIsAttempt(attempt.seq());
        return ctx.views().attempt(ctx.attempts().get(ctx.namespace(), attempt.seq()));
    }

    /** {@link #finish} without its reply's view. */
    private static AttemptRecord applyFinish(CommandContext ctx) {
        return applyFinish(
                ctx, ctx.command().requiredString("attempt_id"), ctx.command().get("data"));
    }

    /**
     * Finishes the attempt with this id, its data {@code data} (an object; null: the attempt's own): a
     * {@code finish_attempt}, or an item of a {@code finish_attempts}, whose reply only counts. An attempt finished
     * already is left as it is: the finish is a repeat (a worker's retry after a lost reply), and answers ok.
     */
    static AttemptRecord applyFinish(CommandContext ctx, String attemptId, JsonNode data) {
        AttemptRecord attempt = Lookups.attempt(ctx, attemptId);
        if (attempt.status() == AttemptStatus.FINISHED) {
            data(data, attempt); // a repeat with bad data is still a bad command
            return attempt;
        }
        if (attempt.status() != AttemptStatus.PENDING && attempt.status() != AttemptStatus.FAILED) {
            throw notPending(attempt, "finish");
        }
        data = data(data, attempt);
        if (replica(ctx, attempt)) {
            requirePending(attempt, "finish"); // a replica's outcome is final: a failed one stays failed
            ctx.replication().finished(attempt, data);
        } else {
            // chaining, released children and heirs, a parent's bookkeeping: the family cascade does them all
            UnitTransitions.endAttempt(ctx.family(), attempt, AttemptStatus.FINISHED, data);
        }
        return attempt;
    }

    /**
     * Permanent failure of a pending attempt; it stays active, so its unit is failed. With {@code retryable} on a spec
     * with a retry policy, see {@link Retries#fail}. Failing a failed attempt again (or a retryable failure's attempt
     * retryable again) is a repeat: it changes nothing and answers ok.
     */
    static JsonNode fail(CommandContext ctx) {
        AttemptRecord attempt = Lookups.attempt(ctx);
        ctx.answerIsAttempt(attempt.seq());
        boolean retryable = Retries.flag(ctx.command(), "retryable");
        if (attempt.status() == AttemptStatus.FAILED || retryable && attempt.status() == AttemptStatus.RETRYABLE) {
            data(ctx, attempt);
            return ctx.views().attempt(attempt);
        }
        requirePending(attempt, "fail");
        if (replica(ctx, attempt)) {
            ctx.replication().failed(attempt, data(ctx, attempt));
        } else {
            Retries.of(ctx).fail(attempt, data(ctx, attempt), retryable);
        }
        return ctx.views().attempt(ctx.attempts().get(ctx.namespace(), attempt.seq()));
    }

    /**
     * Gives the unit back, to run again not before now + {@code delay}; with {@code release} the attempt does not count
     * ({@link Retries#retry}). Retrying a retried attempt again is a repeat: it changes nothing (not even the delay)
     * and answers ok.
     */
    static JsonNode retry(CommandContext ctx) {
        AttemptRecord attempt = Lookups.attempt(ctx);
        ctx.answerIsAttempt(attempt.seq());
        if (attempt.status() == AttemptStatus.RETRYABLE) {
            data(ctx, attempt);
            return ctx.views().attempt(attempt);
        }
        requirePending(attempt, "retry");
        long notBefore = Times.plus(ctx.now(), ctx.command().optionalNumber("delay", 0, 0, Limits.MAX_DELAY_SECONDS));
        boolean release = Retries.flag(ctx.command(), "release");
        if (replica(ctx, attempt)) {
            ctx.replication().released(attempt, AttemptStatus.RETRYABLE, data(ctx, attempt), notBefore);
        } else {
            Retries.of(ctx).retry(attempt, data(ctx, attempt), notBefore, release);
        }
        return ctx.views().attempt(ctx.attempts().get(ctx.namespace(), attempt.seq()));
    }

    /**
     * Gives the unit back now, or as the spec's retry policy says ({@link Retries#expire}). Expiring an expired attempt
     * changes nothing.
     */
    static JsonNode expire(CommandContext ctx) {
        AttemptRecord attempt = Lookups.attempt(ctx);
        ctx.answerIsAttempt(attempt.seq());
        if (attempt.status() != AttemptStatus.EXPIRED) {
            requirePending(attempt, "expire");
            if (replica(ctx, attempt)) {
                ctx.replication().released(attempt, AttemptStatus.EXPIRED, data(ctx, attempt), null);
            } else {
                Retries.of(ctx).expire(attempt, data(ctx, attempt));
            }
        }
        return ctx.views().attempt(ctx.attempts().get(ctx.namespace(), attempt.seq()));
    }

    /** Whether the attempt is a replica of its unit's current round, reporting to the validator (docs/replication.md). */
    private static boolean replica(CommandContext ctx, AttemptRecord attempt) {
        return attempt.isReplica() // an ordinary attempt costs no read here
                && Replication.isReplica(ctx.units().get(ctx.namespace(), attempt.spec(), attempt.unit()), attempt);
    }

    /** The command's {@code data} (an object) if given, else the attempt's current data. */
    private static JsonNode data(CommandContext ctx, AttemptRecord attempt) {
        return data(ctx.command().get("data"), attempt);
    }

    private static JsonNode data(JsonNode data, AttemptRecord attempt) {
        if (data == null) {
            return attempt.data();
        }
        if (!data.isObject()) {
            throw CommandRejection.badCommand("\"data\" must be an object");
        }
        return data;
    }

    private static void requirePending(AttemptRecord attempt, String action) {
        if (attempt.status() != AttemptStatus.PENDING) {
            throw notPending(attempt, action);
        }
    }

    private static CommandRejection notPending(AttemptRecord attempt, String action) {
        return new CommandRejection(
                ErrorCode.NOT_PENDING,
                "Expected attempt " + attempt.id() + " to be pending to " + action + " it, but it is "
                        + attempt.status().wireName());
    }
}
