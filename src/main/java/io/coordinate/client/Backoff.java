package io.coordinate.client;

import java.time.Duration;

/** How long a worker waits after an empty answer: {@code min}, doubling each time up to {@code max}; work resets it. */
final class Backoff {

    private final long minNanos;
    private final long maxNanos;
    private long nextNanos;

    Backoff(Duration min, Duration max) {
        if (min.isNegative() || min.isZero() || max.compareTo(min) < 0) {
            throw new IllegalArgumentException("a backoff needs 0 < min <= max: " + min + ", " + max);
        }
        this.minNanos = min.toNanos();
        this.maxNanos = max.toNanos();
        this.nextNanos = minNanos;
    }

    /** The wait after one more empty answer. */
    long nextNanos() {
        long wait = nextNanos;
        nextNanos = Math.min(maxNanos, nextNanos * 2);
        return wait;
    }

    /** The longest wait. */
    long maxNanos() {
        return maxNanos;
    }

    /** Work came: the next empty answer waits {@code min} again. */
    void reset() {
        nextNanos = minNanos;
    }
}
