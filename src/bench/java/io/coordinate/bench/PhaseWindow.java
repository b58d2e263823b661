package io.coordinate.bench;

import java.io.PrintStream;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * How many units (or records) each measured run of a phase takes, so that its window, the seconds its rate is taken
 * over, lasts at least {@code minSeconds}: over a window of a second or so a phase's start and end weigh on its rate,
 * and the baseline's more than the app's, which skewed the ratio (docs/performance.md, "Windows").
 *
 * <p>Each warm-up run of the phase shows how fast it goes; the count grows to what {@link #MARGIN} ×
 * {@code minSeconds} takes at that rate, rounded up to {@link #STEP}. It starts at the least count ({@code --units})
 * and never shrinks. The measured runs share that count, unless one's window comes out shorter than
 * {@code minSeconds}: that run is discarded and run again at the larger count its own rate calls for, which the runs
 * after it keep. So no reported window is shorter. The measured workload stays what it was (all the input first,
 * then the clock), only larger.
 *
 * @param <T> a run's figures
 */
final class PhaseWindow<T> {

    /** Sizes for this multiple of the minimum: a short warm-up's rate understates the phase's steady pace. */
    static final double MARGIN = 1.5;
    /** Counts are rounded up to a multiple of this, for readable logs. */
    static final long STEP = 10_000;
    /** Measured attempts of one run before the phase fails: each attempt is sized on the last, so two should do. */
    static final int MAX_ATTEMPTS = 4;

    /** One run of the phase over {@code count} units or records; {@code attempt} is 1, then 2... for a run again. */
    interface Run<T> {
        T run(long count, int attempt) throws Exception;
    }

    private final String phase;
    private final String what;
    private final double minSeconds;
    private final ToLongFunction<T> countOf;
    private final ToDoubleFunction<T> secondsOf;
    private final PrintStream progress;
    private long count;

    /**
     * @param phase      the phase's name, for the progress lines
     * @param what       what the count counts ("records", "units")
     * @param least      the count of a measured run however fast the phase is ({@code --units})
     * @param minSeconds the shortest window a measured run may report; 0 runs exactly {@code least}
     * @param countOf    the units or records of a run
     * @param secondsOf  a run's window, in seconds
     */
    PhaseWindow(
            String phase,
            String what,
            long least,
            double minSeconds,
            ToLongFunction<T> countOf,
            ToDoubleFunction<T> secondsOf,
            PrintStream progress) {
        this.phase = phase;
        this.what = what;
        this.count = least;
        this.minSeconds = minSeconds;
        this.countOf = countOf;
        this.secondsOf = secondsOf;
        this.progress = progress;
    }

    String phase() {
        return phase;
    }

    /** What the count counts: "records", "units". */
    String what() {
        return what;
    }

    /** The count of the next measured run. */
    long count() {
        return count;
    }

    /** Learns the phase's rate from a run of it and grows the count to match. */
    void observe(T run) {
        double seconds = secondsOf.applyAsDouble(run);
        if (!(seconds > 0) || Double.isInfinite(seconds)) {
            throw new IllegalStateException(phase + ": a run reported a window of " + seconds + " s");
        }
        if (minSeconds > 0) {
            double needed = countOf.applyAsLong(run) / seconds * minSeconds * MARGIN;
            count = Math.max(count, (long) Math.ceil(needed / STEP) * STEP);
        }
    }

    /** A measured run at {@link #count()}, run again at a larger count while its window is shorter than the minimum. */
    T measure(Run<T> run) throws Exception {
        for (int attempt = 1; ; attempt++) {
            T result = run.run(count, attempt);
            double seconds = secondsOf.applyAsDouble(result);
            if (seconds >= minSeconds) {
                return result;
            }
            observe(result);
            if (attempt == MAX_ATTEMPTS) {
                throw new IllegalStateException(String.format(
                        Locale.ROOT,
                        "%s: the window was still %.2f s, under %s s, " + "after %d runs",
                        phase,
                        seconds,
                        seconds(minSeconds),
                        attempt));
            }
            progress.printf(
                    Locale.ROOT,
                    "   %s window %.2f s, under %s s: run again with %,d %s%n",
                    phase,
                    seconds,
                    seconds(minSeconds),
                    count,
                    what);
        }
    }

    /** Seconds as given: "5", "2.5". */
    static String seconds(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }
}
