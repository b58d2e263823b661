package io.coordinate.engine.state.model;

/**
 * A spec's {@code rate_limit} (docs/reference.md#rate-limits): at most {@code max} attempts started per
 * {@code perSeconds} seconds, with bursts of up to {@code burst}. Stored with the spec's metadata, every field filled
 * in; the tokens left are kept apart, per spec (see {@link TokenBucket}).
 *
 * @param max tokens added per {@code perSeconds}, a whole number of at least 1
 * @param perSeconds the window, in seconds
 * @param burst the bucket's capacity, a whole number of at least 1 (defaults to {@code max})
 */
public record RateLimit(long max, double perSeconds, long burst) {

    public static final double DEFAULT_PER_SECONDS = 1;

    /** The window in millis: the time the bucket takes to gain {@code max} tokens. */
    public double windowMillis() {
        return perSeconds * 1000.0;
    }
}
