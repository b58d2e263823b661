package io.coordinate.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.Map;

/** An attempt handed to a worker: the unit to work, its data, and the lease (docs/reference.md "Assignment"). */
public record Attempt(
        String attemptId,
        String workSpecName,
        String workUnitName,
        Map<String, Object> data,
        Instant startTime,
        Instant expirationTime) {

    /** @param times texts parsed already, and where to keep those parsed now */
    static Attempt from(JsonNode json, Map<String, Instant> times) {
        return new Attempt(
                json.path("attempt_id").asText(),
                json.path("work_spec_name").asText(),
                json.path("work_unit_name").asText(),
                JsonValues.map(json.get("data")),
                time(json, "start_time", times),
                time(json, "expiration_time", times));
    }

    private static Instant time(JsonNode json, String field, Map<String, Instant> times) {
        String text = JsonValues.text(json, field);
        return text == null ? null : times.computeIfAbsent(text, Instant::parse);
    }
}
