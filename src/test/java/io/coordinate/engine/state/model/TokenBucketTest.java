package io.coordinate.engine.state.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The token bucket of a rate limit: exact refills on the engine's clock, its capacity, takes and next token. */
class TokenBucketTest {

    private static final long T0 = 1_700_000_000_000L;
    private static final RateLimit TWENTY_A_SECOND = new RateLimit(20, 1, 20);

    @Test
    void aNewBucketIsFullAndGrantsAtMostItsTokens() {
        TokenBucket bucket = TokenBucket.full(TWENTY_A_SECOND, T0);

        assertThat(bucket.wholeTokensAt(T0)).isEqualTo(20);
        assertThat(bucket.take(T0, 15)).isEqualTo(15);
        assertThat(bucket.take(T0, 15)).isEqualTo(5);
        assertThat(bucket.take(T0, 1)).isZero();
        assertThat(bucket.tokens()).isEqualTo(0.0);
        assertThat(bucket.updated()).isEqualTo(T0);
    }

    @Test
    void itRefillsMaxPerWindowExactly() {
        TokenBucket bucket = TokenBucket.of(TWENTY_A_SECOND, 0, T0);

        assertThat(bucket.tokensAt(T0 + 49)).isEqualTo(0.98);
        assertThat(bucket.wholeTokensAt(T0 + 49)).isZero();
        assertThat(bucket.wholeTokensAt(T0 + 50)).isEqualTo(1);
        assertThat(bucket.tokensAt(T0 + 500)).isEqualTo(10.0);
        assertThat(bucket.wholeTokensAt(T0 + 1000)).isEqualTo(20);
    }

    @Test
    void itNeverHoldsMoreThanItsBurst() {
        TokenBucket bucket = TokenBucket.of(new RateLimit(10, 1, 30), 0, T0);

        assertThat(bucket.wholeTokensAt(T0 + 1000)).isEqualTo(10);
        assertThat(bucket.wholeTokensAt(T0 + 3000)).isEqualTo(30);
        assertThat(bucket.wholeTokensAt(T0 + 60_000)).isEqualTo(30);
        assertThat(bucket.take(T0 + 60_000, 100)).isEqualTo(30);
        assertThat(bucket.wholeTokensAt(T0 + 60_100)).isEqualTo(1);
    }

    @Test
    void nextTokenAtIsTheFirstMillisecondWithAWholeToken() {
        TokenBucket bucket = TokenBucket.full(TWENTY_A_SECOND, T0);
        assertThat(bucket.nextTokenAt(T0)).isEqualTo(T0);
        bucket.take(T0, 20);

        assertThat(bucket.nextTokenAt(T0)).isEqualTo(T0 + 50);
        assertThat(bucket.nextTokenAt(T0 + 30)).isEqualTo(T0 + 50);
        assertThat(bucket.nextTokenAt(T0 + 50)).isEqualTo(T0 + 50);
        assertThat(bucket.take(T0 + 50, 5)).isEqualTo(1);
        assertThat(bucket.nextTokenAt(T0 + 50)).isEqualTo(T0 + 100);
    }

    @Test
    void fractionalRatesCarryTheirFractionsAcrossTakes() {
        // 2 tokens per 3 s: one every 1.5 s
        TokenBucket bucket = TokenBucket.of(new RateLimit(2, 3, 2), 0, T0);

        assertThat(bucket.nextTokenAt(T0)).isEqualTo(T0 + 1500);
        assertThat(bucket.take(T0 + 1499, 1)).isZero();
        assertThat(bucket.take(T0 + 1500, 1)).isEqualTo(1);
        assertThat(bucket.nextTokenAt(T0 + 1500)).isEqualTo(T0 + 3000);
        // a third of a window: two thirds of a token, kept across a take that got nothing
        assertThat(bucket.take(T0 + 2500, 1)).isZero();
        assertThat(bucket.take(T0 + 3000, 1)).isEqualTo(1);
        // 7 per 0.1 s: 0.07 a millisecond, a sum with a rounding in it
        TokenBucket fast = TokenBucket.of(new RateLimit(7, 0.1, 7), 0, T0);
        assertThat(fast.nextTokenAt(T0)).isEqualTo(T0 + 15);
        assertThat(fast.take(T0 + 14, 1)).isZero();
        assertThat(fast.take(T0 + 15, 2)).isEqualTo(1);
        assertThat(fast.nextTokenAt(T0 + 15)).isEqualTo(T0 + 29);
        assertThat(fast.take(T0 + 29, 1)).isEqualTo(1);
    }

    @Test
    void aClockThatStepsBackRefillsNothing() {
        TokenBucket bucket = TokenBucket.of(TWENTY_A_SECOND, 3, T0);

        assertThat(bucket.take(T0 - 500, 2)).isEqualTo(2);
        assertThat(bucket.updated()).isEqualTo(T0);
        assertThat(bucket.tokens()).isEqualTo(1.0);
    }
}
