package io.coordinate.engine.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.engine.state.model.WorkSpecMeta;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Scenario 56 over repeated runs: 20 runs of 1000 trials, each from its own seed. Every run's share stays
 * within 3σ of the expected one, and so does the pooled share of all 20 000 trials (σ shrinks with n).
 */
class SchedulerRepeatedRunsTest {

    private static final int RUNS = 20;
    private static final int TRIALS = 1000;
    private static final long NOW = 1_795_000_000_000L;

    @ParameterizedTest(name = "weights 1:10, {0} pending of the heavier")
    @ValueSource(ints = {0, 2})
    void twoWeightedSpecs(int pendingOfTwo) {
        // with 2 pending of two: scores 1·3 = 3 and 10·3 − 11·2 = 8, so 3/11 vs 8/11; with none: 1/11 vs 10/11
        int expectedOneOf11 = pendingOfTwo == 0 ? 1 : 3;
        assertShares(List.of(load("one", 1, 0), load("two", 10, pendingOfTwo)), "one", expectedOneOf11, 11);
    }

    @ParameterizedTest(name = "weights 1:5:1, the third with {0} pending")
    @ValueSource(ints = {99})
    void threeSpecsOneOverfull(int pending) {
        // W = 7, P = 99: scores 100, 500 and 100 − 693 < 0 (dropped), so 1/6 vs 5/6
        assertShares(List.of(load("one", 1, 0), load("two", 5, 0), load("three", 1, pending)), "one", 1, 6);
    }

    private static void assertShares(List<SpecLoad> specs, String watched, int num, int den) {
        double p = (double) num / den;
        long pooled = 0;
        for (int run = 0; run < RUNS; run++) {
            SplittableRandom random = new SplittableRandom(1000 + run);
            int hits = 0;
            for (int i = 0; i < TRIALS; i++) {
                if (Scheduler.choose(specs, WorkRequest.ANY, NOW, random).name().equals(watched)) {
                    hits++;
                }
            }
            assertWithinThreeSigma(hits, TRIALS, p, "run " + run);
            pooled += hits;
        }
        assertWithinThreeSigma(pooled, (long) RUNS * TRIALS, p, "all runs pooled");
    }

    private static void assertWithinThreeSigma(long obtained, long n, double p, String what) {
        double expected = n * p;
        double sigma = Math.sqrt(n * p * (1 - p));
        assertThat((double) obtained)
                .as("%s: %d of %d, expected %.1f ± 3·%.1f", what, obtained, n, expected, sigma)
                .isBetween(expected - 3 * sigma, expected + 3 * sigma);
    }

    private static SpecLoad load(String name, double weight, long pending) {
        return new SpecLoad(
                name, WorkSpecMeta.DEFAULTS.toBuilder().weight(weight).build(), 1000, pending);
    }
}
