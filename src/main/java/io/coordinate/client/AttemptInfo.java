package io.coordinate.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.Map;

/**
 * An attempt as the app holds it after a renew, finish, fail, retry or expire: its status ({@code pending},
 * {@code finished}, {@code failed}, {@code retryable}, {@code expired}) and whether it is still its unit's active
 * attempt (docs/reference.md "Attempt").
 */
public record AttemptInfo(
        String attemptId,
        String workSpecName,
        String workUnitName,
        String worker,
        String status,
        Map<String, Object> data,
        Instant startTime,
        Instant expirationTime,
        Instant endTime,
        boolean active) {

    static AttemptInfo from(JsonNode json) {
        return new AttemptInfo(
                json.path("attempt_id").asText(),
                json.path("work_spec_name").asText(),
                json.path("work_unit_name").asText(),
                JsonValues.text(json, "worker"),
                json.path("status").asText(),
                JsonValues.map(json.get("data")),
                JsonValues.time(json, "start_time"),
                JsonValues.time(json, "expiration_time"),
                JsonValues.time(json, "end_time"),
                json.path("active").asBoolean());
    }
}
