package io.coordinate.engine.family;

import static io.coordinate.engine.EngineHarness.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.EngineHarness;
import io.coordinate.engine.EngineHarness.Attempt;
import io.coordinate.protocol.Json;
import java.util.List;

/** Builders and reads for job-tree tests (docs/children-and-heirs.md), over an {@link EngineHarness}. */
final class Trees {

    private Trees() {}

    /** {@code {"work_spec_name": spec, "work_unit_name": unit}}. */
    static ObjectNode ref(String spec, String unit) {
        ObjectNode ref = Json.object();
        ref.put("work_spec_name", spec);
        ref.put("work_unit_name", unit);
        return ref;
    }

    /** A unit object with a parent (in {@code spec}) and no other field. */
    static ObjectNode child(String name, String spec, String parent) {
        ObjectNode unit = Json.object();
        unit.put("name", name);
        unit.set("parent", ref(spec, parent));
        return unit;
    }

    /** A unit object with a predecessor (in {@code spec}) and no other field. */
    static ObjectNode heir(String name, String spec, String predecessor) {
        ObjectNode unit = Json.object();
        unit.put("name", name);
        unit.set("predecessor", ref(spec, predecessor));
        return unit;
    }

    static EngineHarness.Reply add(EngineHarness h, String spec, ObjectNode... units) {
        ArrayNode list = Json.MAPPER.createArrayNode();
        for (ObjectNode unit : units) {
            list.add(unit);
        }
        return h.send("add_work_units", "work_spec_name", spec, "work_units", list);
    }

    /** Adds children of {@code spec/parent} with these names, in {@code spec}. */
    static void addChildren(EngineHarness h, String spec, String parent, String... names) {
        ObjectNode[] units = new ObjectNode[names.length];
        for (int i = 0; i < names.length; i++) {
            units[i] = child(names[i], spec, parent);
        }
        add(h, spec, units).ok();
    }

    /** Requests exactly one attempt and expects it at {@code spec/unit}. */
    static Attempt run(EngineHarness h, String spec, String unit) {
        Attempt attempt = h.requestOne("work_specs", List.of(spec));
        assertThat(attempt.unit()).as("the unit handed out").isEqualTo(unit);
        return attempt;
    }

    /** Runs and finishes {@code spec/unit}. */
    static void runAndFinish(EngineHarness h, String spec, String unit) {
        h.finish(run(h, spec, unit)).ok();
    }

    /** The unit's {@code children} view: {@code {"parked", "open", "closed", "counts"}}. */
    static JsonNode children(EngineHarness h, String spec, String unit) {
        return h.unit(spec, unit).get("children");
    }

    /** The names of a list of refs, in order. */
    static List<String> names(JsonNode refs) {
        assertThat(refs.isArray()).isTrue();
        java.util.ArrayList<String> names = new java.util.ArrayList<>();
        refs.forEach(r -> names.add(r.get("work_unit_name").asText()));
        return names;
    }

    static JsonNode traceback(String text) {
        return json("{\"traceback\":\"" + text + "\"}");
    }

    /** Event types with their unit, as {@code type spec/unit [previous→status]}: a readable exact sequence. */
    static List<String> eventLines(EngineHarness h) {
        return h.events().stream().map(Trees::line).toList();
    }

    private static String line(JsonNode e) {
        StringBuilder out = new StringBuilder(e.get("type").asText());
        if (e.has("work_unit_name")) {
            out.append(' ')
                    .append(e.get("work_spec_name").asText())
                    .append('/')
                    .append(e.get("work_unit_name").asText());
        }
        if (e.get("type").asText().equals("unit_status_changed")) {
            out.append(' ')
                    .append(e.get("previous_status").asText())
                    .append('→')
                    .append(e.get("status").asText());
        } else if (e.get("type").asText().equals("unit_added")) {
            out.append(' ').append(e.get("status").asText());
        }
        return out.toString();
    }
}
