package io.coordinate.engine.state.db;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.EngineHarness;
import io.coordinate.engine.EngineHarness.Attempt;
import io.coordinate.engine.state.codec.UnitKeys;
import io.coordinate.engine.state.codec.UnitValue;
import io.coordinate.engine.state.codec.ValueCodec;
import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.engine.view.Numbers;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.Times;
import io.coordinate.storage.KeyValueIterator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A unit lives in one place: after every command of a random sequence, decoding each unit's record as the store
 * holds it gives exactly what the HTTP API shows for the unit (the view the unit routes build), and the API shows no
 * unit without a record.
 */
class UnitRecordIsItsValueTest {

    private static final List<String> NAMES = List.of("a", "b", "c", "d", "e", "f", "g", "h");
    private static final List<String> SPECS = List.of("one", "two");

    @Test
    void afterEveryCommandEachUnitsRecordIsWhatTheApiShows() {
        long seed = Long.getLong("units.seed", System.nanoTime());
        Random random = new Random(seed);
        EngineHarness h = new EngineHarness().namespace("ns");
        h.setSpec("{\"name\":\"one\",\"max_retries\":3}");
        h.setSpec("{\"name\":\"two\",\"priority\":2}");
        List<Attempt> out = new ArrayList<>();
        for (int step = 0; step < 600; step++) {
            String did = act(h, random, out);
            try {
                compareEveryUnit(h);
            } catch (AssertionError e) {
                throw new AssertionError(
                        "seed " + seed + " (replay: -Dunits.seed=" + seed + "), step " + step + ", after " + did + ": "
                                + e.getMessage(),
                        e);
            }
        }
        h.assertIndexesRebuildable();
    }

    /** One random command (or a time step after time passed); returns what it did, for a failure's message. */
    private static String act(EngineHarness h, Random random, List<Attempt> out) {
        String spec = SPECS.get(random.nextInt(SPECS.size()));
        String name = NAMES.get(random.nextInt(NAMES.size()));
        ObjectNode names = Json.object();
        names.putArray("names").add(name);
        Attempt attempt = out.isEmpty() ? null : out.get(random.nextInt(out.size()));
        int choice = random.nextInt(12);
        if (attempt == null && choice >= 4 && choice <= 8) {
            choice = 1;
        }
        switch (choice) {
            case 0 -> {
                ArrayNode units = Json.MAPPER.createArrayNode();
                ObjectNode unit = units.addObject().put("name", name);
                unit.putObject("data").put("n", random.nextInt(100));
                unit.putObject("meta").put("priority", random.nextInt(3));
                if (random.nextInt(4) == 0) {
                    unit.with("meta").put("delay", 1 + random.nextInt(30));
                }
                h.send("add_work_units", "work_spec_name", spec, "work_units", units);
                return "add " + spec + "/" + name;
            }
            case 1, 2, 3 -> {
                List<Attempt> started = h.request("count", 1 + random.nextInt(3), "lifetime", 10 + random.nextInt(50));
                out.addAll(started);
                return "request: "
                        + started.stream().map(a -> a.spec() + "/" + a.unit()).toList();
            }
            case 4 -> {
                h.finish(attempt, "{\"result\":" + random.nextInt(100) + "}");
                return "finish " + attempt.id();
            }
            case 5 -> {
                h.fail(attempt);
                return "fail " + attempt.id();
            }
            case 6 -> {
                h.retry(attempt, random.nextInt(3) * 5L);
                return "retry " + attempt.id();
            }
            case 7 -> {
                if (random.nextBoolean()) {
                    h.renew(attempt, 10 + random.nextInt(50), "{\"progress\":" + random.nextInt(100) + "}");
                    return "renew " + attempt.id();
                }
                String message = "step " + random.nextInt(100);
                h.send("renew_attempt", "attempt_id", attempt.id(), "progress", Map.of("message", message));
                return "renew " + attempt.id() + " with progress " + message;
            }
            case 8 -> {
                h.expire(attempt);
                return "expire " + attempt.id();
            }
            case 9 -> {
                h.send("prioritize_work_units", "work_spec_name", spec, "query", names, "priority", random.nextInt(5));
                return "prioritize " + spec + "/" + name;
            }
            case 10 -> {
                String command = List.of("reset_work_units", "delete_work_units", "cancel_work_units")
                        .get(random.nextInt(3));
                h.send(command, "work_spec_name", spec, "query", names);
                return command + " " + spec + "/" + name;
            }
            default -> {
                long seconds = 1 + random.nextInt(40);
                h.advance(Duration.ofSeconds(seconds)).punctuate();
                return "time step after " + seconds + " s";
            }
        }
    }

