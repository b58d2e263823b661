package io.coordinate.engine.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.engine.state.model.WorkSpecMeta;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Conformance scenario 56 (docs/architecture.md#conformance-tests): the spec choice of {@link Scheduler#choose} over
 * 1000 trials, as the reference scheduler tests check it. A share is accepted within 3σ: {@code expected = n·num/den}
 * (integer division), {@code σ = ceil(sqrt(n·p·(1−p)))}, bounds inclusive. The random source is seeded, so each run is
 * the same.
 */
class SchedulerStatisticsTest {

    private static final int TRIALS = 1000;
    private static final long NOW = 1_795_000_000_000L;

    private final Random random = new Random(56);

    @Test
    @DisplayName("56. No specs → no work")
    void scenario56_empty() {
        assertThat(Scheduler.choose(List.of(), WorkRequest.ANY, NOW, random)).isNull();
    }

    @Test
    @DisplayName("56. One spec → always chosen")
    void scenario56_oneSpec() {
        assertThat(run(spec("one", 1, 1000, 0))).containsExactly(Map.entry("one", 1000));
    }

    @Test
    @DisplayName("56. Weight 0 → no work")
    void scenario56_zeroWeight() {
        assertThat(Scheduler.choose(List.of(spec("one", 0, 1000, 0)), WorkRequest.ANY, NOW, random))
                .isNull();
    }

    @Test
    @DisplayName("56. One paused → never chosen")
    void scenario56_twoSpecsOnePaused() {
        SpecLoad paused = with(spec("two", 1, 1000, 0), true, false, 0, 0);
        assertThat(run(spec("one", 1, 1000, 0), paused)).containsExactly(Map.entry("one", 1000));
    }

    @Test
    @DisplayName("56. One without work → never chosen")
    void scenario56_twoSpecsOneEmpty() {
        assertThat(run(spec("one", 1, 1000, 0), spec("two", 1, 0, 0))).containsExactly(Map.entry("one", 1000));
    }

    @Test
    @DisplayName("56. max_running full → never chosen")
    void scenario56_twoSpecsOneFull() {
        SpecLoad full = with(spec("two", 1, 1000, 10), false, false, 0, 10);
        assertThat(run(spec("one", 1, 1000, 10), full)).containsExactly(Map.entry("one", 1000));
    }

    @Test
    @DisplayName("56. max_running full with nothing available → never chosen")
    void scenario56_twoUnequalSpecsOneFull() {
        SpecLoad full = with(spec("two", 1, 0, 10), false, false, 0, 10);
        assertThat(run(spec("one", 1, 1000, 0), full)).containsExactly(Map.entry("one", 1000));
    }

    @Test
    @DisplayName("56. Two equal specs → ~1/2 each")
    void scenario56_twoEqualSpecs() {
        Map<String, Integer> counts = run(spec("one", 1, 1000, 0), spec("two", 1, 1000, 0));
        assertWithinThreeSigma(counts.get("one"), 1, 2);
        assertWithinThreeSigma(counts.get("two"), 1, 2);
    }

    @Test
    @DisplayName("56. Weights 1 vs 10 → ~1/11 vs 10/11")
    void scenario56_twoUnequalSpecs() {
        Map<String, Integer> counts = run(spec("one", 1, 1000, 0), spec("two", 10, 1000, 0));
        assertWithinThreeSigma(counts.get("one"), 1, 11);
        assertWithinThreeSigma(counts.get("two"), 10, 11);
    }

    @Test
    @DisplayName("56. w1 vs w10 with 2 pending and 998 available → ~3/11 vs 8/11")
    void scenario56_twoUnequalSpecsWithWork() {
        Map<String, Integer> counts = run(spec("one", 1, 1000, 0), spec("two", 10, 998, 2));
        assertWithinThreeSigma(counts.get("one"), 3, 11);
        assertWithinThreeSigma(counts.get("two"), 8, 11);
    }

    @Test
    @DisplayName("56. w1, w5, w1 with 99 pending → ~1/6, ~5/6, 0")
    void scenario56_threeSpecsOneOverfull() {
        Map<String, Integer> counts = run(spec("one", 1, 1000, 0), spec("two", 5, 1000, 0), spec("three", 1, 1000, 99));
        assertWithinThreeSigma(counts.get("one"), 1, 6);
        assertWithinThreeSigma(counts.get("two"), 5, 6);
        assertThat(counts.getOrDefault("three", 0)).isZero();
    }

    @Test
    @DisplayName("56. Continuous with no units vs one with work → ~1/2 each")
    void scenario56_twoSpecsContinuous() {
        SpecLoad continuous = with(spec("two", 1, 0, 0), false, true, 0, 0);
        Map<String, Integer> counts = run(spec("one", 1, 1000, 0), continuous);
        assertWithinThreeSigma(counts.get("one"), 1, 2);
        assertWithinThreeSigma(counts.get("two"), 1, 2);
    }

    @Test
    @DisplayName("56. Continuous whose unit is still pending → never chosen")
    void scenario56_twoSpecsContinuousBusy() {
        SpecLoad busy = with(spec("two", 1, 0, 1), false, true, 0, 0);
        assertThat(run(spec("one", 1, 1000, 0), busy)).containsExactly(Map.entry("one", 1000));
    }

    @Test
    @DisplayName("56. Continuous before its next_continuous → never chosen; at it → chosen")
    void scenario56_continuousInterval() {
        SpecLoad waiting = with(spec("two", 1, 0, 0), false, true, NOW + 1, 0);
        assertThat(run(spec("one", 1, 1000, 0), waiting)).containsExactly(Map.entry("one", 1000));
        SpecLoad due = with(spec("two", 1, 0, 0), false, true, NOW, 0);
        assertThat(Scheduler.choose(List.of(due), WorkRequest.ANY, NOW, random)).isEqualTo(due);
    }

    @Test
    @DisplayName("56. Three equal specs → ~1/3 each")
    void scenario56_threeSpecsEqual() {
        Map<String, Integer> counts = run(spec("one", 1, 1000, 0), spec("two", 1, 1000, 0), spec("three", 1, 1000, 0));
        assertWithinThreeSigma(counts.get("one"), 1, 3);
        assertWithinThreeSigma(counts.get("two"), 1, 3);
        assertWithinThreeSigma(counts.get("three"), 1, 3);
    }

    @Test
    @DisplayName("56. Priority 2 beats all")
    void scenario56_threeSpecsPriority() {
        SpecLoad urgent = withPriority(spec("three", 1, 1000, 0), 2);
        assertThat(run(spec("one", 1, 1000, 0), spec("two", 1, 1000, 0), urgent))
                .containsExactly(Map.entry("three", 1000));
    }

    @Test
    @DisplayName("56. Priority spec with no work → the others share")
    void scenario56_threeSpecsPriorityBusy() {
        SpecLoad idle = withPriority(spec("three", 1, 0, 0), 2);
        Map<String, Integer> counts = run(spec("one", 1, 1000, 0), spec("two", 1, 1000, 0), idle);
        assertWithinThreeSigma(counts.get("one"), 1, 2);
        assertWithinThreeSigma(counts.get("two"), 1, 2);
        assertThat(counts).doesNotContainKey("three");
    }

    // --- helpers ---

    private Map<String, Integer> run(SpecLoad... specs) {
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < TRIALS; i++) {
            SpecLoad chosen = Scheduler.choose(Arrays.asList(specs), WorkRequest.ANY, NOW, random);
            assertThat(chosen).as("trial %d", i).isNotNull();
            counts.merge(chosen.name(), 1, Integer::sum);
        }
        return counts;
    }

    /** The reference's {@code WithinThreeSigma(obtained, n, num, den)}. */
    private static void assertWithinThreeSigma(Integer obtained, int num, int den) {
        int expected = TRIALS * num / den;
        double p = (double) num / den;
        int sigma = (int) Math.ceil(Math.sqrt(TRIALS * p * (1 - p)));
        assertThat(obtained == null ? 0 : obtained)
                .as("%d/%d of %d: %d ± 3·%d", num, den, TRIALS, expected, sigma)
                .isBetween(expected - 3 * sigma, expected + 3 * sigma);
    }

    private static SpecLoad spec(String name, double weight, long available, long pending) {
        return new SpecLoad(name, meta(0, weight, false, false, null, 0), available, pending);
    }

    private static SpecLoad with(
            SpecLoad load, boolean paused, boolean continuous, long nextContinuous, long maxRunning) {
        WorkSpecMeta m = load.meta();
        return new SpecLoad(
                load.name(),
                meta(
                        m.priority(),
                        m.weight(),
                        paused,
                        continuous,
                        nextContinuous == 0 ? null : nextContinuous,
                        maxRunning),
                load.available(),
                load.pending());
    }

    private static SpecLoad withPriority(SpecLoad load, double priority) {
        WorkSpecMeta m = load.meta();
        return new SpecLoad(
                load.name(),
                meta(priority, m.weight(), m.paused(), m.continuous(), m.nextContinuous(), m.maxRunning()),
                load.available(),
                load.pending());
    }

    private static WorkSpecMeta meta(
            double priority, double weight, boolean paused, boolean continuous, Long nextContinuous, long maxRunning) {
        return WorkSpecMeta.DEFAULTS.toBuilder()
                .priority(priority)
                .weight(weight)
                .paused(paused)
                .continuous(continuous)
                .canBeContinuous(continuous)
                .nextContinuous(nextContinuous)
                .maxRunning(maxRunning)
                .build();
    }
}
