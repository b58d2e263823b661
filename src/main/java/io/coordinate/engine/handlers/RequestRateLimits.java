package io.coordinate.engine.handlers;

import io.coordinate.engine.scheduler.Scheduler;
import io.coordinate.engine.scheduler.SpecLoad;
import io.coordinate.engine.scheduler.WorkRequest;
import io.coordinate.engine.state.model.RateLimit;
import io.coordinate.engine.state.model.TokenBucket;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The rate limits one {@code request_attempts} meets (docs/reference.md#rate-limits): a spec without a whole token is
 * no candidate, as one at {@code max_running} is; the chosen spec hands out at most the tokens it has; and when a limit
 * held the request short, the assignment says when the next token comes. A spec without {@code rate_limit} costs
 * nothing here: no bucket of it is read or written.
 */
final class RequestRateLimits {

    private final CommandContext ctx;
    private final WorkRequest request;
    /** The buckets read, by spec: the request may choose a spec more than once. */
    private final Map<String, TokenBucket> buckets = new HashMap<>();
    /** The earliest next token of the limits that held the request short; MAX_VALUE when none did. */
    private long nextTokenAt = Long.MAX_VALUE;

    RequestRateLimits(CommandContext ctx, WorkRequest request) {
        this.ctx = ctx;
        this.request = request;
    }

    /** Removes the specs out of tokens; those with work for this request held it short. */
    void removeOutOfTokens(List<SpecLoad> loads) {
        long now = ctx.now();
        loads.removeIf(load -> {
            TokenBucket bucket = bucket(load);
            if (bucket == null || bucket.wholeTokensAt(now) >= 1) {
                return false;
            }
            if (Scheduler.isCandidate(load, request, now)) {
                heldShort(bucket);
            }
            return true;
        });
    }

    /** How many attempts the spec may start now: its whole tokens, or {@code wanted} when it has no limit. */
    long allowed(SpecLoad load, long wanted) {
        TokenBucket bucket = bucket(load);
        return bucket == null ? wanted : Math.min(wanted, bucket.wholeTokensAt(ctx.now()));
    }

    /**
     * The spec started {@code started} attempts, of at most {@code wanted} its other caps allowed: they take their
     * tokens, and if the tokens were fewer than its available units that it could have handed out and it has none
     * left, the limit held the request short (with tokens left, something else did, as a group's cap or rate limit).
     */
    void started(SpecLoad load, long wanted, long started) {
        TokenBucket bucket = bucket(load);
        if (bucket == null) {
            return;
        }
        long now = ctx.now();
        long tokens = bucket.wholeTokensAt(now);
        bucket.take(now, started);
        ctx.specs().takeTokens(ctx.namespace(), load.name(), bucket);
        if (tokens < wanted && load.available() > tokens && bucket.wholeTokensAt(now) < 1) {
            heldShort(bucket);
        }
    }

    /** Sets {@code retry_after_ms} on an assignment of fewer attempts than asked that a limit held short. */
    void tellRetryAfter(AssignmentWriter assignment, long count) {
        if (nextTokenAt != Long.MAX_VALUE && assignment.size() < count) {
            assignment.retryAfter(nextTokenAt - ctx.now());
        }
    }

    private void heldShort(TokenBucket bucket) {
        heldShortUntil(bucket.nextTokenAt(ctx.now()));
    }

    /** A limit held the request short until {@code nextToken} (epoch millis): a group's rate limit tells it so. */
    void heldShortUntil(long nextToken) {
        nextTokenAt = Math.min(nextTokenAt, nextToken);
    }

    private TokenBucket bucket(SpecLoad load) {
        RateLimit limit = load.meta().rateLimit();
        if (limit == null) {
            return null;
        }
        return buckets.computeIfAbsent(
                load.name(), spec -> ctx.specs().rateLimitTokens(ctx.namespace(), spec, limit, ctx.now()));
    }
}
