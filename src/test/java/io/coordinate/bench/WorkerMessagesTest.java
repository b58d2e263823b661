package io.coordinate.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class WorkerMessagesTest {

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void readsTheAttemptsOfAnAssignmentAndSkipsTheRest() {
        // As the app writes one (docs/reference.md#assignment); the units' data hold fields of the same names, to be
        // skipped.
        byte[] assignment = utf8("{\"namespace\":\"ns\",\"worker\":\"w1\",\"request_id\":\"r-9\",\"attempts\":["
                + "{\"attempt_id\":\"7\",\"work_spec_name\":\"s\",\"work_unit_name\":\"u1\","
                + "\"data\":{\"attempts\":[{\"attempt_id\":\"inner\"}],\"work_unit_name\":\"no\",\"n\":[1,2.5,null]},"
                + "\"start_time\":\"2026-11-23T12:00:00.000Z\",\"expiration_time\":\"2026-11-23T12:10:00.000Z\"},"
                + "{\"work_unit_name\":\"u\\u00e9 2\",\"attempt_id\":\"8\",\"data\":{}}],"
                + "\"after\":{\"attempts\":[]}}");

        assertThat(WorkerMessages.attempts(assignment))
                .containsExactly(new WorkerMessages.Attempt("7", "u1"), new WorkerMessages.Attempt("8", "u\u00e9 2"));
    }

    @Test
    void anEmptyAssignmentHasNoAttempts() {
        assertThat(WorkerMessages.attempts(utf8("{\"namespace\":\"ns\",\"worker\":\"w1\",\"attempts\":[]}")))
                .isEmpty();
    }

    @Test
    void anAttemptWithoutItsIdIsRefused() {
        assertThatThrownBy(() -> WorkerMessages.attempts(utf8("{\"attempts\":[{\"work_unit_name\":\"u1\"}]}")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("unreadable assignment from the app");
    }

    @Test
    void writesFinishAttempts() {
        List<WorkerMessages.Attempt> attempts =
                List.of(new WorkerMessages.Attempt("7", "u1"), new WorkerMessages.Attempt("8", "u2"));

        assertThat(new String(WorkerMessages.finishAttempts("ns", attempts, "client", "f-1"), StandardCharsets.UTF_8))
                .isEqualTo("{\"command\":\"finish_attempts\",\"namespace\":\"ns\",\"attempts\":[{\"attempt_id\":\"7\"},"
                        + "{\"attempt_id\":\"8\"}],\"reply_to\":\"client\",\"request_id\":\"f-1\"}");
        assertThat(new String(
                        WorkerMessages.finishAttempts("ns", attempts.subList(0, 1), null, null),
                        StandardCharsets.UTF_8))
                .isEqualTo(
                        "{\"command\":\"finish_attempts\",\"namespace\":\"ns\",\"attempts\":[{\"attempt_id\":\"7\"}]}");
    }
}
