package io.coordinate.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The answer to {@code request_attempts}: the attempts handed out, best first; none means no work now. */
public record Assignment(String namespace, String worker, String requestId, List<Attempt> attempts) {

    static Assignment from(JsonNode json) {
        List<Attempt> attempts = new ArrayList<>();
        // The attempts of one answer share their start and expiration times: each text is parsed once.
        Map<String, Instant> times = new HashMap<>();
        json.path("attempts").forEach(attempt -> attempts.add(Attempt.from(attempt, times)));
        return new Assignment(
                json.path("namespace").asText(),
                json.path("worker").asText(),
                JsonValues.text(json, "request_id"),
                List.copyOf(attempts));
    }
}
