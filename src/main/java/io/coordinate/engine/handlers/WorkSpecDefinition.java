package io.coordinate.engine.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.replication.ReplicationSettings;
import io.coordinate.engine.state.model.WorkSpecMeta;
import io.coordinate.protocol.CommandRejection;
import io.coordinate.protocol.ErrorCode;
import io.coordinate.protocol.Limits;

/**
 * Reads a work spec's data: its name and the metadata derived from the special keys (docs/reference.md#set_work_spec).
 */
final class WorkSpecDefinition {

    private WorkSpecDefinition() {}

    static String name(ObjectNode data) {
        JsonNode name = data.get("name");
        if (name == null
                || name.isNull()
                || name.isTextual() && name.textValue().isEmpty()) {
            // an empty name counts as missing, as in the reference implementation
            throw new CommandRejection(ErrorCode.NO_WORK_SPEC_NAME, "work spec data has no \"name\"");
        }
        if (!name.isTextual()) {
            throw new CommandRejection(ErrorCode.BAD_WORK_SPEC_NAME, "work spec \"name\" must be a string");
        }
        return name.textValue();
    }

    /**
     * Metadata derived from data; {@code next_continuous} starts unset, as on every reload. The replication keys
     * and {@code retention} are read by {@link ReplicationSettings}, which refuses inconsistent values; {@code retry}
     * by {@link RetryDefinition}, {@code rate_limit} by {@link RateLimitDefinition}.
     */
    static WorkSpecMeta deriveMeta(ObjectNode data) {
        boolean continuous = bool(data, "continuous", false);
        return new WorkSpecMeta(
                priority(data, "priority", 0),
                weight(data),
                bool(data, "disabled", false),
                continuous,
                continuous,
                interval(data, "interval", 0),
                null,
                count(data, "max_running", 0),
                count(data, "max_getwork", 0),
                count(data, "max_retries", 0),
                string(data, "then", ""),
                string(data, "runtime", ""),
                number(data, "min_gb", 0, -Limits.MAX_GB, Limits.MAX_GB),
                ReplicationSettings.parse(data),
                ReplicationSettings.retention(data),
                RetryDefinition.parse(data),
                RateLimitDefinition.parse(data),
                GroupDefinition.parse(data));
    }

    /** {@code weight} if given and not 0, else {@code 20 - nice}; never below 1. */
    static double weight(ObjectNode data) {
        double weight = weight(data, "weight", 0);
        if (weight == 0) {
            weight = 20 - weight(data, "nice", 0);
        }
        return Math.max(1, weight);
    }

    static double priority(JsonNode data, String key, double fallback) {
        return number(data, key, fallback, -Limits.MAX_PRIORITY, Limits.MAX_PRIORITY);
    }

    /** {@code weight} or {@code nice}: within ±{@link Limits#MAX_WEIGHT}. */
    static double weight(JsonNode data, String key, double fallback) {
        return number(data, key, fallback, -Limits.MAX_WEIGHT, Limits.MAX_WEIGHT);
    }

    /** {@code interval}: seconds from 0 to {@link Limits#MAX_DELAY_SECONDS}. */
    static double interval(JsonNode data, String key, double fallback) {
        return number(data, key, fallback, 0, Limits.MAX_DELAY_SECONDS);
    }

    /** A count, truncated; 0 or less is "no cap", as before these limits. */
    static long count(JsonNode data, String key, long fallback) {
        return (long) number(data, key, fallback, -Limits.MAX_COUNT, Limits.MAX_COUNT);
    }

    /** A number within [{@code min}, {@code max}] (see {@link Limits}), or {@code fallback} when absent. */
    static double number(JsonNode data, String key, double fallback, double min, double max) {
        JsonNode value = data.get(key);
        if (value == null || value.isNull()) {
            return fallback;
        }
        return Limits.number(value, "work spec key \"" + key + "\"", min, max);
    }

    static boolean bool(JsonNode data, String key, boolean fallback) {
        JsonNode value = data.get(key);
        if (value == null || value.isNull()) {
            return fallback;
        }
        if (!value.isBoolean()) {
            throw CommandRejection.badCommand("work spec key \"" + key + "\" must be true or false");
        }
        return value.booleanValue();
    }

    static String string(JsonNode data, String key, String fallback) {
        JsonNode value = data.get(key);
        if (value == null || value.isNull()) {
            return fallback;
        }
        if (!value.isTextual()) {
            throw CommandRejection.badCommand("work spec key \"" + key + "\" must be a string");
        }
        return value.textValue();
    }
}
