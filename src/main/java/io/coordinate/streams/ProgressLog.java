package io.coordinate.streams;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * When a long piece of work (a changelog restore, an index rebuild) says how far it got: at its first report once
 * {@link #INTERVAL_NANOS} have passed since it began or since its last line, so an operator never waits longer for
 * news than that plus one report's gap. The clock is given, so a test sets the time.
 */
final class ProgressLog {

    static final long INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final LongSupplier nanoClock;
    private final long started;
    private long lastLine;

    /** @param nanoClock {@link System#nanoTime()}, or a test's clock */
    ProgressLog(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
        this.started = nanoClock.getAsLong();
        this.lastLine = started;
    }

    /** True when a line is due now; the caller then logs it (the next one is due an interval later). */
    synchronized boolean due() {
        long now = nanoClock.getAsLong();
        if (now - lastLine < INTERVAL_NANOS) {
            return false;
        }
        lastLine = now;
        return true;
    }

    /** Milliseconds since the work began. */
    long elapsedMillis() {
        return TimeUnit.NANOSECONDS.toMillis(nanoClock.getAsLong() - started);
    }

    /** {@code done} per second since the work began (0 within its first millisecond). */
    long perSecond(long done) {
        long millis = elapsedMillis();
        return millis == 0 ? 0 : done * 1000 / millis;
    }

    /** "{@code done} of about {@code total} {@code what} (p%)"; without the total when none is known. */
    static String doneOf(long done, long total, String what) {
        if (total <= 0) {
            return done + " " + what;
        }
        return done + " of about " + total + " " + what + " (" + Math.min(100, done * 100 / total) + "%)";
    }
}
