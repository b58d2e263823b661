package io.coordinate.engine;

import static io.coordinate.engine.EngineHarness.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.engine.EngineHarness.Attempt;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Concurrency groups (docs/reference.md#concurrency-groups): {@code group_max_running} caps each group's pending
 * units, requests take units round robin among groups within the priority order, a unit without a group is uncapped.
 * The rebuild check after every test compares the group indexes kept by the transitions with derived ones.
 */
class ConcurrencyGroupsEngineTest {

    private final EngineHarness h = new EngineHarness();

    private static String unit(String name, String group, int priority) {
        return "{\"name\":\"" + name + "\",\"group\":\"" + group + "\",\"priority\":" + priority + "}";
    }

    /** Units {@code <group>-<i>} of each group, priority 0. */
    private void addGroups(String spec, int perGroup, String... groups) {
        List<String> units = new ArrayList<>();
        for (String group : groups) {
            for (int i = 1; i <= perGroup; i++) {
                units.add(unit(group + "-" + i, group, 0));
            }
        }
        h.addUnitsJson(spec, "[" + String.join(",", units) + "]");
    }

    private static List<String> units(List<Attempt> attempts) {
        return attempts.stream().map(Attempt::unit).toList();
    }

    @Test
    void theCapHoldsAcrossRequests() {
        h.setSpec("{\"name\":\"s\",\"group_max_running\":2}");
        addGroups("s", 5, "a");

        assertThat(units(h.request("count", 10))).containsExactly("a-1", "a-2");
        h.requestNone("count", 10);
        h.advanceSeconds(1);
        h.requestNone();
        assertThat(h.meta("s").get("group_max_running").asLong()).isEqualTo(2);
        assertThat(h.meta("s").get("groups_at_cap").asLong()).isEqualTo(1);
    }

    @Test
    void requestsTakeUnitsRoundRobinAmongGroupsOfEqualPriority() {
        h.setSpec("{\"name\":\"s\",\"group_max_running\":10}");
        addGroups("s", 3, "g3", "g1", "g2");

        List<String> order = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            order.add(h.requestOne().unit());
        }

        assertThat(order).containsExactly("g1-1", "g2-1", "g3-1", "g1-2", "g2-2", "g3-2", "g1-3", "g2-3", "g3-3");
    }

    @Test
    void oneRequestTakesOneUnitPerGroupInTurnFromTheCursor() {
        h.setSpec("{\"name\":\"s\",\"group_max_running\":10}");
        addGroups("s", 3, "g1", "g2", "g3");
        assertThat(h.requestOne().unit()).isEqualTo("g1-1");

        assertThat(units(h.request("count", 5))).containsExactly("g2-1", "g3-1", "g1-2", "g2-2", "g3-2");
        assertThat(h.requestOne().unit()).isEqualTo("g1-3");
    }

    @Test
    void groupedUnitsWithoutACapAreTakenRoundRobinToo() {
        h.setSpec("{\"name\":\"s\"}");
        addGroups("s", 2, "a", "b");

        assertThat(units(h.request("count", 4))).containsExactly("a-1", "b-1", "a-2", "b-2");
        assertThat(h.meta("s").has("group_max_running")).isFalse();
    }

    @Test
    void priorityBeatsFairness() {
        h.setSpec("{\"name\":\"s\",\"group_max_running\":5}");
        h.addUnitsJson(
                "s",
                "[" + unit("a-low", "a", 0) + "," + unit("a-high1", "a", 5) + "," + unit("a-high2", "a", 5) + ","
                        + unit("b-mid", "b", 3) + "]");

        assertThat(units(h.request("count", 4))).containsExactly("a-high1", "a-high2", "b-mid", "a-low");
    }

    @Test
    void aGroupAtItsCapIsPassedOverForTheNextGroup() {
        h.setSpec("{\"name\":\"s\",\"group_max_running\":1}");
        h.addUnitsJson("s", "[" + unit("a-1", "a", 9) + "," + unit("a-2", "a", 9) + "," + unit("b-1", "b", 0) + "]");

        assertThat(units(h.request("count", 3))).containsExactly("a-1", "b-1");
    }

    @Test
    void finishingAUnitFreesItsGroupsSlot() {
        h.setSpec("{\"name\":\"s\",\"group_max_running\":1}");
        addGroups("s", 3, "a");
        Attempt first = h.requestOne();
        h.requestNone();

        h.finish(first).ok();

        assertThat(h.requestOne().unit()).isEqualTo("a-2");
        assertThat(h.meta("s").get("groups_at_cap").asLong()).isEqualTo(1);
    }

    @Test
    void aUnitWithoutAGroupIsUncappedAndTakesItsTurnAsALane() {
        h.setSpec("{\"name\":\"s\",\"group_max_running\":1}");
        addGroups("s", 2, "a");
        h.addUnits("s", "plain-1", "plain-2", "plain-3");

        // the ungrouped lane comes first in name order (before every group), then a; a is then at its cap
        assertThat(units(h.request("count", 5))).containsExactly("plain-1", "a-1", "plain-2", "plain-3");
    }

    @Test
    void aSpecAtItsGroupCapLeavesTheRequestToOtherSpecs() {
        h.setSpec("{\"name\":\"s\",\"group_max_running\":1,\"priority\":10}");
        h.setSpec("{\"name\":\"t\"}");
        addGroups("s", 2, "a");
        h.addUnits("t", "t-1");
        assertThat(h.requestOne().unit()).isEqualTo("a-1");

        assertThat(h.requestOne().unit()).isEqualTo("t-1");
    }

    @Test
    void resetDeleteAndReAddKeepTheGroupIndexes() {
        h.setSpec("{\"name\":\"s\",\"group_max_running\":1}");
        addGroups("s", 2, "a", "b");
        Attempt a1 = h.requestOne();
        h.fail(a1).ok();
        h.reset("s", "{}").ok();
        // a re-add moves a unit to another group and priority
        h.addUnitsJson("s", "[" + unit("a-2", "b", 4) + "]");
        h.send("delete_work_units", "work_spec_name", "s", "query", json("{\"names\":[\"b-1\"]}"))
                .ok();

        assertThat(units(h.request("count", 5))).containsExactly("a-2", "a-1");
        assertThat(h.unit("s", "a-2").get("group").asText()).isEqualTo("b");
        h.send("delete_work_spec", "work_spec_name", "s").ok();
        h.setSpec("{\"name\":\"s\"}");
        h.addUnits("s", "x");
        assertThat(h.requestOne().unit()).isEqualTo("x");
    }

    @Test
    void aBadGroupOrCapIsRefusedNamingTheKey() {
        h.setSpec("{\"name\":\"s\"}");
        assertThat(h.send("set_work_spec", "work_spec", json("{\"name\":\"t\",\"group_max_running\":-1}"))
                        .json()
                        .toString())
                .contains("group_max_running");
        assertThat(h.send(
                                "add_work_units",
                                "work_spec_name",
                                "s",
                                "work_units",
                                json("[{\"name\":\"u\",\"group\":\"\"}]"))
                        .json()
                        .toString())
                .contains("bad_command")
                .contains("group");
    }
}
