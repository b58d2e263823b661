package io.coordinate.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.Engine;
import io.coordinate.engine.EngineResult;
import io.coordinate.protocol.Command;
import io.coordinate.protocol.Json;
import io.coordinate.storage.InMemoryKeyValueStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A real {@link Engine} on an in-memory store whose results go to a {@link QueueMetrics} as the stream processor
 * hands them over: the counters are fed by real commands at a time the test sets.
 */
final class EngineDriver {

    /** 2026-01-01T00:00:00.000Z */
    static final long T0 = 1_767_225_600_000L;

    final InMemoryKeyValueStore store = new InMemoryKeyValueStore();
    private final Engine engine = new Engine(store, new Random(7));
    private final QueueMetrics metrics;

    EngineDriver(QueueMetrics metrics) {
        this.metrics = metrics;
    }

    /** Applies a command (single quotes for readability) taken from a record stamped {@code recordTime}. */
    EngineResult apply(long recordTime, long now, String json) {
        Command command = Command.of((ObjectNode) Json.parse(json.replace('\'', '"')));
        EngineResult result = engine.process(command, now);
        metrics.command(command.type(), result, recordTime, now, 1000);
        return result;
    }

    EngineResult apply(long now, String json) {
        return apply(now, now, json);
    }

    /** The punctuator's time step at {@code now}. */
    EngineResult tick(long now) {
        EngineResult result = engine.advanceTime(now, Engine.TIME_STEP_BATCH);
        if (!result.isEmpty()) {
            metrics.timeStep(result, now);
        }
        return result;
    }

    /** The attempt ids an assignment handed out, in order. */
    static List<String> attemptIds(EngineResult result) {
        List<String> ids = new ArrayList<>();
        for (JsonNode attempt : result.assignments().get(0).value().get("attempts")) {
            ids.add(attempt.get("attempt_id").asText());
        }
        return ids;
    }
}
