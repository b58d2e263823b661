package io.coordinate.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AttemptTest {

    private static Attempt attempt() {
        return new Attempt("7", "spec", "unit", Map.of(), null, null);
    }

    @Test
    void aCancellationMarksTheAttemptAndRunsEachCallbackOnce() {
        Attempt attempt = attempt();
        List<String> ran = new ArrayList<>();
        attempt.onCancel(() -> ran.add("first"));
        attempt.onCancel(() -> {
            throw new IllegalStateException("a failing callback does not stop the others");
        });
        attempt.onCancel(() -> ran.add("second"));
        assertThat(attempt.isCancelled()).isFalse();

        assertThat(attempt.cancel()).isTrue();
        assertThat(attempt.isCancelled()).isTrue();
        assertThat(ran).containsExactly("first", "second");
        assertThat(attempt.cancel()).isFalse();
        assertThat(ran).containsExactly("first", "second");

        attempt.onCancel(() -> ran.add("late")); // registered after the cancellation: runs at once
        assertThat(ran).containsExactly("first", "second", "late");
    }

    @Test
    void theWorkerHearsOfProgressOnceUntilItTakesTheLatest() {
        Attempt attempt = attempt();
        List<String> heard = new ArrayList<>();
        attempt.listenToProgress(a -> heard.add(a.attemptId()));
        attempt.progress(0.1, "one");
        attempt.progress(0.2, "two");
        assertThat(heard).containsExactly("7");
        assertThat(attempt.takeProgress()).isEqualTo(new AttemptProgress(0.2, "two"));
        assertThat(attempt.takeProgress()).isNull();
        attempt.progress(new AttemptProgress(null, "three"));
        assertThat(heard).containsExactly("7", "7");
    }

    @Test
    void progressOutsideZeroToOneIsRefusedAndALongMessageCut() {
        assertThatThrownBy(() -> attempt().progress(1.5, "too far"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a progress fraction is from 0 to 1: 1.5");
        assertThatThrownBy(() -> attempt().progress(Double.NaN, null)).isInstanceOf(IllegalArgumentException.class);
        assertThat(new AttemptProgress(1.0, "x".repeat(1500)).message()).isEqualTo("x".repeat(1000));
    }
}
