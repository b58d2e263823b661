package io.coordinate.engine.family;

import static io.coordinate.engine.EngineHarness.assertJson;
import static io.coordinate.engine.family.Trees.addChildren;
import static io.coordinate.engine.family.Trees.child;
import static io.coordinate.engine.family.Trees.eventLines;
import static io.coordinate.engine.family.Trees.heir;
import static io.coordinate.engine.family.Trees.ref;
import static io.coordinate.engine.family.Trees.run;
import static io.coordinate.engine.family.Trees.runAndFinish;
import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.engine.EngineHarness;
import io.coordinate.engine.EngineHarness.Attempt;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * docs/children-and-heirs.md#heirs: blocked until the predecessor (with its whole subtree) is finished, available at
 * once if it already is, failed if it fails.
 */
class HeirsTest {

    private final EngineHarness h = new EngineHarness();

    @BeforeEach
    void specs() {
        h.setSpec("{\"name\":\"etl\"}");
    }

    @Test
    void aPipelineRunsInOrder() {
        h.addUnits("etl", "extract");
        Trees.add(h, "etl", heir("transform", "etl", "extract"), heir("load", "etl", "transform"))
                .ok();

        assertJson(h.counts("etl"), "{\"available\":1,\"blocked\":2}");
        assertThat(h.order("etl")).containsExactly("extract", "transform", "load");
        assertJson(h.counts("etl"), "{\"finished\":3}");
        assertJson(
                h.unit("etl", "transform").get("predecessor"),
                "{\"work_spec_name\":\"etl\",\"work_unit_name\":\"extract\"}");
        assertJson(
                h.unit("etl", "extract").get("heirs"),
                "[{\"work_spec_name\":\"etl\",\"work_unit_name\":\"transform\"}]");
        assertThat(h.unit("etl", "extract").get("heir_count").asLong()).isEqualTo(1);
    }

    @Test
    void finishingThePredecessorReleasesItsHeirsInTheSameCommand() {
        h.addUnits("etl", "a");
        Trees.add(h, "etl", heir("b1", "etl", "a"), heir("b2", "etl", "a")).ok();
        Attempt a = run(h, "etl", "a");
        h.clearCaptured();

        h.finish(a).ok();

        assertThat(eventLines(h))
                .containsExactly(
                        "attempt_finished etl/a",
                        "unit_status_changed etl/a pending→finished",
                        "unit_status_changed etl/b1 blocked→available",
                        "unit_status_changed etl/b2 blocked→available");
    }

    @Test
    void anHeirOfAFinishedUnitIsAvailableAtOnce() {
        h.addUnits("etl", "a");
        runAndFinish(h, "etl", "a");
        h.clearCaptured();

        Trees.add(h, "etl", heir("b", "etl", "a")).ok();

        assertThat(eventLines(h)).containsExactly("unit_added etl/b available");
        assertJson(
                h.events().get(0),
                "{\"type\":\"unit_added\",\"work_spec_name\":\"etl\",\"work_unit_name\":\"b\","
                        + "\"status\":\"available\",\"priority\":0,\"predecessor\":{\"work_spec_name\":\"etl\","
                        + "\"work_unit_name\":\"a\"}}");
    }

    @Test
    void anHeirWaitsForThePredecessorsWholeSubtree() {
        h.setSpec("{\"name\":\"parts\"}");
        h.addUnits("etl", "job");
        Trees.add(h, "etl", heir("after", "etl", "job")).ok();
        Attempt job = run(h, "etl", "job");
        Trees.add(h, "parts", child("part", "etl", "job")).ok();
        h.finish(job).ok();

        assertThat(h.status("etl", "job")).isEqualTo("waiting");
        assertThat(h.status("etl", "after")).isEqualTo("blocked");
        h.requestNone("work_specs", java.util.List.of("etl"));
        Attempt part = run(h, "parts", "part");
        h.clearCaptured();
        h.finish(part).ok();

        assertThat(eventLines(h))
                .containsExactly(
                        "attempt_finished parts/part",
                        "unit_status_changed parts/part pending→finished",
                        "unit_status_changed etl/job waiting→finished",
                        "unit_status_changed etl/after blocked→available");
    }

