package io.coordinate.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.state.StateReader;
import io.coordinate.engine.state.codec.KeySpace;
import io.coordinate.engine.state.codec.UnitKeys;
import io.coordinate.engine.state.db.DbState;
import io.coordinate.engine.state.db.IndexRebuild;
import io.coordinate.engine.state.db.SplitStore;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.protocol.Command;
import io.coordinate.protocol.Json;
import io.coordinate.storage.InMemoryKeyValueStore;
import io.coordinate.storage.KeyValueIterator;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A crash as exactly-once makes it, at the engine's level, many times over random work: the records go back to the
 * last commit, the indexes are rebuilt from them, a new engine opens the store, and the commands since the commit
 * are applied again, later. The fault suite does this with real kills; here each seed is fast and repeatable
 * ({@code -Dcrash.seeds=N} for more). After every step each spec's available count equals its available index, and
 * at the end every plain unit can still be handed out.
 */
class CrashReplayTest {

    private static final String NS = "kill";
    private static final List<String> SPECS = List.of("plain", "boinc");
    private static final long SEEDS = Long.getLong("crash.seeds", 20);

    private InMemoryKeyValueStore records;
    private InMemoryKeyValueStore indexes;
    private Engine engine;
    private long now;
    private final List<ObjectNode> log = new ArrayList<>();
    private int committedUpTo;
    private InMemoryKeyValueStore committedRecords;
    private final List<ObjectNode> handedOut = new ArrayList<>();

    @Test
    void everyUnitStaysReachableThroughCrashes() {
        for (long seed = 0; seed < SEEDS; seed++) {
            run(seed);
        }
    }

    private void run(long seed) {
        records = new InMemoryKeyValueStore();
        indexes = new InMemoryKeyValueStore();
        engine = new Engine(new SplitStore(records, indexes), new Random(seed));
        now = EngineHarness.START.toEpochMilli();
        log.clear();
        handedOut.clear();
        commit();
        Random random = new Random(seed);
        send(command("set_work_spec").set("work_spec", Json.object().put("name", "plain")));
        send(command("set_work_spec")
                .set(
                        "work_spec",
                        Json.object()
                                .put("name", "boinc")
                                .put("min_quorum", 2)
                                .put("max_error_results", 20)
                                .put("max_total_results", 40)));
        for (int w = 1; w <= 10; w++) {
            send(command("worker_heartbeat").put("worker", "w" + w).put("parent", "h" + w));
        }
        int added = 0;
        for (int step = 0; step < 300; step++) {
            int action = random.nextInt(100);
            if (action < 10) {
                String spec = random.nextBoolean() ? "plain" : "boinc";
                // now and then a large add, as the fault suite's
                int count = spec.equals("plain") && random.nextInt(4) == 0 ? 3000 : 1 + random.nextInt(5);
                ArrayNode units = Json.MAPPER.createArrayNode();
                for (int i = 0; i < count; i++) {
                    units.addObject().put("name", spec.charAt(0) + "" + added++);
                }
                send(command("add_work_units").put("work_spec_name", spec).set("work_units", units));
            } else if (action < 50) {
                send(command("request_attempts")
                        .put("worker", "w" + (1 + random.nextInt(10)))
                        .put("count", 1 + random.nextInt(25))
                        .put("lifetime", 3));
            } else if (action < 80 && !handedOut.isEmpty()) {
                ObjectNode attempt = handedOut.remove(random.nextInt(handedOut.size()));
                send(command("finish_attempt")
                        .put("attempt_id", attempt.get("attempt_id").asText())
                        .set(
                                "data",
                                Json.object()
                                        .set(
                                                "result",
                                                Json.object()
                                                        .put(
                                                                "unit",
                                                                attempt.get("work_unit_name")
                                                                        .asText()))));
            } else if (action < 92) {
                now += random.nextInt(4000);
                engine.advanceTime(now, Engine.TIME_STEP_BATCH);
            } else if (action < 96) {
                commit();
            } else {
                crash(random);
            }
            assertCountsMatchIndexes(seed, step);
        }
        assertEveryPlainUnitHandedOut(seed);
    }

    private void commit() {
        committedUpTo = log.size();
        committedRecords = EngineHarness.copyOf(records);
    }

    /** The records as committed, the indexes rebuilt, a new engine; the commands since the commit come again, later. */
    private void crash(Random random) {
        now += 1000 + random.nextInt(10_000);
        records = EngineHarness.copyOf(committedRecords);
        indexes = new InMemoryKeyValueStore();
        IndexRebuild.rebuild(records, indexes);
        engine = new Engine(new SplitStore(records, indexes), new Random(random.nextLong()));
        List<ObjectNode> replay = new ArrayList<>(log.subList(committedUpTo, log.size()));
        log.subList(committedUpTo, log.size()).clear();
        replay.forEach(this::send);
    }

    private void send(ObjectNode command) {
        log.add(command);
        EngineResult result = engine.process(Command.of(command), now);
        for (OutRecord assignment : result.assignments()) {
            for (JsonNode attempt : assignment.value().get("attempts")) {
                handedOut.add((ObjectNode) attempt);
            }
        }
    }

    private void assertCountsMatchIndexes(long seed, int step) {
        SplitStore store = new SplitStore(records, indexes);
        StateReader reader = DbState.reader(store);
        for (String spec : SPECS) {
            long entries = 0;
            byte[] prefix = UnitKeys.availableUnits(NS, spec);
            try (KeyValueIterator it = store.range(prefix, KeySpace.prefixEnd(prefix))) {
                for (; it.hasNext(); it.next()) {
                    entries++;
                }
            }
            assertThat(entries)
                    .as("seed %d step %d: %s's available index against its count", seed, step, spec)
                    .isEqualTo(reader.units().count(NS, spec, UnitStatus.AVAILABLE));
        }
    }

    /** Every lease runs out, then a worker asks until nothing comes: no plain unit may be left available. */
    private void assertEveryPlainUnitHandedOut(long seed) {
        now += 3_600_000;
        engine.advanceTime(now, Integer.MAX_VALUE);
        int before;
        do {
            before = handedOut.size();
            ObjectNode request = command("request_attempts")
                    .put("worker", "w1")
                    .put("count", 1000)
                    .put("lifetime", 3600);
            request.set("work_specs", Json.MAPPER.createArrayNode().add("plain"));
            send(request);
        } while (handedOut.size() > before);
        StateReader reader = DbState.reader(new SplitStore(records, indexes));
        assertThat(reader.units().count(NS, "plain", UnitStatus.AVAILABLE))
                .as("seed %d: plain units never handed out", seed)
                .isZero();
    }

    private static ObjectNode command(String type) {
        return Json.object().put("command", type).put("namespace", NS);
    }
}
