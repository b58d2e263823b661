package io.coordinate.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The answer to {@code request_attempts}: the attempts handed out, best first; none means no work now.
 *
 * @param retryAfterMillis when a spec's rate limit held the request short, the millis until its next token
 *     (docs/reference.md#rate-limits); null otherwise
 */
public record Assignment(
        String namespace, String worker, String requestId, List<Attempt> attempts, Long retryAfterMillis) {

    /** An answer that no rate limit held short. */
    public Assignment(String namespace, String worker, String requestId, List<Attempt> attempts) {
        this(namespace, worker, requestId, attempts, null);
    }

    static Assignment from(JsonNode json) {
        List<Attempt> attempts = new ArrayList<>();
        // The attempts of one answer share their start and expiration times: each text is parsed once.
        Map<String, Instant> times = new HashMap<>();
        json.path("attempts").forEach(attempt -> attempts.add(Attempt.from(attempt, times)));
        JsonNode retryAfter = json.get("retry_after_ms");
        return new Assignment(
                json.path("namespace").asText(),
                json.path("worker").asText(),
                JsonValues.text(json, "request_id"),
                List.copyOf(attempts),
                retryAfter != null && retryAfter.canConvertToLong() ? retryAfter.longValue() : null);
    }
}
