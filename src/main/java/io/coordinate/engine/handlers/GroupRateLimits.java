package io.coordinate.engine.handlers;

import io.coordinate.engine.scheduler.GroupRoundRobin;
import io.coordinate.engine.state.model.RateLimit;
import io.coordinate.engine.state.model.TokenBucket;
import java.util.HashMap;
import java.util.Map;

/**
 * A spec's {@code group_rate_limit} in one request (docs/reference.md#concurrency-groups): a token bucket per group,
 * read only for the groups the round robin visits. A group without a whole token left is passed over as one at its
 * cap is, and tells the request when its next token comes; the attempts started take their groups' tokens.
 */
final class GroupRateLimits implements GroupRoundRobin.Tokens {

    private final CommandContext ctx;
    private final String spec;
    private final RateLimit limit;
    private final RequestRateLimits request;
    private final Map<String, TokenBucket> buckets = new HashMap<>();
    private final Map<String, Long> started = new HashMap<>();

    private GroupRateLimits(CommandContext ctx, String spec, RateLimit limit, RequestRateLimits request) {
        this.ctx = ctx;
        this.spec = spec;
        this.limit = limit;
        this.request = request;
    }

    /** The limits of a spec with this {@code group_rate_limit}; null for none. */
    static GroupRateLimits of(CommandContext ctx, String spec, RateLimit limit, RequestRateLimits request) {
        return limit == null ? null : new GroupRateLimits(ctx, spec, limit, request);
    }

    @Override
    public boolean allow(String group, long taken) {
        long now = ctx.now();
        TokenBucket bucket = bucket(group);
        if (bucket.wholeTokensAt(now) > taken) {
            return true;
        }
        // its next token after those this request takes: the bucket as it will be stored
        TokenBucket after = TokenBucket.of(limit, bucket.tokens(), bucket.updated());
        after.take(now, taken);
        request.heldShortUntil(after.nextTokenAt(now));
        return false;
    }

    /** An attempt of the group started. */
    void started(String group) {
        started.merge(group, 1L, Long::sum);
    }

    /** The groups' attempts started take their tokens. */
    void takeTokens() {
        long now = ctx.now();
        started.forEach((group, count) -> {
            TokenBucket bucket = bucket(group);
            bucket.take(now, count);
            ctx.specs().takeGroupTokens(ctx.namespace(), spec, group, bucket);
        });
    }

    private TokenBucket bucket(String group) {
        return buckets.computeIfAbsent(
                group, g -> ctx.specs().groupRateLimitTokens(ctx.namespace(), spec, g, limit, ctx.now()));
    }
}
