package io.coordinate.engine;

import io.coordinate.protocol.CommandRejection;
import java.util.List;

/**
 * What one command (or one time step) produced, by destination topic. {@code rejection} is set when the
 * command was not applied; its state changes were then discarded. {@code counts}: the units and attempts it moved,
 * for the metrics.
 */
public record EngineResult(
        List<OutRecord> replies,
        List<OutRecord> assignments,
        List<OutRecord> events,
        List<OutRecord> chained,
        List<OutRecord> results,
        CommandRejection rejection,
        ChangeCounts counts) {

    public boolean rejected() {
        return rejection != null;
    }

    public boolean isEmpty() {
        return replies.isEmpty() && assignments.isEmpty() && events.isEmpty() && chained.isEmpty() && results.isEmpty();
    }
}
