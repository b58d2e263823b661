package io.coordinate.engine.replication;

import static io.coordinate.engine.EngineHarness.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.EngineHarness;
import io.coordinate.engine.EngineHarness.Attempt;
import java.util.ArrayList;
import java.util.List;

/** Builders and reads for replication tests (docs/replication.md), over an {@link EngineHarness}. */
final class Replicas {

    private Replicas() {}

    /** Heartbeats each worker with its parent: {@code "w1", "h1", "w2", "h2", ...} (a null parent: none). */
    static void workers(EngineHarness h, String... workerParentPairs) {
        for (int i = 0; i < workerParentPairs.length; i += 2) {
            if (workerParentPairs[i + 1] == null) {
                h.send("worker_heartbeat", "worker", workerParentPairs[i]).ok();
            } else {
                h.send("worker_heartbeat", "worker", workerParentPairs[i], "parent", workerParentPairs[i + 1])
                        .ok();
            }
        }
    }

    /** One attempt requested by {@code worker}; expects it to be a replica of {@code unit}. */
    static Attempt take(EngineHarness h, String worker, String unit) {
        Attempt attempt = h.worker(worker).requestOne();
        assertThat(attempt.unit()).as("the unit %s got", worker).isEqualTo(unit);
        return attempt;
    }

    /** A request by {@code worker} that gets nothing. */
    static void nothingFor(EngineHarness h, String worker) {
        h.worker(worker).requestNone();
    }

    /** Finishes a replica with finish data {@code {"result": <resultJson>}}. */
    static EngineHarness.Reply finish(EngineHarness h, Attempt attempt, String resultJson) {
        return h.finish(attempt, "{\"result\":" + resultJson + "}");
    }

    /** The unit view's {@code replication} object. */
    static ObjectNode round(EngineHarness h, String spec, String unit) {
        return (ObjectNode) h.unit(spec, unit).get("replication");
    }

    /** Each replica of the unit's round as {@code "id worker host outcome validate_state"}. */
    static List<String> replicaLines(EngineHarness h, String spec, String unit) {
        return lines(round(h, spec, unit).get("replicas"));
    }

    static List<String> lines(JsonNode replicas) {
        List<String> lines = new ArrayList<>();
        for (JsonNode r : replicas) {
            lines.add(r.get("attempt_id").asText() + " " + r.get("worker").asText() + " "
                    + r.get("host").asText() + " "
                    + (r.get("outcome").isNull() ? "running" : r.get("outcome").asText()) + " "
                    + r.get("validate_state").asText());
        }
        return lines;
    }

    /** Every event as {@code "type spec/unit [attempt] [status|outcome validate]"}, in order. */
    static List<String> eventLines(EngineHarness h) {
        List<String> lines = new ArrayList<>();
        for (ObjectNode e : h.events()) {
            String type = e.get("type").asText();
            StringBuilder line = new StringBuilder(type);
            if (e.has("work_unit_name")) {
                line.append(' ')
                        .append(e.get("work_spec_name").asText())
                        .append('/')
                        .append(e.get("work_unit_name").asText());
            }
            if (type.equals("worker_updated")) {
                line.append(' ').append(e.get("worker").asText());
            } else if (type.equals("replica_updated")) {
                line.append(' ')
                        .append(e.get("attempt_id").asText())
                        .append(' ')
                        .append(e.get("outcome").asText())
                        .append(' ')
                        .append(e.get("validate_state").asText());
            } else if (type.startsWith("attempt_")) {
                line.append(' ').append(e.get("attempt_id").asText());
            } else if (type.equals("unit_status_changed")) {
                line.append(' ')
                        .append(e.get("previous_status").asText())
                        .append('→')
                        .append(e.get("status").asText());
            } else if (type.equals("unit_assimilated")) {
                line.append(" mask ").append(e.get("error_mask").asText());
            }
            lines.add(line.toString());
        }
        return lines;
    }

    static JsonNode reliability(EngineHarness h, String worker) {
        return h.workerView(worker).get("reliability");
    }

    static JsonNode parse(String text) {
        return json(text);
    }
}
