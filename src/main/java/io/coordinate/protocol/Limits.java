package io.coordinate.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;

/**
 * The ranges of the numbers a command may carry (docs/reference.md "Limits"). A number outside its range, or one
 * that is not finite ({@code 1e400} reads as infinity), is refused with {@code bad_command}: the command changes
 * nothing. Leases and delays are bounded so that no time the engine computes can overflow or leave the years that
 * RFC 3339 can write; {@link Times#plus} saturates besides, for values stored before these limits.
 */
public final class Limits {

    /** The shortest lease: below a second a worker cannot renew it in time over Kafka, and a tiny one rounds to none. */
    public static final double MIN_LEASE_SECONDS = 1;
    /** The longest lease (30 days): a worker that runs longer renews; a longer one only delays the recovery of a unit. */
    public static final double MAX_LEASE_SECONDS = 30 * 86_400;
    /** The longest delay of a unit, and the longest interval or worker expiry: a year. */
    public static final double MAX_DELAY_SECONDS = 365 * 86_400;
    /** The longest {@code retention}: ten years. */
    public static final double MAX_RETENTION_SECONDS = 10 * 365 * 86_400;
    /**
     * The largest priority, in absolute value: whole priorities stay exact (doubles are exact to 2^53) and any sum of
     * two (an {@code adjustment}) stays finite.
     */
    public static final double MAX_PRIORITY = 1e15;
    /** The largest weight (or nice, in absolute value): a sum of weights over many specs stays exact and finite. */
    public static final double MAX_WEIGHT = 1e9;
    /** The largest memory size ({@code min_gb}, {@code available_gb}), in GB. */
    public static final double MAX_GB = 1e9;
    /** The largest count ({@code count}, {@code max_running}, {@code max_getwork}, {@code max_retries}). */
    public static final double MAX_COUNT = Integer.MAX_VALUE;

    private Limits() {}

    /**
     * The number {@code value}, which must lie in [{@code min}, {@code max}].
     *
     * @param what how the message names it, e.g. {@code field "lifetime"}
     */
    public static double number(JsonNode value, String what, double min, double max) {
        if (!value.isNumber()) {
            throw CommandRejection.badCommand(what + " must be a number");
        }
        double number = value.doubleValue();
        if (!(number >= min && number <= max)) { // also false for NaN
            throw CommandRejection.badCommand(what + " must be a number from " + text(min) + " to " + text(max)
                    + ", but it is " + shortText(value));
        }
        return number;
    }

    /**
     * The whole number {@code value}, which must lie in [{@code min}, {@code max}]: {@code 2.0} is whole, {@code 1.5}
     * and {@code 1.0000000000000000001} are not (compared exactly, not as doubles).
     *
     * @param what how the message names it, e.g. {@code field "count"}
     */
    public static long wholeNumber(JsonNode value, String what, double min, double max) {
        if (!value.isNumber()) {
            throw CommandRejection.badCommand(what + " must be a number");
        }
        double number = value.doubleValue();
        // the range first: only a number within it is compared exactly, so the comparison stays cheap
        if (!(number >= min && number <= max)
                || value.decimalValue().compareTo(BigDecimal.valueOf((long) number)) != 0) {
            throw CommandRejection.badCommand(what + " must be a whole number from " + text(min) + " to " + text(max)
                    + ", but it is " + shortText(value));
        }
        return (long) number;
    }

    /** {@code priority} limits: a finite number within ±{@link #MAX_PRIORITY}. */
    public static double priority(JsonNode value, String what) {
        return number(value, what, -MAX_PRIORITY, MAX_PRIORITY);
    }

    /** A priority sum brought back within ±{@link #MAX_PRIORITY}: adjusting twice never overflows. */
    public static double clampPriority(double priority) {
        return Double.isNaN(priority) ? 0 : Math.max(-MAX_PRIORITY, Math.min(MAX_PRIORITY, priority));
    }

    private static String text(double value) {
        return value == Math.rint(value) && Math.abs(value) <= 1e15
                ? Long.toString((long) value)
                : Double.toString(value);
    }

    /** The number as it was written, cut short: the message must not repeat a megabyte of digits. */
    private static String shortText(JsonNode value) {
        String text = value.asText();
        return text.length() <= 40 ? text : text.substring(0, 40) + "...";
    }
}
