package io.coordinate.streams;

/**
 * When a task asks Kafka Streams to commit. Under exactly-once an output (an assignment, a reply) is visible
 * only once its transaction commits, and Kafka Streams on its own commits every {@code commit.interval.ms},
 * wherever it is: workers then wait a whole interval for answers the app had ready long before, and a burst of
 * commands that straddles the tick has its tail wait for the interval after.
 *
 * <p>This policy commits as soon as the input goes idle (no command for {@code idle}) with something to
 * commit: a burst answered is visible at once. Each commit costs the stream thread and the broker a round of work,
 * so it never asks more often than every {@code spacing}; under a steady load, with no idle moment, it
 * commits every {@code interval}, as Kafka Streams would. Kafka Streams' own timer is then only a backstop
 * ({@link StreamsSettings}).
 *
 * <p>Pure: times are {@link System#nanoTime()} values passed in, so a test drives it with any clock.
 */
final class CommitPolicy {

    private final long intervalNanos;
    private final long idleNanos;
    private final long spacingNanos;
    private boolean pending;
    private long lastProcessedNanos;
    private long lastCommitNanos;

    CommitPolicy(long intervalNanos, long idleNanos, long spacingNanos, long startNanos) {
        if (intervalNanos <= 0 || idleNanos <= 0 || spacingNanos <= 0) {
            throw new IllegalArgumentException("commit interval, idle time and spacing must be positive");
        }
        this.intervalNanos = intervalNanos;
        this.idleNanos = idleNanos;
        this.spacingNanos = spacingNanos;
        this.lastCommitNanos = startNanos;
        this.lastProcessedNanos = startNanos;
    }

    /** Something was processed (a command, a time step that wrote) and ended at {@code nanos}. */
    void processed(long nanos) {
        pending = true;
        lastProcessedNanos = nanos;
    }

    /**
     * Whether to commit now, checked before each command and every millisecond: true when something waits and
     * either the input has been idle for {@code idle} (and the last commit is {@code spacing} ago) or the last
     * commit is {@code interval} ago. A true answer counts as the commit.
     */
    boolean commitDue(long nowNanos) {
        if (!pending) {
            return false;
        }
        long sinceCommit = nowNanos - lastCommitNanos;
        boolean idle = nowNanos - lastProcessedNanos >= idleNanos;
        if (sinceCommit >= intervalNanos || (idle && sinceCommit >= spacingNanos)) {
            pending = false;
            lastCommitNanos = nowNanos;
            return true;
        }
        return false;
    }
}
