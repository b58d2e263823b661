package io.coordinate.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class AttemptHoldingTest {

    private static final long MS = 1_000_000L;
    private static final long LEASE_30_S = 30_000 * MS;

    private static AttemptHolding adaptive(int concurrency) {
        return new AttemptHolding(concurrency, Duration.ofSeconds(30), -1, 1000);
    }

    @Test
    void fourRoundTripsOfWorkAreQueued() {
        // ceil(4 x 20 ms x 8 / 1 ms)
        assertThat(AttemptHolding.queue(1 * MS, 20 * MS, 8, LEASE_30_S, 1000)).isEqualTo(640);
        // ceil(4 x 20 ms x 2 / 3 ms) = ceil(53.3)
        assertThat(AttemptHolding.queue(3 * MS, 20 * MS, 2, LEASE_30_S, 1000)).isEqualTo(54);
    }

    @Test
    void shortHandlersAreCappedByMaxHeld() {
        assertThat(AttemptHolding.queue(1 * MS, 100 * MS, 8, LEASE_30_S, 1000)).isEqualTo(1000);
        assertThat(AttemptHolding.queue(1 * MS, 100 * MS, 8, LEASE_30_S, 50)).isEqualTo(50);
    }

    @Test
    void aHandlerCountsAsAtLeastATenthOfAMillisecond() {
        // A no-op handler: ceil(4 x 20 ms x 8 / 0.1 ms), not unbounded.
        assertThat(AttemptHolding.queue(0, 20 * MS, 8, LEASE_30_S, 100_000)).isEqualTo(6400);
    }

    @Test
    void theQueueDrainsWithinAQuarterOfTheLease() {
        // Four round trips of 2 s would be 640 units of 100 ms; a quarter of the lease's work is 7.5 s x 8 / 100 ms.
        assertThat(AttemptHolding.queue(100 * MS, 2000 * MS, 8, LEASE_30_S, 1000))
                .isEqualTo(600);
        // Handlers of 10 minutes hold nothing extra: floor(7.5 s x 8 / 600 s) = 0.
        assertThat(AttemptHolding.queue(600_000 * MS, 100 * MS, 8, LEASE_30_S, 1000))
                .isZero();
    }

    @Test
    void untilBothAreMeasuredTheQueueIsTheConcurrency() {
        AttemptHolding holding = adaptive(8);
        assertThat(holding.queue()).isEqualTo(8);
        assertThat(holding.capacity()).isEqualTo(16);
        holding.handlerRan(1 * MS);
        assertThat(holding.queue()).isEqualTo(8);
        holding.answeredAfter(20 * MS);
        assertThat(holding.queue()).isEqualTo(640);
        assertThat(holding.capacity()).isEqualTo(648);
        assertThat(new AttemptHolding(8, Duration.ofSeconds(30), -1, 3).queue()).isEqualTo(3);
    }

    @Test
    void eachMeasurementMovesTheAverageByAFifth() {
        AttemptHolding holding = adaptive(8);
        holding.answeredAfter(10 * MS);
        holding.handlerRan(1 * MS);
        assertThat(holding.queue()).isEqualTo(320); // 4 x 10 x 8 / 1
        holding.handlerRan(2 * MS); // H = 1 + 0.2 x (2 - 1) = 1.2 ms
        assertThat(holding.queue()).isEqualTo(267); // ceil(320 / 1.2)
        holding.answeredAfter(60 * MS); // R = 10 + 0.2 x (60 - 10) = 20 ms
        assertThat(holding.queue()).isEqualTo(534); // ceil(640 / 1.2)
    }

    @Test
    void aPrefetchIsFixed() {
        AttemptHolding holding = new AttemptHolding(8, Duration.ofSeconds(30), 200, 1000);
        assertThat(holding.queue()).isEqualTo(200);
        holding.handlerRan(600_000 * MS);
        holding.answeredAfter(20 * MS);
        assertThat(holding.queue()).isEqualTo(200);
        assertThat(holding.capacity()).isEqualTo(208);
        assertThat(new AttemptHolding(8, Duration.ofSeconds(30), 2000, 1000).queue())
                .as("maxHeld bounds only what the worker sizes itself")
                .isEqualTo(2000);
    }
}
