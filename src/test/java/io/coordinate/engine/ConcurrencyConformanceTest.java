package io.coordinate.engine;

import static io.coordinate.engine.EngineHarness.assertJson;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.EngineHarness.Attempt;
import io.coordinate.protocol.Json;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Conformance scenarios 54 and 55, concurrency and scale (docs/architecture.md#conformance-tests), at the engine level:
 * the engine applies one namespace's commands one at a time, so concurrency reaches it as an interleaving of the
 * clients' commands. A seeded random source picks the interleaving (each seed is one schedule; several are tried). The
 * runs through a real broker are in the end-to-end suite.
 */
class ConcurrencyConformanceTest {

    private static final long[] SEEDS = {1, 2, 3, 17, 2026};

    @Test
    @DisplayName("54. 100 units, 8 interleaved workers looping request/finish: every unit finished exactly once")
    void scenario54_concurrentExecution() {
        for (long seed : SEEDS) {
            runWorkers(seed);
        }
    }

    private void runWorkers(long seed) {
        Random random = new Random(seed);
        EngineHarness h = new EngineHarness(seed);
        h.setSpec("{\"name\":\"spec\",\"min_gb\":1}");
        String[] units = new String[100];
        for (int i = 0; i < units.length; i++) {
            units[i] = "u" + i;
        }
        h.addUnits("spec", units);

        // each worker: a random name of 8 letters; a queue of held attempts to finish; done after an empty request
        Map<String, Deque<Attempt>> workers = new LinkedHashMap<>();
        while (workers.size() < 8) {
            StringBuilder name = new StringBuilder();
            for (int i = 0; i < 8; i++) {
                name.append((char) ('A' + random.nextInt(26)));
            }
            workers.put(name.toString(), new ArrayDeque<>());
        }
        Map<String, String> doneBy = new HashMap<>();
        List<String> running = new ArrayList<>(workers.keySet());
        while (!running.isEmpty()) {
            String worker = running.get(random.nextInt(running.size()));
            h.advance(Duration.ofMillis(random.nextInt(50)));
            Deque<Attempt> held = workers.get(worker);
            if (held.isEmpty()) {
                List<Attempt> got = h.worker(worker).request();
                if (got.isEmpty()) {
                    running.remove(worker);
                }
                held.addAll(got);
            } else {
                Attempt attempt = held.removeFirst();
                h.finish(attempt).ok();
                assertThat(doneBy.put(attempt.unit(), worker))
                        .as("unit %s done twice", attempt.unit())
                        .isNull();
            }
        }

        assertThat(doneBy).as("seed %d", seed).hasSize(100).containsKeys(units);
        assertThat(h.replies())
                .allSatisfy(r -> assertThat(r.get("ok").asBoolean()).as("%s", r).isTrue());
        assertJson(h.counts("spec"), "{\"finished\":100}");
        for (String unit : units) {
            JsonNode attempts = h.unit("spec", unit).get("attempts");
            assertThat(attempts).as(unit).hasSize(1);
            assertThat(attempts.get(0).get("worker").asText()).isEqualTo(doneBy.get(unit));
            assertThat(attempts.get(0).get("status").asText()).isEqualTo("finished");
        }
        for (String worker : workers.keySet()) {
            long done = doneBy.values().stream().filter(worker::equals).count();
            assertThat(h.workerView(worker).get("attempts")).hasSize((int) done);
            assertJson(h.workerView(worker).get("active_attempts"), "[]");
        }
    }

    @Test
    @DisplayName("55. 8 interleaved producers each add unit000..unit999 to the same spec: no errors, 1000 units")
    void scenario55_addSameUnits() {
        for (long seed : SEEDS) {
            runProducers(seed);
        }
    }

    private void runProducers(long seed) {
        Random random = new Random(seed);
        EngineHarness h = new EngineHarness(seed);
        h.setSpec("{\"name\":\"spec\",\"min_gb\":1}");
        int[] next = new int[8];
        List<Integer> producing = new ArrayList<>(List.of(0, 1, 2, 3, 4, 5, 6, 7));
        while (!producing.isEmpty()) {
            int producer = producing.get(random.nextInt(producing.size()));
            int batch = 1 + random.nextInt(40);
            ArrayNode list = Json.MAPPER.createArrayNode();
            for (int i = 0; i < batch && next[producer] < 1000; i++) {
                ObjectNode unit = list.addObject();
                unit.put("name", String.format("unit%03d", next[producer]++));
                unit.putObject("data");
            }
            h.send("add_work_units", "work_spec_name", "spec", "work_units", list)
                    .ok();
            if (next[producer] == 1000) {
                producing.remove((Integer) producer);
            }
        }

        assertThat(h.replies())
                .allSatisfy(r -> assertThat(r.get("ok").asBoolean()).as("%s", r).isTrue());
        List<String> names = h.units("spec", "{}");
        assertThat(names).as("seed %d", seed).hasSize(1000);
        assertThat(names.get(0)).isEqualTo("unit000");
        assertThat(names.get(999)).isEqualTo("unit999");
        assertJson(h.counts("spec"), "{\"available\":1000}");
        assertThat(h.reader().units().bestAvailable("ns", "spec", 3)).containsExactly("unit000", "unit001", "unit002");
    }
}
