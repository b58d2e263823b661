package io.coordinate.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PhaseWindowTest {

    /** A run's figures: its count and its window. */
    private record Run(long count, double seconds) {}

    private final ByteArrayOutputStream progress = new ByteArrayOutputStream();
    /** Each run asked for: count and attempt. */
    private final List<String> asked = new ArrayList<>();

    private PhaseWindow<Run> window(long least, double minSeconds) {
        return new PhaseWindow<>(
                "c. lifecycle",
                "units",
                least,
                minSeconds,
                Run::count,
                Run::seconds,
                new PrintStream(progress, true, StandardCharsets.UTF_8));
    }

    /** A phase that runs {@code rate} units/s whatever its count. */
    private PhaseWindow.Run<Run> steady(double rate) {
        return (count, attempt) -> {
            asked.add(count + "#" + attempt);
            return new Run(count, count / rate);
        };
    }

    @Test
    void theWarmUpsSizeTheMeasuredRunsForTheMinimumWithAMargin() {
        PhaseWindow<Run> window = window(200_000, 5);
        assertThat(window.count()).isEqualTo(200_000);
        window.observe(new Run(200_000, 1.0)); // 200,000/s x 5 s x 1.5
        assertThat(window.count()).isEqualTo(1_500_000);
        window.observe(new Run(200_000, 0.8)); // 250,000/s: 1,875,000, rounded up to 10,000
        assertThat(window.count()).isEqualTo(1_880_000);
        window.observe(new Run(200_000, 2.0)); // a slower run needs 750,000: the count never shrinks
        assertThat(window.count()).isEqualTo(1_880_000);
    }

    @Test
    void theCountIsNeverBelowTheLeastGiven() {
        PhaseWindow<Run> window = window(1_000_000, 5);
        window.observe(new Run(200_000, 4.0)); // 50,000/s needs 375,000
        assertThat(window.count()).isEqualTo(1_000_000);
    }

    @Test
    void aMeasuredRunThatEndsTooSoonIsRunAgainAtTheCountItsRateCallsFor() throws Exception {
        PhaseWindow<Run> window = window(200_000, 5);

        Run first = window.measure(steady(100_000)); // 2 s, then 750,000 in 7.5 s
        Run second = window.measure(steady(100_000));

        assertThat(first).isEqualTo(new Run(750_000, 7.5));
        assertThat(second).isEqualTo(new Run(750_000, 7.5));
        assertThat(asked).containsExactly("200000#1", "750000#2", "750000#1");
        assertThat(progress.toString(StandardCharsets.UTF_8))
                .isEqualTo("   c. lifecycle window 2.00 s, under 5 s: run again with 750,000 units\n");
    }

    @Test
    void measuredRunsLongEnoughKeepTheirCountHoweverFastTheyRan() throws Exception {
        PhaseWindow<Run> window = window(200_000, 5);
        window.observe(new Run(200_000, 1.0)); // a warm-up: 1,500,000
        assertThat(window.measure(steady(250_000))).isEqualTo(new Run(1_500_000, 6.0));
        assertThat(window.measure(steady(300_000))).isEqualTo(new Run(1_500_000, 5.0));
        assertThat(window.count()).isEqualTo(1_500_000);
        assertThat(asked).containsExactly("1500000#1", "1500000#1");
    }

    @Test
    void aWindowOfExactlyTheMinimumCounts() throws Exception {
        PhaseWindow<Run> window = window(500_000, 5);
        assertThat(window.measure(steady(100_000))).isEqualTo(new Run(500_000, 5.0));
        assertThat(asked).containsExactly("500000#1");
    }

    @Test
    void noMinimumRunsExactlyTheLeastCount() throws Exception {
        PhaseWindow<Run> window = window(20_000, 0);
        window.observe(new Run(20_000, 0.1));
        assertThat(window.measure(steady(1_000_000))).isEqualTo(new Run(20_000, 0.02));
        assertThat(asked).containsExactly("20000#1");
        assertThat(progress.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void aFractionalMinimumIsPrintedAsGiven() throws Exception {
        PhaseWindow<Run> window = window(10_000, 2.5);
        window.measure(steady(10_000)); // 1 s, then 40,000 (10,000/s x 2.5 s x 1.5 = 37,500, rounded up) in 4 s
        assertThat(asked).containsExactly("10000#1", "40000#2");
        assertThat(progress.toString(StandardCharsets.UTF_8))
                .isEqualTo("   c. lifecycle window 1.00 s, under 2.5 s: run again with 40,000 units\n");
    }

    @Test
    void aWindowThatDoesNotGrowWithTheCountFailsThePhase() {
        PhaseWindow<Run> window = window(200_000, 5);
        PhaseWindow.Run<Run> stuck = (count, attempt) -> {
            asked.add(count + "#" + attempt);
            return new Run(count, 1.0);
        };
        assertThatThrownBy(() -> window.measure(stuck))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("c. lifecycle: the window was still 1.00 s, under 5 s, after 4 runs");
        assertThat(asked).containsExactly("200000#1", "1500000#2", "11250000#3", "84380000#4");
    }

    @Test
    void aRunWithoutAWindowFails() {
        PhaseWindow<Run> window = window(200_000, 5);
        assertThatThrownBy(() -> window.observe(new Run(200_000, 0)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("c. lifecycle: a run reported a window of 0.0 s");
        assertThatThrownBy(() -> window.observe(new Run(200_000, Double.NaN)))
                .hasMessage("c. lifecycle: a run reported a window of NaN s");
        assertThat(window.count()).isEqualTo(200_000);
    }
}
