package io.coordinate.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class StreamThreadFailuresTest {

    private static final String LOOP = "3 stream thread failures in the last 10 minutes, the last: ";

    private final AtomicLong now = new AtomicLong(1_000_000);
    private final StreamThreadFailures failures = new StreamThreadFailures(now::get);

    @Test
    void threeFailuresWithinTenMinutesAreALoopThatEndsAsTheyAge() {
        failures.failed(new IllegalStateException("one"));
        now.addAndGet(60_000);
        failures.failed(new IllegalStateException("two"));
        assertThat(failures.loopError()).isNull();
        now.addAndGet(60_000);
        failures.failed(new IllegalStateException("three"));

        assertThat(failures.loopError())
                .isEqualTo(
                        "3 stream thread failures in the last 10 minutes, the last: java.lang.IllegalStateException: three");
        now.addAndGet(StreamThreadFailures.WINDOW_MS - 120_000 + 1); // the first is now out of the window
        assertThat(failures.loopError()).isNull();
    }

    /** The cause is gone (a disk no longer full) once the new thread commits: readiness need not wait 10 minutes. */
    @Test
    void aCommitAfterTheLastFailureEndsTheLoopAndTheNextFailureStartsItAgain() {
        failures.observe(1, 40);
        threeFailures();
        failures.observe(1, 0); // the failed thread's count went with it; the new thread has not committed yet
        now.addAndGet(1_000);
        failures.observe(1, 0);
        assertThat(failures.loopError()).isEqualTo(LOOP + "java.io.IOException: disk full 3");

        now.addAndGet(1_000);
        failures.observe(1, 1);
        assertThat(failures.loopError()).isNull();

        now.addAndGet(1_000);
        failures.failed(new IOException("disk full 4"));
        assertThat(failures.loopError())
                .isEqualTo(
                        "4 stream thread failures in the last 10 minutes, the last: java.io.IOException: disk full 4");
    }

    /** A rise seen across a failure may be the failed thread's last commit: it ends no loop. */
    @Test
    void aCommitThatMayPrecedeTheLastFailureDoesNotEndTheLoop() {
        failures.observe(1, 40);
        threeFailures();
        now.addAndGet(500);
        failures.observe(1, 41);
        assertThat(failures.loopError()).isEqualTo(LOOP + "java.io.IOException: disk full 3");

        now.addAndGet(1_000);
        failures.observe(1, 41);
        assertThat(failures.loopError()).isEqualTo(LOOP + "java.io.IOException: disk full 3");
        now.addAndGet(1_000);
        failures.observe(1, 42);
        assertThat(failures.loopError()).isNull();
    }

    /**
     * A failed thread whose replacement could not start leaves none alive: after the grace, that is what
     * {@link StreamThreadFailures#stopped()} says, and it counts as a failure.
     */
    @Test
    void noLiveThreadForTheGraceIsAStopThatCountsAsAFailure() {
        failures.observe(1, 7);
        now.addAndGet(1_000);
        failures.failed(new IllegalStateException("Too many open files"));
        now.addAndGet(1_000);
        failures.observe(0, 0);
        now.addAndGet(StreamThreadFailures.NO_THREAD_GRACE_MS - 1);
        failures.observe(0, 0);
        assertThat(failures.stopped()).isNull();
        assertThat(failures.loopError()).isNull();

        now.addAndGet(1);
        failures.observe(0, 0);
        assertThat(failures.stopped())
                .isEqualTo(
                        "no stream thread has been alive for 10 s, and none was started in "
                                + "place of the failed one (the last failure: java.lang.IllegalStateException: Too many open files)");
        now.addAndGet(1_000);
        failures.failed(new IllegalStateException("again"));
        assertThat(failures.loopError()).isEqualTo(LOOP + "java.lang.IllegalStateException: again");

        now.addAndGet(1_000);
        failures.observe(1, 0);
        assertThat(failures.stopped()).isNull();
    }

    /** The handover of a replacement, with no thread alive for a moment, is no stop. */
    @Test
    void aMomentWithoutALiveThreadIsNoStop() {
        failures.observe(0, 0);
        now.addAndGet(StreamThreadFailures.NO_THREAD_GRACE_MS - 1);
        failures.observe(1, 0);
        now.addAndGet(1_000);
        failures.observe(0, 0);
        now.addAndGet(StreamThreadFailures.NO_THREAD_GRACE_MS - 1);
        failures.observe(0, 0);
        assertThat(failures.stopped()).isNull();
    }

    private void threeFailures() {
        for (int i = 1; i <= 3; i++) {
            now.addAndGet(1_000);
            failures.failed(new IOException("disk full " + i));
        }
    }
}
