package io.coordinate.engine.handlers;

import static io.coordinate.engine.EngineHarness.assertJson;
import static io.coordinate.engine.EngineHarness.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.engine.EngineHarness;
import io.coordinate.engine.EngineHarness.Attempt;
import io.coordinate.engine.state.codec.UnitKeys;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code add_work_units}' {@code if_exists} (docs/reference.md#add_work_units): a kept unit is left exactly as it
 * is, with no write and no event; the reply lists the units added, replaced and kept only when it was given.
 */
class IfExistsTest {

    private static final String READD =
            "[{\"name\":\"avail\",\"data\":{\"v\":2}},{\"name\":\"pend\",\"data\":{\"v\":2}},"
                    + "{\"name\":\"fin\",\"data\":{\"v\":2}},{\"name\":\"bad\",\"data\":{\"v\":2}}]";

    private final EngineHarness h = new EngineHarness();

    /** pend pending on w1's attempt (the priorities set the order of the requests), fin finished, bad failed, avail available; all with data {"v":1}. */
    @BeforeEach
    void oneUnitOfEachStatus() {
        h.setSpec("{\"name\":\"s\"}");
        h.addUnitsJson(
                "s",
                "[{\"name\":\"pend\",\"data\":{\"v\":1},\"priority\":2},{\"name\":\"fin\",\"data\":{\"v\":1},\"priority\":1},"
                        + "{\"name\":\"bad\",\"data\":{\"v\":1}}]");
        Attempt pend = h.worker("w1").requestOne();
        h.finish(h.worker("w2").requestOne()).ok();
        h.fail(h.worker("w2").requestOne()).ok();
        h.addUnitsJson("s", "[{\"name\":\"avail\",\"data\":{\"v\":1}}]");
        assertThat(pend.unit()).isEqualTo("pend");
        assertThat(statuses())
                .isEqualTo(Map.of("avail", "available", "pend", "pending", "fin", "finished", "bad", "failed"));
        h.advanceSeconds(5);
        h.clearCaptured();
    }

    private Map<String, String> statuses() {
        Map<String, String> statuses = new LinkedHashMap<>();
        for (String unit : List.of("avail", "pend", "fin", "bad")) {
            statuses.put(unit, h.status("s", unit));
        }
        return statuses;
    }

    private String record(String unit) {
        return HexFormat.of().formatHex(h.store().get(UnitKeys.unit(h.namespace(), "s", unit)));
    }

    /** {@code add_work_units} of {@code units} (a JSON list) to spec s with {@code if_exists}. */
    private EngineHarness.Reply add(String ifExists, String units) {
        return h.send("add_work_units", "work_spec_name", "s", "if_exists", ifExists, "work_units", json(units));
    }

    private List<String> eventLines() {
        return h.events().stream()
                .map(e -> e.get("type").asText() + " " + e.get("work_unit_name").asText())
                .toList();
    }

    @Test
    void keepLeavesEveryExistingUnitAsItIsWhateverItsStatus() {
        Map<String, String> before = h.stateSnapshot();

        assertJson(
                add("keep", READD).ok(),
                "{\"added\":[],\"replaced\":[],\"kept\":[\"avail\",\"pend\",\"fin\",\"bad\"],"
                        + "\"work_unit_names\":[\"avail\",\"pend\",\"fin\",\"bad\"]}");

        assertThat(h.stateSnapshot()).isEqualTo(before);
        assertThat(h.events()).isEmpty();
        assertJson(h.unitData("s", "fin"), "{\"v\":1}");
    }

    @Test
    void keepUnlessFinishedReplacesOnlyTheFinishedUnit() {
        Map<String, String> kept = Map.of("avail", record("avail"), "pend", record("pend"), "bad", record("bad"));

        assertJson(
                add("keep_unless_finished", READD).ok(),
                "{\"added\":[],\"replaced\":[\"fin\"],\"kept\":[\"avail\",\"pend\",\"bad\"],"
                        + "\"work_unit_names\":[\"avail\",\"pend\",\"fin\",\"bad\"]}");

        assertThat(Map.of("avail", record("avail"), "pend", record("pend"), "bad", record("bad")))
                .isEqualTo(kept);
        assertThat(eventLines()).containsExactly("unit_status_changed fin");
        assertThat(statuses())
                .isEqualTo(Map.of("avail", "available", "pend", "pending", "fin", "available", "bad", "failed"));
        assertJson(h.unitData("s", "fin"), "{\"v\":2}");
        assertJson(h.unitData("s", "bad"), "{\"v\":1}");
    }