    @Test
    void aFailedPredecessorFailsItsWaitingHeirsAndTheirHeirs() {
        h.addUnits("etl", "a");
        Trees.add(h, "etl", heir("b", "etl", "a"), heir("c", "etl", "b")).ok();
        Attempt a = run(h, "etl", "a");
        h.clearCaptured();

        h.fail(a).ok();

        assertThat(eventLines(h))
                .containsExactly(
                        "attempt_failed etl/a",
                        "unit_status_changed etl/a pending→failed",
                        "unit_status_changed etl/b blocked→failed",
                        "unit_status_changed etl/c blocked→failed");
        assertJson(h.unitData("etl", "b"), "{\"traceback\":\"predecessor etl/a failed\"}");
        assertJson(h.unitData("etl", "c"), "{\"traceback\":\"predecessor etl/b failed\"}");
        assertThat(h.unit("etl", "b").get("attempts")).isEmpty();
    }

    @Test
    void anHeirAddedToAFailedPredecessorFailsAtOnce() {
        h.addUnits("etl", "a");
        h.fail(run(h, "etl", "a")).ok();
        h.clearCaptured();

        Trees.add(h, "etl", heir("b", "etl", "a")).ok();

        assertThat(eventLines(h)).containsExactly("unit_added etl/b failed");
        assertJson(h.unitData("etl", "b"), "{\"traceback\":\"predecessor etl/a failed\"}");
    }

    @Test
    void aResetHeirWaitsAgainAndRunsWhenItsResetPredecessorFinishes() {
        h.addUnits("etl", "b");
        Trees.add(h, "etl", heir("a", "etl", "b")).ok(); // the heir sorts first: reset meets it first
        h.fail(run(h, "etl", "b")).ok();
        assertThat(h.status("etl", "a")).isEqualTo("failed");

        h.reset("etl", "{\"statuses\":[\"failed\"]}").ok();

        assertThat(h.status("etl", "a")).isEqualTo("blocked");
        assertThat(h.status("etl", "b")).isEqualTo("available");
        assertThat(h.order("etl")).containsExactly("b", "a");
    }

    @Test
    void aMissingPredecessorIsRefused() {
        assertThat(Trees.add(h, "etl", heir("b", "etl", "nope")).errorCode()).isEqualTo("no_such_work_unit");
        assertThat(Trees.add(h, "etl", heir("b", "other-spec", "a")).errorCode())
                .isEqualTo("no_such_work_unit");
        assertThat(h.units("etl", "{}")).isEmpty();
    }

    @Test
    void anAncestorCannotBeAPredecessor() {
        h.addUnits("etl", "p");
        Attempt p = run(h, "etl", "p");
        addChildren(h, "etl", "p", "c");

        EngineHarness.Reply reply = Trees.add(h, "etl", child("g", "etl", "c").set("predecessor", ref("etl", "p")));

        assertThat(reply.errorCode()).isEqualTo("bad_command");
        assertThat(reply.json().get("error").get("message").asText())
                .isEqualTo(
                        "work unit etl/g cannot have its ancestor etl/p as predecessor: the ancestor waits for it to finish");
        h.finish(p).ok();
    }

    @Test
    void linksAreFixedWhenAUnitIsCreated() {
        h.addUnits("etl", "a", "b", "c");
        Trees.add(h, "etl", heir("d", "etl", "a")).ok();

        assertThat(Trees.add(h, "etl", heir("d", "etl", "b")).errorCode()).isEqualTo("bad_command");
        assertThat(Trees.add(h, "etl", heir("c", "etl", "a")).errorCode())
                .as("c exists without links")
                .isEqualTo("bad_command");
        Trees.add(h, "etl", heir("d", "etl", "a").put("priority", 5)).ok(); // the same link: fine
        h.addUnitsJson("etl", "[{\"name\":\"d\",\"data\":{\"v\":1}}]"); // no link given: kept
        assertJson(h.unit("etl", "d").get("predecessor"), "{\"work_spec_name\":\"etl\",\"work_unit_name\":\"a\"}");
        assertThat(h.status("etl", "d")).isEqualTo("blocked");
    }
}
