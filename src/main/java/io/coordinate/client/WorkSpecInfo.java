package io.coordinate.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/**
 * A work spec as the app holds it: its data, its metadata ({@code priority}, {@code paused}, {@code max_running},
 * ...) and its units by status, with zero counts left out (docs/reference.md "Spec").
 */
public record WorkSpecInfo(String name, Map<String, Object> data, Map<String, Object> meta, Map<String, Long> counts) {

    static WorkSpecInfo from(JsonNode json) {
        return new WorkSpecInfo(
                json.path("name").asText(),
                JsonValues.map(json.get("data")),
                JsonValues.map(json.get("meta")),
                JsonValues.counts(json.path("counts")));
    }

    /** The units with this status now (0 when none). */
    public long count(String status) {
        return counts.getOrDefault(status, 0L);
    }

    public boolean paused() {
        return Boolean.TRUE.equals(meta.get("paused"));
    }
}
