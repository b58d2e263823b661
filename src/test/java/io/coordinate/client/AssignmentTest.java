package io.coordinate.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.protocol.Json;
import org.junit.jupiter.api.Test;

class AssignmentTest {

    @Test
    void itReadsTheRetryAfterOfARateLimitAndNullWithoutOne() throws Exception {
        Assignment held = Assignment.from(Json.MAPPER.readTree(
                "{\"namespace\":\"ns\",\"worker\":\"w\",\"request_id\":\"r\",\"attempts\":[],\"retry_after_ms\":50}"));
        Assignment plain = Assignment.from(
                Json.MAPPER.readTree("{\"namespace\":\"ns\",\"worker\":\"w\",\"request_id\":\"r\",\"attempts\":[]}"));

        assertThat(held.retryAfterMillis()).isEqualTo(50L);
        assertThat(plain.retryAfterMillis()).isNull();
        assertThat(plain).isEqualTo(new Assignment("ns", "w", "r", java.util.List.of()));
    }
}
