package io.coordinate.engine.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.engine.state.model.RateLimit;
import io.coordinate.protocol.CommandRejection;
import io.coordinate.protocol.Limits;
import java.util.Set;

/**
 * Reads a work spec's {@code rate_limit} key (docs/reference.md#rate-limits), or its {@code group_rate_limit}
 * (docs/reference.md#concurrency-groups), of the same shape, with the defaults filled in. A value out of its range, or
 * a key it does not know, is {@code bad_command} naming the key, as {@code rate_limit.max}.
 */
final class RateLimitDefinition {

    static final String KEY = "rate_limit";
    static final String GROUP_KEY = "group_rate_limit";
    private static final Set<String> FIELDS = Set.of("max", "per_seconds", "burst");
    /** The shortest window: a millisecond, the engine clock's tick. */
    private static final double MIN_PER_SECONDS = 0.001;

    private RateLimitDefinition() {}

    /** The limit of the spec's data; null when {@code rate_limit} is absent or null. */
    static RateLimit parse(JsonNode data) {
        return parse(data, KEY);
    }

    /** The limit under {@code key} of the spec's data; null when it is absent or null. */
    static RateLimit parse(JsonNode data, String key) {
        JsonNode limit = SettingsObject.of(data, key, FIELDS, "a rate limit setting");
        if (limit == null) {
            return null;
        }
        JsonNode max = limit.get("max");
        if (max == null || max.isNull()) {
            throw CommandRejection.badCommand("work spec key \"" + key + ".max\" is missing");
        }
        long maxTokens = Limits.wholeNumber(max, what(key, "max"), 1, Limits.MAX_COUNT);
        JsonNode per = limit.get("per_seconds");
        double perSeconds = per == null || per.isNull()
                ? RateLimit.DEFAULT_PER_SECONDS
                : Limits.number(per, what(key, "per_seconds"), MIN_PER_SECONDS, Limits.MAX_DELAY_SECONDS);
        JsonNode burst = limit.get("burst");
        long capacity = burst == null || burst.isNull()
                ? maxTokens
                : Limits.wholeNumber(burst, what(key, "burst"), 1, Limits.MAX_COUNT);
        return new RateLimit(maxTokens, perSeconds, capacity);
    }

    private static String what(String key, String field) {
        return "work spec key \"" + key + "." + field + "\"";
    }
}
