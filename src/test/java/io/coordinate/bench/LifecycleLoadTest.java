package io.coordinate.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LifecycleLoadTest {

    @Test
    void ratesByTenthOfTheWork() {
        long s = 1_000_000_000L;
        // 1,000 units: the first tenth (100 units) in 1 s, then each tenth 1 s slower than the one before.
        long[] tenths = new long[11];
        for (int i = 1; i <= 10; i++) {
            tenths[i] = tenths[i - 1] + i * s;
        }
        double[] rates = LifecycleLoad.tenthRates(1_000, tenths);
        assertThat(rates[0]).isEqualTo(100.0);
        assertThat(rates[1]).isEqualTo(50.0);
        assertThat(rates[9]).isEqualTo(10.0);
    }

    @Test
    void tenthsNotReachedAreNaN() {
        long[] tenths = new long[11];
        tenths[1] = 1_000_000_000L;
        double[] rates = LifecycleLoad.tenthRates(100, tenths);
        assertThat(rates[0]).isEqualTo(10.0);
        assertThat(rates[1]).isNaN();
    }

    @Test
    void unitNamesSortInTheOrderTheyWereAdded() {
        assertThat(LifecycleLoad.unitName("u", 7)).isEqualTo("u000000007");
        assertThat(LifecycleLoad.unitName("u", 10)).isGreaterThan(LifecycleLoad.unitName("u", 9));
    }
}
