package io.coordinate.client;

import java.time.Duration;

/**
 * How many attempts a {@link Worker} holds queued for a free handler, beyond its {@code concurrency} running ones.
 *
 * <p>Fixed when the user set {@code prefetch}. Otherwise sized from what the worker measures: H, the moving average of
 * a handler's run time, and R, that of a request's round trip (send to answer). The queue holds
 * {@link #ROUND_TRIPS} round trips of work, {@code ceil(4 R concurrency / H)}, so handlers do not starve while the
 * next answer waits for the app's commit, even when one round trip takes longer than the average;
 * but no more than drains within a quarter of the lease ({@code floor(lease/4 concurrency / H)}), so that long handlers
 * do not hoard units other workers could run, and no more than {@code maxHeld}. H counts as at least
 * {@link #MIN_HANDLER_NANOS}. Before both are measured, the queue is {@code concurrency}.
 *
 * <p>Used by the worker's own thread only.
 */
final class AttemptHolding {

    /** How many round trips of work the queue holds. */
    static final int ROUND_TRIPS = 4;
    /** Weight of the newest measurement in each moving average. */
    static final double ALPHA = 0.2;
    /** The shortest handler time the rule divides by: a no-op handler would otherwise size an unbounded queue. */
    static final long MIN_HANDLER_NANOS = 100_000;
    /** The default of {@code maxHeld}. */
    static final int DEFAULT_MAX_HELD = 1000;

    private final int concurrency;
    private final long leaseNanos;
    private final int maxHeld;
    private final int prefetch;
    private double handlerNanos = Double.NaN;
    private double roundTripNanos = Double.NaN;

    /**
     * @param prefetch the fixed queue the user asked for, or -1 to adapt
     * @param maxHeld the largest queue the rule may size (not a bound on a fixed prefetch)
     */
    AttemptHolding(int concurrency, Duration lease, int prefetch, int maxHeld) {
        this.concurrency = concurrency;
        this.leaseNanos = lease.toNanos();
        this.prefetch = prefetch;
        this.maxHeld = maxHeld;
    }

    int concurrency() {
        return concurrency;
    }

    /** A handler ran for {@code nanos} (it finished or threw). */
    void handlerRan(long nanos) {
        handlerNanos = average(handlerNanos, nanos);
    }

    /** A request's answer came {@code nanos} after it was sent. */
    void answeredAfter(long nanos) {
        roundTripNanos = average(roundTripNanos, nanos);
    }

    /** Attempts to hold queued now. */
    int queue() {
        if (prefetch >= 0) {
            return prefetch;
        }
        if (Double.isNaN(handlerNanos) || Double.isNaN(roundTripNanos)) {
            return Math.min(concurrency, maxHeld);
        }
        return queue(handlerNanos, roundTripNanos, concurrency, leaseNanos, maxHeld);
    }

    /** The most attempts held: running, queued or asked for. */
    int capacity() {
        return concurrency + queue();
    }

    /** The rule of the class comment, from measured averages. */
    static int queue(double handlerNanos, double roundTripNanos, int concurrency, long leaseNanos, int maxHeld) {
        double handler = Math.max(handlerNanos, MIN_HANDLER_NANOS);
        double roundTrips = Math.ceil(ROUND_TRIPS * roundTripNanos * concurrency / handler);
        double quarterLease = Math.floor(leaseNanos / 4.0 * concurrency / handler);
        return (int) Math.max(0, Math.min(Math.min(roundTrips, quarterLease), maxHeld));
    }

    private static double average(double average, long sample) {
        return Double.isNaN(average) ? sample : average + ALPHA * (sample - average);
    }
}
