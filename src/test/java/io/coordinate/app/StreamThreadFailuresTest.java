package io.coordinate.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class StreamThreadFailuresTest {

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
        .isEqualTo("3 stream thread failures in the last 10 minutes, the last: java.lang.IllegalStateException: three");
    now.addAndGet(StreamThreadFailures.WINDOW_MS - 120_000 + 1); // the first is now out of the window
    assertThat(failures.loopError()).isNull();
  }
}
