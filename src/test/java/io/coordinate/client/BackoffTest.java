package io.coordinate.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackoffTest {

    @Test
    void doublesFromMinUpToMaxAndResetsOnWork() {
        Backoff backoff = new Backoff(Duration.ofMillis(100), Duration.ofMillis(500));
        assertThat(new long[] {backoff.nextNanos(), backoff.nextNanos(), backoff.nextNanos(), backoff.nextNanos()})
                .containsExactly(100_000_000L, 200_000_000L, 400_000_000L, 500_000_000L);
        backoff.reset();
        assertThat(backoff.nextNanos()).isEqualTo(100_000_000L);
    }

    @Test
    void refusesAnEmptyOrInvertedRange() {
        assertThatThrownBy(() -> new Backoff(Duration.ZERO, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
