package io.coordinate.app;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.LongSupplier;

/**
 * The stream thread's recent failures. A failed thread is replaced, and Kafka Streams still says RUNNING while the
 * new one replays the same records; when it keeps failing, the instance is in a failure loop and serves nothing,
 * which the health check must say. A loop is {@link #LOOP_FAILURES} failures within {@link #WINDOW_MS}; it ends once
 * the window holds fewer.
 */
public final class StreamThreadFailures {

  static final int LOOP_FAILURES = 3;
  static final long WINDOW_MS = 10 * 60 * 1000L;

  private final LongSupplier clock;
  private final Deque<Long> times = new ArrayDeque<>();
  private String lastError;

  public StreamThreadFailures(LongSupplier clock) {
    this.clock = clock;
  }

  public synchronized void failed(Throwable error) {
    times.addLast(clock.getAsLong());
    lastError = String.valueOf(error);
    forgetOld();
  }

  /** The last error when the thread is in a failure loop, else null. */
  public synchronized String loopError() {
    forgetOld();
    return times.size() >= LOOP_FAILURES ? times.size() + " stream thread failures in the last "
        + WINDOW_MS / 60_000 + " minutes, the last: " + lastError : null;
  }

  private void forgetOld() {
    long oldest = clock.getAsLong() - WINDOW_MS;
    while (!times.isEmpty() && times.peekFirst() < oldest) {
      times.removeFirst();
    }
  }
}