    @Test
    void replaceGivenExplicitlyReplacesAllAndListsThem() {
        assertJson(
                add("replace", READD).ok(),
                "{\"added\":[],\"replaced\":[\"avail\",\"pend\",\"fin\",\"bad\"],\"kept\":[],"
                        + "\"work_unit_names\":[\"avail\",\"pend\",\"fin\",\"bad\"]}");

        assertThat(statuses())
                .isEqualTo(Map.of("avail", "available", "pend", "pending", "fin", "available", "bad", "available"));
        // a pending unit's view shows its running attempt's data
        for (String unit : List.of("avail", "fin", "bad")) {
            assertJson(h.unitData("s", unit), "{\"v\":2}");
        }
    }

    @Test
    void withoutIfExistsTheReplyIsTheReferencesCountAndNames() {
        assertJson(
                h.send("add_work_units", "work_spec_name", "s", "work_units", json(READD))
                        .ok(),
                "{\"added\":4,\"work_unit_names\":[\"avail\",\"pend\",\"fin\",\"bad\"]}");
        assertThat(statuses())
                .isEqualTo(Map.of("avail", "available", "pend", "pending", "fin", "available", "bad", "available"));
    }

    @Test
    void aUnitsOwnIfExistsOverridesTheCommands() {
        String units = "[{\"name\":\"fin\",\"data\":{\"v\":2},\"if_exists\":\"replace\"},"
                + "{\"name\":\"bad\",\"data\":{\"v\":2}},{\"name\":\"new\",\"data\":{\"v\":2}}]";

        assertJson(
                add("keep", units).ok(),
                "{\"added\":[\"new\"],\"replaced\":[\"fin\"],\"kept\":[\"bad\"],"
                        + "\"work_unit_names\":[\"fin\",\"bad\",\"new\"]}");

        assertJson(h.unitData("s", "fin"), "{\"v\":2}");
        assertJson(h.unitData("s", "bad"), "{\"v\":1}");
        assertThat(h.status("s", "new")).isEqualTo("available");
    }

    @Test
    void aUnitsOwnIfExistsAloneAlsoListsTheOutcomes() {
        String units = "[{\"name\":\"avail\",\"if_exists\":\"keep\"},{\"name\":\"pend\"}]";

        assertJson(
                h.send("add_work_units", "work_spec_name", "s", "work_units", json(units))
                        .ok(),
                "{\"added\":[],\"replaced\":[\"pend\"],\"kept\":[\"avail\"],"
                        + "\"work_unit_names\":[\"avail\",\"pend\"]}");
    }

    @Test
    void aUnitNamedTwiceInOneKeepCommandIsAddedOnceThenKept() {
        assertJson(
                add("keep", "[{\"name\":\"x\",\"data\":{\"v\":1}},{\"name\":\"x\",\"data\":{\"v\":2}}]")
                        .ok(),
                "{\"added\":[\"x\"],\"replaced\":[],\"kept\":[\"x\"],\"work_unit_names\":[\"x\",\"x\"]}");
        assertJson(h.unitData("s", "x"), "{\"v\":1}");
        assertThat(eventLines()).containsExactly("unit_added x");
    }

    @Test
    void aBadValueIsRefusedAndChangesNothing() {
        Map<String, String> before = h.stateSnapshot();

        assertThat(add("skip", READD).errorCode()).isEqualTo("bad_command");
        assertThat(h.send(
                                "add_work_units",
                                "work_spec_name",
                                "s",
                                "work_units",
                                json("[{\"name\":\"fin\",\"if_exists\":true}]"))
                        .errorCode())
                .isEqualTo("bad_command");
        assertThat(add("KEEP", READD).errorCode()).isEqualTo("bad_command");

        assertThat(h.stateSnapshot()).isEqualTo(before);
        assertThat(h.events()).isEmpty();
    }
}
