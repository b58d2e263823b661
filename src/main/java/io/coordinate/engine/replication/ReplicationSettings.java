package io.coordinate.engine.replication;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.engine.state.model.ReplicationConfig;
import io.coordinate.protocol.CommandRejection;
import io.coordinate.protocol.Limits;

/**
 * Reads the replication keys and {@code retention} of a work spec's data (docs/replication.md#spec-keys), with their
 * defaults, and refuses values that cannot work together with {@code bad_command}. The keys are checked whenever
 * they are given, also on a spec they do not make replicated.
 */
public final class ReplicationSettings {

    private ReplicationSettings() {}

    /** The settings of a replicated spec ({@code min_quorum} > 1 or {@code target_nresults} > 1), else null. */
    public static ReplicationConfig parse(JsonNode data) {
        int minQuorum = whole(data, "min_quorum", 1);
        int target = whole(data, "target_nresults", minQuorum);
        int maxErrors = whole(data, "max_error_results", ReplicationConfig.DEFAULT_MAX_ERROR_RESULTS);
        int maxTotal = whole(data, "max_total_results", ReplicationConfig.DEFAULT_MAX_TOTAL_RESULTS);
        int maxSuccesses = whole(data, "max_success_results", ReplicationConfig.DEFAULT_MAX_SUCCESS_RESULTS);
        Double delayBound = positive(data, "delay_bound", Limits.MAX_LEASE_SECONDS);
        JsonNode validator = data.get("validator");
        if (validator != null
                && !validator.isNull()
                && !(validator.isTextual() && validator.textValue().equals(ReplicationConfig.EXACT))) {
            throw CommandRejection.badCommand(
                    "Expected work spec key \"validator\" to be \"exact\", but it is " + validator);
        }
        require(minQuorum >= 1, "min_quorum >= 1", "min_quorum is " + minQuorum);
        require(
                target >= minQuorum,
                "target_nresults >= min_quorum",
                "target_nresults is " + target + " and min_quorum " + minQuorum);
        require(maxErrors >= 0, "max_error_results >= 0", "max_error_results is " + maxErrors);
        require(
                maxSuccesses >= minQuorum,
                "max_success_results >= min_quorum",
                "max_success_results is " + maxSuccesses + " and min_quorum " + minQuorum);
        require(
                maxTotal >= target,
                "max_total_results >= target_nresults",
                "max_total_results is " + maxTotal + " and target_nresults " + target);
        if (minQuorum == 1 && target == 1) {
            return null;
        }
        return new ReplicationConfig(
                minQuorum, target, maxErrors, maxTotal, maxSuccesses, delayBound, ReplicationConfig.EXACT);
    }

    /** {@code retention} in seconds (>= 0), or null when not given. */
    public static Double retention(JsonNode data) {
        JsonNode value = data.get("retention");
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isNumber() || value.doubleValue() < 0) {
            throw CommandRejection.badCommand(
                    "Expected work spec key \"retention\" to be a number of seconds >= 0, but it is " + value);
        }
        return Limits.number(value, "work spec key \"retention\"", 0, Limits.MAX_RETENTION_SECONDS);
    }

    private static int whole(JsonNode data, String key, int fallback) {
        JsonNode value = data.get(key);
        if (value == null || value.isNull()) {
            return fallback;
        }
        if (!value.isNumber() || value.decimalValue().stripTrailingZeros().scale() > 0 || !value.canConvertToInt()) {
            throw CommandRejection.badCommand(
                    "Expected work spec key \"" + key + "\" to be a whole number, but it is " + value);
        }
        return value.intValue();
    }

    private static Double positive(JsonNode data, String key, double max) {
        JsonNode value = data.get(key);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isNumber() || value.doubleValue() <= 0) {
            throw CommandRejection.badCommand(
                    "Expected work spec key \"" + key + "\" to be a number of seconds > 0, but it is " + value);
        }
        return Limits.number(value, "work spec key \"" + key + "\"", Limits.MIN_LEASE_SECONDS, max);
    }

    private static void require(boolean holds, String expected, String actual) {
        if (!holds) {
            throw CommandRejection.badCommand("Expected " + expected + ", but " + actual);
        }
    }
}
