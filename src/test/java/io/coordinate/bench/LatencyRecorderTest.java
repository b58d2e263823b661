package io.coordinate.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LatencyRecorderTest {

    @Test
    void nearestRankPercentilesOfOneToHundred() {
        long[] sorted = new long[100];
        for (int i = 0; i < 100; i++) {
            sorted[i] = i + 1;
        }
        assertThat(LatencyRecorder.percentile(sorted, 50)).isEqualTo(50);
        assertThat(LatencyRecorder.percentile(sorted, 99)).isEqualTo(99);
        assertThat(LatencyRecorder.percentile(sorted, 100)).isEqualTo(100);
        assertThat(LatencyRecorder.percentile(sorted, 0.5)).isEqualTo(1);
    }

    @Test
    void percentilesAreMeasuredValuesNeverInterpolated() {
        long[] sorted = {10, 20, 30};
        assertThat(LatencyRecorder.percentile(sorted, 50)).isEqualTo(20);
        assertThat(LatencyRecorder.percentile(sorted, 99)).isEqualTo(30);
        assertThat(LatencyRecorder.percentile(new long[] {7}, 99)).isEqualTo(7);
    }

    @Test
    void emptyAndInvalid() {
        assertThat(LatencyRecorder.percentile(new long[0], 50)).isEqualTo(-1);
        assertThatThrownBy(() -> LatencyRecorder.percentile(new long[] {1}, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LatencyRecorder.percentile(new long[] {1}, 101))
                .isInstanceOf(IllegalArgumentException.class);
        LatencyRecorder.Summary none = new LatencyRecorder().summary();
        assertThat(none.count()).isZero();
        assertThat(none.p50Ms()).isNaN();
    }

    @Test
    void summaryInMillisecondsFromUnsortedNanos() {
        LatencyRecorder recorder = new LatencyRecorder();
        List<Long> values = new ArrayList<>();
        for (long ms = 2000; ms >= 1; ms--) { // more than the initial capacity, recorded in reverse order
            values.add(ms * 1_000_000);
        }
        values.forEach(recorder::record);
        LatencyRecorder.Summary summary = recorder.summary();
        assertThat(summary.count()).isEqualTo(2000);
        assertThat(summary.p50Ms()).isEqualTo(1000.0);
        assertThat(summary.p99Ms()).isEqualTo(1980.0);
        assertThat(summary.maxMs()).isEqualTo(2000.0);
    }

    @Test
    void recordsFromSeveralThreads() throws InterruptedException {
        LatencyRecorder recorder = new LatencyRecorder();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            Thread thread = new Thread(() -> {
                for (int i = 0; i < 10_000; i++) {
                    recorder.record(i);
                }
            });
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        assertThat(recorder.count()).isEqualTo(40_000);
    }
}
