package io.coordinate.engine;

import static io.coordinate.engine.EngineHarness.assertJson;
import static io.coordinate.engine.EngineHarness.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Conformance scenarios 16–25, work units (docs/architecture.md#conformance-tests): listing, queries, deletion, counts,
 * order and data. The rest of the section (26–35: continuous specs, scheduling filters, delays, summary) is in
 * {@link WorkUnitSchedulingConformanceTest}.
 */
class WorkUnitConformanceTest {

    private final EngineHarness h = new EngineHarness();

    @BeforeEach
    void spec() {
        h.setSpec("{\"name\":\"spec\",\"min_gb\":1}");
    }

    @Test
    @DisplayName("16. Unit listed; delete_work_units {} → deleted 1; lookup → no_such_work_unit; list empty")
    void scenario16_trivialWorkUnitFlow() {
        h.addUnits("spec", "unit");
        assertThat(h.units("spec", "{}")).containsExactly("unit");
        assertThat(h.unit("spec", "unit").get("work_spec_name").asText()).isEqualTo("spec");

        assertJson(
                h.send("delete_work_units", "work_spec_name", "spec", "query", json("{}"))
                        .ok(),
                "{\"deleted\":1}");

        // A unit lookup is a read (HTTP answers it with 404 no_such_work_unit); the view finds nothing.
        assertThat(h.unit("spec", "unit")).isNull();
        assertThat(h.units("spec", "{}")).isEmpty();
    }

    @Test
    @DisplayName("17. Seven units: queries by limit, previous_name, statuses and names")
    void scenario17_workUnitQueries() {
        h.sevenUnits("spec");

        assertThat(h.units("spec", "{}")).hasSize(7);
        assertThat(h.units("spec", "{\"limit\":4}")).containsExactly("available", "delayed", "expired", "failed");
        assertThat(h.units("spec", "{\"previous_name\":\"failed\",\"limit\":4}"))
                .containsExactly("finished", "pending", "retryable");
        assertThat(h.units("spec", "{\"previous_name\":\"retryable\",\"limit\":4}"))
                .isEmpty();
        assertThat(h.units("spec", "{\"statuses\":[\"available\"]}"))
                .containsExactly("available", "expired", "retryable");
        assertThat(h.units("spec", "{\"statuses\":[\"pending\"]}")).containsExactly("pending");
        assertThat(h.units("spec", "{\"statuses\":[\"finished\"]}")).containsExactly("finished");
        assertThat(h.units("spec", "{\"statuses\":[\"failed\"]}")).containsExactly("failed");
        assertThat(h.units("spec", "{\"statuses\":[\"delayed\"]}")).containsExactly("delayed");
        assertThat(h.units("spec", "{\"statuses\":[\"failed\",\"finished\"]}")).containsExactly("failed", "finished");
        assertThat(h.units("spec", "{\"names\":[\"available\",\"failed\",\"missing\"]}"))
                .containsExactly("available", "failed");
        assertThat(h.units(
                        "spec", "{\"names\":[\"available\",\"retryable\",\"finished\"],\"statuses\":[\"available\"]}"))
                .containsExactly("available", "retryable");
    }

    @Test
    @DisplayName("18. Seven units: delete by names, by statuses, then all")
    void scenario18_deleteWorkUnits() {
        h.sevenUnits("spec");

        assertThat(delete("{\"names\":[\"retryable\"]}")).isEqualTo(1);
        assertThat(h.units("spec", "{}")).hasSize(6);
        assertThat(delete("{\"names\":[\"retryable\"]}")).isZero();
        assertThat(h.units("spec", "{}")).hasSize(6);
        assertThat(delete("{\"statuses\":[\"failed\",\"finished\"]}")).isEqualTo(2);
        assertThat(h.units("spec", "{}")).containsExactly("available", "delayed", "expired", "pending");
        assertThat(delete("{}")).isEqualTo(4);
        assertThat(h.units("spec", "{}")).isEmpty();
        assertJson(h.counts("spec"), "{}");
    }

    private int delete(String query) {
        return h.send("delete_work_units", "work_spec_name", "spec", "query", json(query))
                .ok()
                .get("deleted")
                .asInt();
    }

    @Test
    @DisplayName("19. Seven units: counts exactly {available 3, pending 1, finished 1, failed 1, delayed 1}")
    void scenario19_countWorkUnitStatus() {
        h.sevenUnits("spec");

        assertJson(h.counts("spec"), "{\"available\":3,\"pending\":1,\"finished\":1,\"failed\":1,\"delayed\":1}");
        assertJson(
                h.spec("spec").get("counts"),
                "{\"available\":3,\"pending\":1,\"finished\":1,\"failed\":1,\"delayed\":1}");
    }

    @Test
    @DisplayName("20. Add c, b, a → order a, b, c")
    void scenario20_workUnitOrder() {
        h.addUnits("spec", "c", "b", "a");

        assertThat(h.order("spec")).containsExactly("a", "b", "c");
    }

    @Test
    @DisplayName("21. Priorities a 0, b 10, c 0 at creation → order b, a, c")
    void scenario21_workUnitPriorityAtCreation() {
        h.addUnitsJson(
                "spec",
                "[{\"name\":\"a\",\"priority\":0},{\"name\":\"b\",\"priority\":10},"
                        + "{\"name\":\"c\",\"priority\":0}]");
        assertThat(h.unit("spec", "a").get("priority").asInt()).isZero();
        assertThat(h.unit("spec", "b").get("priority").asInt()).isEqualTo(10);
        assertThat(h.unit("spec", "c").get("priority").asInt()).isZero();

        assertThat(h.order("spec")).containsExactly("b", "a", "c");
    }

    @Test
    @DisplayName("22. Priorities set, prioritized and adjusted → order d, c, b, a")
    void scenario22_workUnitPrioritySet() {
        h.addUnits("spec", "a");
        assertThat(h.unit("spec", "a").get("priority").asInt()).isZero();
        h.addUnits("spec", "b");
        prioritize("b", "priority", 10);
        assertThat(h.unit("spec", "b").get("priority").asInt()).isEqualTo(10);
        h.addUnits("spec", "c");
        prioritize("c", "priority", 20);
        assertThat(h.unit("spec", "c").get("priority").asInt()).isEqualTo(20);
        h.addUnits("spec", "d");
        prioritize("d", "adjustment", 20);
        assertThat(h.unit("spec", "d").get("priority").asInt()).isEqualTo(20);
        prioritize("d", "adjustment", 10);
        assertThat(h.unit("spec", "d").get("priority").asInt()).isEqualTo(30);
        assertThat(h.unit("spec", "b").get("priority").asInt()).isEqualTo(10);

        assertThat(h.order("spec")).containsExactly("d", "c", "b", "a");
    }

    private void prioritize(String unit, String field, int value) {
        assertJson(
                h.send(
                                "prioritize_work_units",
                                "work_spec_name",
                                "spec",
                                "query",
                                json("{\"names\":[\"" + unit + "\"]}"),
                                field,
                                value)
                        .ok(),
                "{\"prioritized\":1}");
    }

    @Test
    @DisplayName("23. Unit data round-trips exactly")
    void scenario23_workUnitData() {
        String a = "{\"name\":\"a\",\"value\":1}";
        String b = "{\"name\":\"b\",\"value\":2.5,\"big\":12345678901234567890,\"neg\":-0.001,"
                + "\"nested\":{\"list\":[1,\"two\",[3.0],{\"four\":null}],\"flag\":true},\"empty\":{},\"none\":[]}";
        h.addUnitsJson("spec", "[{\"name\":\"a\",\"data\":" + a + "},{\"name\":\"b\",\"data\":" + b + "}]");

        assertThat(h.unitData("spec", "a")).isEqualTo(json(a));
        assertThat(h.unitData("spec", "b")).isEqualTo(json(b));
        assertThat(EngineHarness.normalized(h.unitData("spec", "b")).toString()).isEqualTo(json(b).toString());
    }

    @Test
    @DisplayName("24. Specs a and b both have unit `unit`; re-adding b's leaves a's untouched")
    void scenario24_addWorkUnitBleedover() {
        h.setSpec("{\"name\":\"a\"}");
        h.setSpec("{\"name\":\"b\"}");
        h.addUnitsJson("a", "[{\"name\":\"unit\",\"data\":{\"unit\":\"a\"}}]");
        h.addUnitsJson("b", "[{\"name\":\"unit\",\"data\":{\"unit\":\"b\"}}]");

        h.addUnitsJson("b", "[{\"name\":\"unit\",\"data\":{\"unit\":\"c\"}}]");

        assertJson(h.unitData("a", "unit"), "{\"unit\":\"a\"}");
        assertJson(h.unitData("b", "unit"), "{\"unit\":\"c\"}");
        assertThat(h.units("a", "{}")).containsExactly("unit");
        assertThat(h.units("b", "{}")).containsExactly("unit");
    }

    @Test
    @DisplayName("25. Seven units re-added with empty data and meta: all available except pending")
    void scenario25_recreateWorkUnits() {
        h.sevenUnits("spec");
        List<String> names = List.of("available", "pending", "finished", "failed", "expired", "retryable", "delayed");

        for (String name : names) {
            h.addUnits("spec", name);
        }

        for (String name : names) {
            assertThat(h.status("spec", name)).as(name).isEqualTo(name.equals("pending") ? "pending" : "available");
        }
        assertJson(h.counts("spec"), "{\"available\":6,\"pending\":1}");
        assertThat(h.unit("spec", "finished").get("attempts"))
                .as("history is kept")
                .hasSize(1);
    }
}
