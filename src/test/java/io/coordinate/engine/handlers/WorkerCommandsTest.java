package io.coordinate.engine.handlers;

import static io.coordinate.engine.EngineHarness.assertJson;
import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.engine.EngineHarness;
import io.coordinate.protocol.Json;
import org.junit.jupiter.api.Test;

/** Heartbeats beyond the conformance scenarios: keeping and clearing a parent. */
class WorkerCommandsTest {

    private final EngineHarness h = new EngineHarness();

    @Test
    void anAbsentParentKeepsTheParentAndANullOneClearsIt() {
        h.send("worker_heartbeat", "worker", "p").ok();
        h.send("worker_heartbeat", "worker", "c", "parent", "p").ok();

        h.send("worker_heartbeat", "worker", "c", "mode", "run").ok();
        assertThat(h.workerView("c").get("parent").asText()).isEqualTo("p");

        h.send("worker_heartbeat", "worker", "c", "parent", Json.MAPPER.nullNode())
                .ok();
        assertThat(h.workerView("c").get("parent").isNull()).isTrue();
        assertJson(h.workerView("p").get("children"), "[]");
    }
}