    private static void compareEveryUnit(EngineHarness h) {
        for (String spec : SPECS) {
            List<String> recorded = new ArrayList<>();
            try (KeyValueIterator it = h.store().records().prefix(UnitKeys.units("ns", spec))) {
                while (it.hasNext()) {
                    KeyValueIterator.Entry entry = it.next();
                    WorkUnitRecord unit = ValueCodec.decode(entry.value(), WorkUnitRecord.class);
                    recorded.add(unit.name());
                    compare(unit, heldAttempt(entry.value()), h.unit(spec, unit.name()));
                }
            }
            List<String> shown = new ArrayList<>();
            h.reader().units().list("ns", spec, null, Integer.MAX_VALUE).forEach(u -> shown.add(u.name()));
            assertThat(shown).as("units of %s the API lists", spec).isEqualTo(recorded);
        }
    }

    private static AttemptRecord heldAttempt(byte[] value) {
        return UnitValue.hasAttempt(value) ? ValueCodec.decode(UnitValue.attempt(value), AttemptRecord.class) : null;
    }

    /** The API's view of a unit against its record: status, priority, times, active attempt, data, latest attempt. */
    private static void compare(WorkUnitRecord unit, AttemptRecord held, ObjectNode shown) {
        String what = unit.spec() + "/" + unit.name();
        assertThat(shown).as("%s shown", what).isNotNull();
        assertThat(shown.get("status").asText())
                .as("status of %s", what)
                .isEqualTo(unit.status().wireName());
        assertThat(shown.get("priority")).as("priority of %s", what).isEqualTo(Numbers.node(unit.priority()));
        assertThat(
                        shown.get("not_before").isNull()
                                ? null
                                : shown.get("not_before").asText())
                .as("not_before of %s", what)
                .isEqualTo(unit.notBefore() == null ? null : Times.format(unit.notBefore()));
        JsonNode active = shown.get("active_attempt");
        assertThat(active.isNull() ? null : Long.parseLong(active.asText()))
                .as("active attempt of %s", what)
                .isEqualTo(unit.activeAttempt());
        boolean activeHeld = held != null && unit.activeAttempt() != null && held.seq() == unit.activeAttempt();
        JsonNode data = activeHeld && !active.isNull() ? held.data() : unit.data();
        assertThat(shown.get("data")).as("data of %s", what).isEqualTo(data == null ? Json.object() : data);
        JsonNode attempts = shown.get("attempts");
        if (held == null) {
            assertThat(attempts).as("attempts of %s", what).isEmpty();
        } else {
            JsonNode latest = attempts.get(attempts.size() - 1);
            assertThat(latest.get("attempt_id").asText())
                    .as("latest attempt of %s", what)
                    .isEqualTo(Long.toString(held.seq()));
            assertThat(latest.get("status").asText())
                    .as("its status")
                    .isEqualTo(held.status().wireName());
            assertThat(latest.get("data")).as("its data").isEqualTo(held.data() == null ? Json.object() : held.data());
            assertThat(latest.path("progress").path("message").textValue())
                    .as("its progress")
                    .isEqualTo(held.progress() == null ? null : held.progress().message());
        }
    }
}
