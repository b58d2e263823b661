package io.coordinate.engine.state.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * A worker process (docs/reference.md#worker_heartbeat). Expiration is reported, never acted on: only deactivation
 * deactivates.
 *
 * @param reliability its counters of replica outcomes (docs/replication.md#workers-reliability); null until it ran a
 *     replica
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record WorkerRecord(
        String name,
        String parent,
        boolean active,
        String mode,
        JsonNode data,
        long expiration,
        long lastUpdate,
        WorkerReliability reliability) {

    public WorkerRecord(
            String name, String parent, boolean active, String mode, JsonNode data, long expiration, long lastUpdate) {
        this(name, parent, active, mode, data, expiration, lastUpdate, null);
    }

    public WorkerRecord withReliability(WorkerReliability counters) {
        return new WorkerRecord(name, parent, active, mode, data, expiration, lastUpdate, counters);
    }
}
