package io.coordinate.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/** The answer to {@code request_attempts}: the attempts handed out, best first; none means no work now. */
public record Assignment(String namespace, String worker, String requestId, List<Attempt> attempts) {

  static Assignment from(JsonNode json) {
    List<Attempt> attempts = new ArrayList<>();
    json.path("attempts").forEach(attempt -> attempts.add(Attempt.from(attempt)));
    return new Assignment(
        json.path("namespace").asText(),
        json.path("worker").asText(),
        JsonValues.text(json, "request_id"),
        List.copyOf(attempts));
  }
}
