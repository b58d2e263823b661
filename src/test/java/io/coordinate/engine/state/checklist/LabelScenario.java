package io.coordinate.engine.state.checklist;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.EngineHarness;
import io.coordinate.engine.EngineHarness.Attempt;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.protocol.Json;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs only inside {@link FieldChecklistTest}, on the build that the checklist's patches gave a unit field
 * {@code label}: it is unknown to the build that compiles this class, so it is read by reflection from the record and
 * by name from the view and events. Each unit is added with a label, then driven through every transition of a unit
 * (start, renew, retry, expire, priority, finish, reset, fail, re-add, delay and release, job trees, replicas,
 * delete); after each command its record as stored, its view and its events must show the label it was given.
 */
final class LabelScenario {

    private static final String NS = "ns";

    private final EngineHarness h = new EngineHarness().namespace(NS);
    /** Each live unit ("spec/name") and the label it must show. */
    private final Map<String, String> labels = new LinkedHashMap<>();

    private int eventsChecked;

    void run() {
        h.setSpec("{\"name\":\"s\",\"max_retries\":10}");
        add("s", "u", "first", "");
        Attempt attempt = h.requestOne();
        check("a start");
        h.renew(attempt, 60, "{\"progress\":1}").ok();
        check("a renewal");
        h.retry(attempt, 0).ok();
        check("a retry");
        h.expire(h.requestOne()).ok();
        check("an expiry");
        h.send("prioritize_work_units", "work_spec_name", "s", "query", names("u"), "priority", 3)
                .ok();
        check("a priority");
        h.finish(h.requestOne()).ok();
        check("a finish");
        h.reset("s", names("u").toString()).ok();
        check("a reset");
        h.fail(h.requestOne()).ok();
        check("a failure");
        add("s", "u", "second", "");
        attempt = h.requestOne();
        check("a start");
        add("s", "u", "third", "");
        h.finish(attempt).ok();
        check("a finish after a re-add while pending");

        add("s", "later", "delayed", ",\"delay\":30");
        assertThat(h.status("s", "later")).isEqualTo("delayed");
        h.advanceSeconds(31).punctuate();
        assertThat(h.status("s", "later")).isEqualTo("available");
        check("a release by the time step");
        h.expire(h.requestOne("lifetime", 10)).ok();
        check("an expiry");

        h.setSpec("{\"name\":\"tree\"}");
        add("tree", "parent", "parent", "");
        add("tree", "child", "child", ",\"parent\":{\"work_unit_name\":\"parent\"}");
        add("tree", "heir", "heir", ",\"predecessor\":{\"work_unit_name\":\"parent\"}");
        assertThat(h.status("tree", "heir")).isEqualTo("blocked");
        for (int finished = 1; finished <= 3; finished++) { // a parent waits for its child, an heir for both
            h.finish(h.requestOne("work_specs", List.of("tree"))).ok();
            check("finish " + finished + " in a job tree");
        }
        assertThat(h.status("tree", "heir")).isEqualTo("finished");

        h.setSpec("{\"name\":\"votes\",\"min_quorum\":2,\"target_nresults\":2,\"delay_bound\":60}");
        add("votes", "v", "voted", "");
        h.send("worker_heartbeat", "worker", "w1", "parent", "h1").ok();
        h.send("worker_heartbeat", "worker", "w2", "parent", "h2").ok();
        Attempt first = h.worker("w1").requestOne("work_specs", List.of("votes"));
        Attempt second = h.worker("w2").requestOne("work_specs", List.of("votes"));
        check("replicas' starts");
        h.finish(first, "{\"result\":1}").ok();
        h.finish(second, "{\"result\":1}").ok();
        assertThat(h.results()).as("the round's record").hasSize(1);
        check("a decided round");

        h.send("delete_work_units", "work_spec_name", "s", "query", names("u")).ok();
        labels.remove("s/u");
        assertThat(h.reader().units().get(NS, "s", "u")).isNull();
        check("a delete");
        h.assertIndexesRebuildable();
    }

    private void add(String spec, String name, String label, String moreFields) {
        h.addUnitsJson(
                spec, "[{\"name\":\"" + name + "\",\"label\":\"" + label + "\",\"data\":{\"n\":1}" + moreFields + "}]");
        labels.put(spec + "/" + name, label);
        check("an add of " + spec + "/" + name);
    }

    /** Every live unit's stored record and view hold its label, and so do the unit events since the last check. */
    private void check(String after) {
        labels.forEach((key, label) -> {
            String[] parts = key.split("/");
            WorkUnitRecord stored = h.reader().units().get(NS, parts[0], parts[1]);
            assertThat(labelOf(stored))
                    .as("the stored label of %s after %s", key, after)
                    .isEqualTo(label);
            JsonNode shown = h.unit(parts[0], parts[1]).get("label");
            assertThat(shown == null ? null : shown.asText())
                    .as("the label %s shows after %s", key, after)
                    .isEqualTo(label);
        });
        List<ObjectNode> events = h.events();
        for (ObjectNode event : events.subList(eventsChecked, events.size())) {
            String type = event.path("type").asText();
            String key = event.path("work_spec_name").asText() + "/"
                    + event.path("work_unit_name").asText();
            if (type.startsWith("unit_") && !type.equals("unit_deleted") && !type.equals("unit_assimilated")) {
                assertThat(event.path("label").asText(null))
                        .as("the label of %s's event %s after %s", key, type, after)
                        .isEqualTo(labels.get(key));
            }
        }
        eventsChecked = events.size();
    }

    private static String labelOf(WorkUnitRecord unit) {
        try {
            return (String) WorkUnitRecord.class.getMethod("label").invoke(unit);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("the record has no label: was it patched?", e);
        }
    }

    private static ObjectNode names(String... names) {
        ObjectNode query = Json.object();
        ArrayNode list = query.putArray("names");
        for (String name : names) {
            list.add(name);
        }
        return query;
    }
}
