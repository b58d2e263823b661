package io.coordinate.engine.state.model;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** A work spec: its data as given, and the metadata derived from it. */
public record WorkSpecRecord(String name, ObjectNode data, WorkSpecMeta meta) {

    public WorkSpecRecord withMeta(WorkSpecMeta newMeta) {
        return new WorkSpecRecord(name, data, newMeta);
    }
}
