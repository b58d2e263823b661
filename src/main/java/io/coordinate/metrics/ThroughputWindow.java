package io.coordinate.metrics;

/**
 * Units added, finished and failed in one spec over the last {@link #BUCKETS} minutes, one bucket a minute, in
 * memory. Written by the stream thread, read by the HTTP threads: each call holds the lock briefly.
 */
final class ThroughputWindow {

    static final int BUCKETS = 15;
    static final long BUCKET_MILLIS = 60_000;

    private final long[] minute = new long[BUCKETS];
    private final long[] added = new long[BUCKETS];
    private final long[] finished = new long[BUCKETS];
    private final long[] failed = new long[BUCKETS];

    ThroughputWindow() {
        java.util.Arrays.fill(minute, Long.MIN_VALUE);
    }

    synchronized void add(long now, int addedUnits, int finishedUnits, int failedUnits) {
        long m = Math.floorDiv(now, BUCKET_MILLIS);
        int slot = (int) Math.floorMod(m, BUCKETS);
        if (minute[slot] != m) {
            if (minute[slot] > m) {
                return; // the clock went back past the window: the bucket now holds a later minute
            }
            minute[slot] = m;
            added[slot] = 0;
            finished[slot] = 0;
            failed[slot] = 0;
        }
        added[slot] += addedUnits;
        finished[slot] += finishedUnits;
        failed[slot] += failedUnits;
    }

    /** The buckets ending with the minute of {@code now}, oldest first: added, finished and failed, each of 15. */
    synchronized long[][] snapshot(long now) {
        long last = Math.floorDiv(now, BUCKET_MILLIS);
        long[][] out = new long[3][BUCKETS];
        for (int i = 0; i < BUCKETS; i++) {
            long m = last - (BUCKETS - 1) + i;
            int slot = (int) Math.floorMod(m, BUCKETS);
            if (minute[slot] == m) {
                out[0][i] = added[slot];
                out[1][i] = finished[slot];
                out[2][i] = failed[slot];
            }
        }
        return out;
    }

    /** The end of the window that {@link #snapshot} gives at {@code now}: the end of now's minute (epoch ms). */
    static long end(long now) {
        return (Math.floorDiv(now, BUCKET_MILLIS) + 1) * BUCKET_MILLIS;
    }
}
