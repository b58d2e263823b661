package io.coordinate.bench;

import java.util.Arrays;

/**
 * Collects latencies (nanoseconds) from several threads and summarises them with nearest-rank percentiles: p50 of
 * {1..100} is 50, p99 is 99, and every reported value is one that was measured (no interpolation).
 */
public final class LatencyRecorder {

    private long[] values = new long[1024];
    private int size;

    public synchronized void record(long nanos) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = nanos;
    }

    public synchronized int count() {
        return size;
    }

    public synchronized Summary summary() {
        long[] sorted = Arrays.copyOf(values, size);
        Arrays.sort(sorted);
        return new Summary(
                size,
                millis(percentile(sorted, 50)),
                millis(percentile(sorted, 99)),
                millis(size == 0 ? -1 : sorted[size - 1]));
    }

    /**
     * The nearest-rank percentile of sorted values: the smallest value with at least {@code p}% of the values at or
     * below it. -1 when there are no values.
     */
    static long percentile(long[] sorted, double p) {
        if (p <= 0 || p > 100) {
            throw new IllegalArgumentException("percentile must be in (0, 100]: " + p);
        }
        if (sorted.length == 0) {
            return -1;
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)];
    }

    private static double millis(long nanos) {
        return nanos < 0 ? Double.NaN : nanos / 1e6;
    }

    /** Count and percentiles in milliseconds (NaN when nothing was recorded). */
    public record Summary(int count, double p50Ms, double p99Ms, double maxMs) {}
}
