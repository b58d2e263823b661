package io.coordinate.engine.view;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.state.SpecState;
import io.coordinate.engine.state.model.RateLimit;
import io.coordinate.engine.state.model.WorkSpecRecord;
import io.coordinate.protocol.Json;

/** A spec's rate limit as {@code meta.rate_limit} shows it (docs/reference.md#rate-limits): its settings and tokens. */
public final class RateLimitView {

    private RateLimitView() {}

    /** Puts {@code rate_limit} into the spec's {@code meta} when the spec has one. */
    static void put(ObjectNode meta, SpecState specs, String ns, WorkSpecRecord spec, long now) {
        RateLimit limit = spec.meta().rateLimit();
        if (limit == null) {
            return;
        }
        ObjectNode node = settings(limit);
        node.put("tokens", tokens(specs, ns, spec.name(), limit, now));
        meta.set("rate_limit", node);
    }

    /** The settings of a {@code rate_limit} or {@code group_rate_limit}, defaults filled in. */
    static ObjectNode settings(RateLimit limit) {
        ObjectNode node = Json.object();
        node.put("max", limit.max());
        node.set("per_seconds", Numbers.node(limit.perSeconds()));
        node.put("burst", limit.burst());
        return node;
    }

    /** The whole tokens of the spec's rate limit at {@code now}: how many attempts it may start. */
    public static long tokens(SpecState specs, String ns, String spec, RateLimit limit, long now) {
        return specs.rateLimitTokens(ns, spec, limit, now).wholeTokensAt(now);
    }
}
