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

  static Attempt from(JsonNode json) {
    return new Attempt(
        json.path("attempt_id").asText(),
        json.path("work_spec_name").asText(),
        json.path("work_unit_name").asText(),
        JsonValues.map(json.get("data")),
        JsonValues.time(json, "start_time"),
        JsonValues.time(json, "expiration_time"));
  }
}
