package io.coordinate.engine.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.engine.state.model.RetryPolicy;
import io.coordinate.engine.state.model.RetryPolicy.Backoff;
import io.coordinate.protocol.CommandRejection;
import io.coordinate.protocol.Limits;
import java.util.Set;

/**
 * Reads a work spec's {@code retry} key (docs/reference.md#retries) into its policy, with the defaults filled in.
 * A value out of its range, or a key the policy does not know (a misspelt one would silently keep its default), is
 * {@code bad_command} naming the key, as {@code retry.backoff}.
 */
final class RetryDefinition {

    private static final String KEY = "retry";
    private static final Set<String> FIELDS =
            Set.of("max_attempts", "backoff", "initial_delay", "multiplier", "max_delay", "jitter", "max_per_minute");
    /** The largest multiplier: any larger one reaches {@code max_delay} at the third attempt anyway. */
    private static final double MAX_MULTIPLIER = 1e6;
    /** The largest {@code max_per_minute}: retries a millisecond apart. */
    private static final double MAX_PER_MINUTE = 60_000;

    private RetryDefinition() {}

    /** The policy of the spec's data; null when {@code retry} is absent or null. */
    static RetryPolicy parse(JsonNode data) {
        JsonNode retry = SettingsObject.of(data, KEY, FIELDS, "a retry setting");
        if (retry == null) {
            return null;
        }
        return new RetryPolicy(
                (int) whole(retry, "max_attempts", RetryPolicy.DEFAULT_MAX_ATTEMPTS),
                backoff(retry),
                number(retry, "initial_delay", RetryPolicy.DEFAULT_INITIAL_DELAY, 0, Limits.MAX_DELAY_SECONDS),
                number(retry, "multiplier", RetryPolicy.DEFAULT_MULTIPLIER, 1, MAX_MULTIPLIER),
                number(retry, "max_delay", RetryPolicy.DEFAULT_MAX_DELAY, 0, Limits.MAX_DELAY_SECONDS),
                number(retry, "jitter", 0, 0, 1),
                number(retry, "max_per_minute", 0, 0, MAX_PER_MINUTE));
    }

    private static Backoff backoff(JsonNode retry) {
        JsonNode value = retry.get("backoff");
        if (value == null || value.isNull()) {
            return Backoff.EXPONENTIAL;
        }
        for (Backoff backoff : Backoff.values()) {
            if (value.isTextual() && value.textValue().equals(backoff.wireName())) {
                return backoff;
            }
        }
        throw CommandRejection.badCommand("work spec key \"retry.backoff\" must be \"exponential\" or \"fixed\"");
    }

    private static long whole(JsonNode retry, String field, long fallback) {
        JsonNode value = retry.get(field);
        if (value == null || value.isNull()) {
            return fallback;
        }
        return Limits.wholeNumber(value, what(field), 1, Limits.MAX_COUNT);
    }

    private static double number(JsonNode retry, String field, double fallback, double min, double max) {
        JsonNode value = retry.get(field);
        if (value == null || value.isNull()) {
            return fallback;
        }
        return Limits.number(value, what(field), min, max);
    }

    private static String what(String field) {
        return "work spec key \"" + KEY + "." + field + "\"";
    }
}
