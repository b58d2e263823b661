package io.coordinate.app;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.LongSupplier;

/**
 * The stream threads' recent failures and whether one runs at all, for the probes.
 *
 * <p>A failed thread is replaced, and Kafka Streams still says RUNNING while the new one replays the same records;
 * when it keeps failing, the instance is in a failure loop and serves nothing, which readiness must say. A loop is
 * {@link #LOOP_FAILURES} failures within {@link #WINDOW_MS}; it ends once the window holds fewer, or as soon as a
 * stream thread commits after the last failure: a commit is progress, so the cause is gone.
 *
 * <p>The replacement itself can fail (it opens files and loads classes, which a process out of file descriptors
 * cannot), and then no stream thread runs while Kafka Streams still says RUNNING: nothing is processed and nothing
 * will be. {@link #stopped()} says so once no thread has been alive for {@link #NO_THREAD_GRACE_MS}, which also
 * counts as a failure; only a restart of the process helps then.
 */
public final class StreamThreadFailures {

    static final int LOOP_FAILURES = 3;
    static final long WINDOW_MS = 10 * 60 * 1000L;
    /** Longer than a replacement's handover, during which the failed thread is gone and the new one not yet alive. */
    static final long NO_THREAD_GRACE_MS = 10_000;

    private static final long NEVER = Long.MIN_VALUE;

    private final LongSupplier clock;
    private final Deque<Long> times = new ArrayDeque<>();
    private String lastError;
    private long lastFailure = NEVER;
    private boolean committedSinceFailure;
    private long lastObserved = NEVER;
    private double lastCommits;
    private long noThreadSince = NEVER;
    private String stopped;

    public StreamThreadFailures(LongSupplier clock) {
        this.clock = clock;
    }

    public synchronized void failed(Throwable error) {
        record(String.valueOf(error));
    }

    /**
     * What Kafka Streams says while it is RUNNING or REBALANCING, observed every second or so: how many stream threads
     * are alive, and how many commits they have made in all (a total that only grows, except when a thread's count
     * goes with it).
     */
    public synchronized void observe(int aliveThreads, double commits) {
        long now = clock.getAsLong();
        // Only a commit surely made after the last failure ends a loop: the failed thread may have committed just
        // before it failed, and the rise since the previous observation would then include that commit.
        if (commits > lastCommits && lastObserved > lastFailure) {
            committedSinceFailure = true;
        }
        lastCommits = commits;
        lastObserved = now;
        if (aliveThreads > 0) {
            noThreadSince = NEVER;
            stopped = null;
        } else if (noThreadSince == NEVER) {
            noThreadSince = now;
        } else if (stopped == null && now - noThreadSince >= NO_THREAD_GRACE_MS) {
            stopped = "no stream thread has been alive for " + NO_THREAD_GRACE_MS / 1000
                    + " s, and none was started in place of the failed one"
                    + (lastError == null ? "" : " (the last failure: " + lastError + ")");
            record("no stream thread could be started in place of the failed one");
        }
    }

    /** The last error when the thread is in a failure loop, else null. */
    public synchronized String loopError() {
        forgetOld();
        return times.size() >= LOOP_FAILURES && !committedSinceFailure
                ? times.size() + " stream thread failures in the last " + WINDOW_MS / 60_000 + " minutes, the last: "
                        + lastError
                : null;
    }

    /** Why no stream thread runs although Kafka Streams says RUNNING or REBALANCING, or null while one does. */
    public synchronized String stopped() {
        return stopped;
    }

    private void record(String error) {
        long now = clock.getAsLong();
        times.addLast(now);
        lastError = error;
        lastFailure = now;
        committedSinceFailure = false;
        forgetOld();
    }

    private void forgetOld() {
        long oldest = clock.getAsLong() - WINDOW_MS;
        while (!times.isEmpty() && times.peekFirst() < oldest) {
            times.removeFirst();
        }
    }
}
