package io.coordinate.client;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProgressThrottleTest {

    @Test
    void theFirstReportGoesAtOnceAndTheNextWaitsForItsInterval() {
        ProgressThrottle throttle = new ProgressThrottle(1000);
        assertThat(throttle.reported("a", 0)).isTrue();
        assertThat(throttle.nextDue()).isEqualTo(Long.MAX_VALUE);
        assertThat(throttle.reported("a", 300)).isFalse();
        assertThat(throttle.reported("a", 600)).isFalse(); // still waiting: the latest value is taken when due
        assertThat(throttle.nextDue()).isEqualTo(1000);
        assertThat(throttle.due(999)).isEmpty();
        assertThat(throttle.due(1000)).containsExactly("a");
        assertThat(throttle.due(1500)).isEmpty();
        assertThat(throttle.reported("a", 1500)).isFalse(); // one second after the last sent, at 1000
        assertThat(throttle.nextDue()).isEqualTo(2000);
    }

    @Test
    void aReportAfterAQuietIntervalGoesAtOnceAndAttemptsAreApart() {
        ProgressThrottle throttle = new ProgressThrottle(1000);
        assertThat(throttle.reported("a", 0)).isTrue();
        assertThat(throttle.reported("b", 10)).isTrue();
        assertThat(throttle.reported("a", 1000)).isTrue();
        assertThat(throttle.reported("b", 500)).isFalse();
        assertThat(throttle.reported("c", 600)).isTrue();
        assertThat(throttle.due(1010)).containsExactly("b");
    }

    @Test
    void aForgottenAttemptSendsNothingMore() {
        ProgressThrottle throttle = new ProgressThrottle(1000);
        assertThat(throttle.reported("a", 0)).isTrue();
        assertThat(throttle.reported("a", 10)).isFalse();
        throttle.forget("a");
        assertThat(throttle.nextDue()).isEqualTo(Long.MAX_VALUE);
        assertThat(throttle.due(5000)).isEmpty();
    }
}
