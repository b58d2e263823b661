package io.coordinate.client;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.protocol.Json;

/** The metadata fields to change with {@code set_work_spec_meta}; the fields not set stay as they are. */
public final class WorkSpecChange {

    private final ObjectNode meta = Json.object();

    public static WorkSpecChange change() {
        return new WorkSpecChange();
    }

    public WorkSpecChange priority(double priority) {
        meta.put("priority", priority);
        return this;
    }

    public WorkSpecChange weight(double weight) {
        meta.put("weight", weight);
        return this;
    }

    public WorkSpecChange paused(boolean paused) {
        meta.put("paused", paused);
        return this;
    }

    public WorkSpecChange continuous(boolean continuous) {
        meta.put("continuous", continuous);
        return this;
    }

    public WorkSpecChange interval(double seconds) {
        meta.put("interval", seconds);
        return this;
    }

    public WorkSpecChange maxRunning(long maxRunning) {
        meta.put("max_running", maxRunning);
        return this;
    }

    public WorkSpecChange maxAttemptsReturned(long max) {
        meta.put("max_attempts_returned", max);
        return this;
    }

    public WorkSpecChange maxRetries(long maxRetries) {
        meta.put("max_retries", maxRetries);
        return this;
    }

    ObjectNode json() {
        return meta.deepCopy();
    }
}
