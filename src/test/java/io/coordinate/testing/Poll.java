package io.coordinate.testing;

import java.time.Duration;
import java.util.function.Supplier;

/** Waits for a condition by polling it, and fails with what it last saw when it does not come in time. */
public final class Poll {

    private Poll() {}

    /** Polls {@code value} every 100 ms until {@code done} holds for it; returns that value. */
    public static <T> T until(String what, Duration timeout, Supplier<T> value, java.util.function.Predicate<T> done) {
        long deadline = System.nanoTime() + timeout.toNanos();
        T last = value.get();
        while (!done.test(last)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(
                        "timed out after " + timeout + " waiting for " + what + "; last seen: " + last);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what);
            }
            last = value.get();
        }
        return last;
    }
}
