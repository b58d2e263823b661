package io.coordinate.engine.state;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;

/** A worker process (SEMANTICS §3). Expiration is reported, never acted on: only deactivation deactivates. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record WorkerRecord(
    String name, String parent, boolean active, String mode, JsonNode data, long expiration, long lastUpdate) {}
