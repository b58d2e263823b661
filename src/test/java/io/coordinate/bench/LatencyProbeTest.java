package io.coordinate.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LatencyProbeTest {

    @Test
    void workersGetTwiceTheCapacityTheLoadNeedsAtA150msRoundTrip() {
        assertThat(LatencyProbe.inflight(100, 8, 100)).isEqualTo(1);
        assertThat(LatencyProbe.inflight(2_666, 8, 100)).isEqualTo(1); // 2 x 2,666 x 0.15 = 800 = 8 x 100
        assertThat(LatencyProbe.inflight(2_700, 8, 100)).isEqualTo(2);
        assertThat(LatencyProbe.inflight(15_000, 8, 100)).isEqualTo(6);
        assertThat(LatencyProbe.inflight(15_000, 8, 1_000)).isEqualTo(1);
    }
}
