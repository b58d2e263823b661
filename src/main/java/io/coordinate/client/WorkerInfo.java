package io.coordinate.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** A worker as the app holds it (docs/reference.md "Worker"). */
public record WorkerInfo(
        String name,
        String parent,
        boolean active,
        String mode,
        Map<String, Object> data,
        Instant expiration,
        boolean expired,
        List<String> activeAttempts) {

    static WorkerInfo from(JsonNode json) {
        return new WorkerInfo(
                json.path("name").asText(),
                JsonValues.text(json, "parent"),
                json.path("active").asBoolean(),
                json.path("mode").asText(),
                JsonValues.map(json.get("data")),
                JsonValues.time(json, "expiration"),
                json.path("expired").asBoolean(),
                JsonValues.texts(json, "active_attempts"));
    }
}
