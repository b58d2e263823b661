package io.coordinate.engine.state.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * A work spec's retry policy (docs/reference.md#retries): how many attempts a unit gets in all, and how long it waits
 * before the next one after a retryable failure or an expired lease. Stored with the spec's metadata; every field
 * holds its default when the spec's data did not give it.
 *
 * @param maxAttempts attempts in all, the first included
 * @param initialDelay seconds before the second attempt
 * @param multiplier exponential backoff only: each delay is the one before it times this
 * @param maxDelay seconds: no delay is longer
 * @param jitter from 0 to 1: the delay is multiplied by {@code 1 - jitter × u}, {@code u} in [0, 1) from a hash
 * @param maxPerMinute the spec's retries that may come due per minute; 0 = no cap
 */
public record RetryPolicy(
        int maxAttempts,
        Backoff backoff,
        double initialDelay,
        double multiplier,
        double maxDelay,
        double jitter,
        double maxPerMinute) {

    public static final int DEFAULT_MAX_ATTEMPTS = 25;
    public static final double DEFAULT_INITIAL_DELAY = 1;
    public static final double DEFAULT_MULTIPLIER = 2;
    public static final double DEFAULT_MAX_DELAY = 3600;

    /** How the delay grows with the attempt count. */
    public enum Backoff {
        @JsonProperty("exponential")
        EXPONENTIAL,
        @JsonProperty("fixed")
        FIXED;

        public String wireName() {
            return this == EXPONENTIAL ? "exponential" : "fixed";
        }
    }

    /**
     * The delay in millis before the attempt after the {@code attemptCount}th of the unit ({@code spec}, {@code unit})
     * of namespace {@code ns}. A pure function of its arguments, so that a replay after a crash computes the same time.
     */
    public long delayMillis(int attemptCount, String ns, String spec, String unit) {
        double seconds = initialDelay;
        if (backoff == Backoff.EXPONENTIAL && initialDelay > 0) {
            // a huge power is infinite, which the cap below brings back to maxDelay
            seconds = initialDelay * Math.pow(multiplier, Math.max(0, attemptCount - 1));
        }
        seconds = Math.min(seconds, maxDelay);
        if (jitter > 0) {
            seconds *= 1 - jitter * jitterFraction(ns, spec, unit, attemptCount);
        }
        return Math.round(seconds * 1000.0);
    }

    /** How far apart two retries of the spec come due at least; 0 without {@code max_per_minute}. */
    public long slotSpacingMillis() {
        return maxPerMinute > 0 ? Math.round(60_000.0 / maxPerMinute) : 0;
    }

    /**
     * A number in [0, 1) that only the unit and its attempt count decide: the top 53 bits of the SHA-256 of the names
     * (each followed by a zero byte) and the count, the same on every JVM.
     */
    public static double jitterFraction(String ns, String spec, String unit, int attemptCount) {
        MessageDigest digest = sha256();
        for (String part : new String[] {ns, spec, unit}) {
            digest.update(part.getBytes(StandardCharsets.UTF_8));
            digest.update((byte) 0);
        }
        digest.update(ByteBuffer.allocate(Integer.BYTES).putInt(attemptCount).array());
        long bits = ByteBuffer.wrap(digest.digest()).getLong() >>> 11;
        return bits / (double) (1L << 53);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
