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
        return new RequestPacer(
                new AttemptHolding(16, Duration.ofSeconds(30), 0, 1000),
                new Backoff(Duration.ofMillis(100), Duration.ofSeconds(5)),
                TIMEOUT,
                0);
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

    /** A worker of 8 handlers at the defaults: its queue sized from what it measures. */
    private static RequestPacer adaptive(AttemptHolding holding) {
        return new RequestPacer(holding, new Backoff(Duration.ofMillis(100), Duration.ofSeconds(5)), TIMEOUT, 0);
    }

    @Test
    void atTheDefaultsTheRoomGrowsOnceTheHandlersAndTheRoundTripAreMeasured() {
        AttemptHolding holding = new AttemptHolding(8, Duration.ofSeconds(30), -1, 1000);
        RequestPacer pacer = adaptive(holding);
        assertThat(pacer.toAsk(0, 0)).isEqualTo(16); // 8 handlers and a queue of 8 until measured
        pacer.asked("r1", 16, 0);
        assertThat(pacer.answered("r1", false, 20 * MS)).isTrue(); // a round trip of 20 ms
        assertThat(pacer.toAsk(16, 20 * MS)).isZero();
        holding.handlerRan(1 * MS); // the first handler ended after 1 ms: 4 x 20 x 8 / 1 = 640 queued
        assertThat(pacer.toAsk(15, 21 * MS)).isEqualTo(648 - 15);
    }

    @Test
    void theRoundTripOfARequestSentAgainIsNotMeasured() {
        AttemptHolding holding = new AttemptHolding(8, Duration.ofSeconds(30), -1, 1000);
        RequestPacer pacer = adaptive(holding);
        holding.handlerRan(1 * MS);
        pacer.asked("r1", 16, 0);
        assertThat(pacer.overdue(TIMEOUT)).containsExactly("r1");
        pacer.answered("r1", false, TIMEOUT + 5 * MS);
        assertThat(holding.queue()).as("still unmeasured").isEqualTo(8);
        pacer.asked("r2", 16, TIMEOUT + 5 * MS);
        pacer.answered("r2", false, TIMEOUT + 15 * MS);
        assertThat(holding.queue()).isEqualTo(320); // 4 x 10 ms x 8 / 1 ms
    }

    @Test
    void onlyAFreeHandlerLingersNotAFreeSlotOfTheQueue() {
        RequestPacer pacer = adaptive(new AttemptHolding(8, Duration.ofSeconds(30), 8, 1000));
        pacer.asked("r1", 16, 0);
        pacer.answered("r1", false, 10 * MS);
        // 12 held: every handler busy, 4 queued; 4 slots free, under half of 16.
        assertThat(pacer.toAsk(12, 10 * MS)).isZero();
        assertThat(pacer.nextWakeUp(12, 10 * MS)).as("nothing to wake up for").isEqualTo(Long.MAX_VALUE);
        assertThat(pacer.toAsk(12, 500 * MS)).isZero();
        // 8 held: half free, asked at once; then 5 held with those 8 on their way: a handler is free from 501 ms,
        // and its 3 slots wait the linger for others.
        assertThat(pacer.toAsk(8, 500 * MS)).isEqualTo(8);
        pacer.asked("r2", 8, 500 * MS);
        assertThat(pacer.toAsk(5, 501 * MS)).isZero();
        assertThat(pacer.nextWakeUp(5, 501 * MS)).isEqualTo(521 * MS);
        assertThat(pacer.toAsk(5, 521 * MS)).isEqualTo(3);
    }

    @Test
    void anIdleWorkerAsksAtMostTenTimesInItsFirstSecondThenOnceEveryFiveSeconds() {
        RequestPacer pacer = adaptive(new AttemptHolding(8, Duration.ofSeconds(30), -1, 1000));
        List<Long> sentAtMillis = new java.util.ArrayList<>();
        long now = 0;
        while (now < 30_000 * MS) {
            int count = pacer.toAsk(0, now);
            if (count > 0) {
                sentAtMillis.add(now / MS);
                pacer.asked("r" + now, count, now);
                pacer.answered("r" + now, true, now + 5 * MS); // empty, after a round trip of 5 ms
            }
            now = Math.max(now + 1, pacer.nextWakeUp(0, now));
        }
        assertThat(sentAtMillis)
                .containsExactly(0L, 105L, 310L, 715L, 1520L, 3125L, 6330L, 11335L, 16340L, 21345L, 26350L);
        assertThat(sentAtMillis.stream().filter(t -> t < 1000)).hasSizeLessThanOrEqualTo(10);
    }
}
