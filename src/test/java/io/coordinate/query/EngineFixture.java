package io.coordinate.query;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.Engine;
import io.coordinate.engine.EngineResult;
import io.coordinate.protocol.Command;
import io.coordinate.protocol.Json;
import io.coordinate.storage.InMemoryKeyValueStore;
import java.util.Random;

/** A real {@link Engine} on an in-memory store: the state the query server reads is made by real commands. */
final class EngineFixture {

    /** 2026-01-01T00:00:00.000Z */
    static final long T0 = 1_767_225_600_000L;

    final InMemoryKeyValueStore store = new InMemoryKeyValueStore();
    final Engine engine = new Engine(store, new Random(7));

    /** Applies one command (JSON with single quotes for readability) at {@code now}; fails on a rejection. */
    EngineResult apply(long now, String json) {
        return apply(now, (ObjectNode) Json.parse(json.replace('\'', '"')));
    }

    EngineResult apply(long now, ObjectNode body) {
        EngineResult result = engine.process(Command.of(body), now);
        if (result.rejected()) {
            throw new AssertionError(
                    "engine rejected " + body + ": " + result.rejection().getMessage());
        }
        return result;
    }
}
