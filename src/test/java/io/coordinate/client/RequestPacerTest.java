package io.coordinate.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class RequestPacerTest {

    private static final long MS = 1_000_000L;
    private static final long TIMEOUT = 10_000 * MS;

    /** A worker of 16 handlers and no prefetch, backing off from 100 ms to 5 s, started at time 0. */
    private static RequestPacer pacer() {
        return new RequestPacer(16, new Backoff(Duration.ofMillis(100), Duration.ofSeconds(5)), TIMEOUT, 0);
    }

    @Test
    void holdingNothingItAsksForEverySlotAtOnce() {
        RequestPacer pacer = pacer();
        assertThat(pacer.toAsk(0, 0)).isEqualTo(16);
        pacer.asked("r1", 16, 0);
        assertThat(pacer.free(0)).isZero(); // all reserved by the request
        assertThat(pacer.toAsk(0, 1 * MS)).isZero();
    }

    @Test
    void oneFreedSlotWaitsForHalfTheSlotsOrTheLinger() {
        RequestPacer pacer = pacer();
        pacer.asked("r1", 16, 0);
        assertThat(pacer.answered("r1", false, 10 * MS)).isTrue();
        assertThat(pacer.toAsk(15, 11 * MS)).isZero(); // one slot free since 11 ms
        assertThat(pacer.toAsk(9, 12 * MS)).isZero(); // seven
        assertThat(pacer.toAsk(8, 13 * MS)).isEqualTo(8); // half
        assertThat(pacer.toAsk(15, 13 * MS)).isZero();
        // A lone free slot goes once it has waited the linger, 20 ms from when it was first seen free.
        assertThat(pacer.nextWakeUp(15, 13 * MS)).isEqualTo(31 * MS);
        assertThat(pacer.toAsk(15, 30 * MS)).isZero();
        assertThat(pacer.toAsk(15, 31 * MS)).isEqualTo(1);
    }

    @Test
    void eachRequestReservesItsSlotsSoSeveralMayBeInFlight() {
        RequestPacer pacer = pacer();
        pacer.asked("r1", 16, 0);
        pacer.answered("r1", false, 1 * MS);
        assertThat(pacer.toAsk(8, 1 * MS)).isEqualTo(8);
        pacer.asked("r2", 8, 1 * MS);
        assertThat(pacer.free(0)).isEqualTo(8); // the 8 held ended, r2 holds 8
        assertThat(pacer.toAsk(0, 2 * MS)).isEqualTo(8);
        pacer.asked("r3", 8, 2 * MS);
        assertThat(pacer.awaitsAnswers()).isTrue();
        assertThat(pacer.answered("r2", false, 3 * MS)).isTrue();
        assertThat(pacer.answered("r3", false, 3 * MS)).isTrue();
        assertThat(pacer.awaitsAnswers()).isFalse();
        assertThat(pacer.answered("r3", false, 3 * MS)).isFalse(); // answered already
        assertThat(pacer.answered(null, false, 3 * MS)).isFalse();
    }

    @Test
    void emptyAnswersBackOffDoublingUpToTheCapAndWorkResetsIt() {
        RequestPacer pacer = pacer();
        long now = 0;
        for (long wait : List.of(100L, 200L, 400L, 800L, 1600L, 3200L, 5000L, 5000L)) {
            assertThat(pacer.toAsk(0, now)).isEqualTo(16);
            pacer.asked("r" + now, 16, now);
            pacer.answered("r" + now, true, now);
            assertThat(pacer.toAsk(0, now + wait * MS - 1))
                    .as("before %d ms", wait)
                    .isZero();
            assertThat(pacer.nextWakeUp(0, now)).isEqualTo(now + wait * MS);
            now += wait * MS;
        }
        pacer.asked("work", 16, now);
        pacer.answered("work", false, now);
        pacer.asked("empty", 16, now);
        pacer.answered("empty", true, now);
        assertThat(pacer.toAsk(0, now + 99 * MS)).isZero();
        assertThat(pacer.toAsk(0, now + 100 * MS)).isEqualTo(16); // from 100 ms again
    }

    @Test
    void aRequestUnansweredPastTheTimeoutIsOverdueAndKeepsItsSlots() {
        RequestPacer pacer = pacer();
        pacer.asked("r1", 16, 0);
        assertThat(pacer.nextWakeUp(0, 1)).isEqualTo(TIMEOUT);
        assertThat(pacer.overdue(TIMEOUT - 1)).isEmpty();
        assertThat(pacer.overdue(TIMEOUT)).containsExactly("r1");
        assertThat(pacer.free(0))
                .as("sent again, not given up: no second request for its slots")
                .isZero();
        assertThat(pacer.toAsk(0, TIMEOUT)).isZero();
        assertThat(pacer.nextWakeUp(0, TIMEOUT)).isEqualTo(2 * TIMEOUT);
        assertThat(pacer.overdue(2 * TIMEOUT - 1)).isEmpty();
        assertThat(pacer.answered("r1", false, 2 * TIMEOUT - 1)).isTrue();
        assertThat(pacer.free(0)).isEqualTo(16);
        assertThat(pacer.answered("r1", false, 2 * TIMEOUT)).isFalse(); // the answer to the copy sent again
    }

    @Test
    void anAnswerARateLimitHeldShortWaitsItsRetryAfterInsteadOfTheBackoff() {
        RequestPacer pacer = pacer();
        pacer.asked("r1", 16, 0);
        assertThat(pacer.answered("r1", true, 50 * MS, 0)).isTrue();
        assertThat(pacer.nextWakeUp(0, 0)).isEqualTo(50 * MS);
        assertThat(pacer.toAsk(0, 49 * MS)).isZero();
        assertThat(pacer.toAsk(0, 50 * MS)).isEqualTo(16);
        // the backoff did not move: the next plain empty answer still waits its first 100 ms
        pacer.asked("r2", 16, 50 * MS);
        pacer.answered("r2", true, 60 * MS);
        assertThat(pacer.nextWakeUp(0, 60 * MS)).isEqualTo(160 * MS);
        // work held short by a limit: wait for the token too, rather than asking at once
        assertThat(pacer.toAsk(0, 160 * MS)).isEqualTo(16);
        pacer.asked("r3", 16, 160 * MS);
        pacer.answered("r3", false, 30 * MS, 170 * MS);
        assertThat(pacer.nextWakeUp(4, 170 * MS)).isEqualTo(200 * MS);
        assertThat(pacer.toAsk(4, 199 * MS)).isZero();
        assertThat(pacer.toAsk(4, 200 * MS)).isEqualTo(12);
    }

    @Test
    void aRetryAfterLongerThanTheMaximumBackoffWaitsTheMaximum() {
        RequestPacer pacer = pacer();
        pacer.asked("r1", 16, 0);
        pacer.answered("r1", true, 60_000 * MS, 0);

        assertThat(pacer.nextWakeUp(0, 0)).isEqualTo(5_000 * MS);
    }
}
