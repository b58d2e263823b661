package io.coordinate.engine.family;

import static io.coordinate.engine.EngineHarness.assertJson;
import static io.coordinate.engine.EngineHarness.json;
import static io.coordinate.engine.family.Trees.addChildren;
import static io.coordinate.engine.family.Trees.child;
import static io.coordinate.engine.family.Trees.children;
import static io.coordinate.engine.family.Trees.eventLines;
import static io.coordinate.engine.family.Trees.heir;
import static io.coordinate.engine.family.Trees.run;
import static io.coordinate.engine.family.Trees.runAndFinish;
import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.engine.EngineHarness;
import io.coordinate.engine.EngineHarness.Attempt;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What {@code delete_work_units}, {@code delete_work_spec} and re-adding do to links (docs/children-and-heirs.md):
 * a deleted unit takes its whole tree of children along; its heirs lose the link and, if still waiting for
 * it, fail; a parent that was waiting only for a deleted child finishes.
 */
class DeletingTreesTest {

    private final EngineHarness h = new EngineHarness();

    @BeforeEach
    void specs() {
        h.setSpec("{\"name\":\"jobs\"}");
        h.setSpec("{\"name\":\"parts\"}");
    }

    private int delete(String spec, String query) {
        return h.send("delete_work_units", "work_spec_name", spec, "query", json(query))
                .ok()
                .get("deleted")
                .asInt();
    }

    @Test
    void deletingAParentDeletesItsWholeTreeInEverySpec() {
        h.addUnits("jobs", "p", "other");
        run(h, "jobs", "other"); // a bystander, running
        Attempt parent = run(h, "jobs", "p");
        Trees.add(h, "parts", child("a", "jobs", "p"), child("b", "jobs", "p")).ok();
        h.finish(parent).ok();
        runAndFinish(h, "parts", "a"); // closed
        Attempt b = run(h, "parts", "b");
        Trees.add(h, "parts", child("b1", "parts", "b")).ok(); // parked under b's attempt
        h.clearCaptured();

        assertThat(delete("jobs", "{\"names\":[\"p\"]}"))
                .as("the reply counts the whole tree")
                .isEqualTo(4);

        assertThat(eventLines(h))
                .as("level by level; parked, open, then closed children")
                .containsExactly(
                        "unit_deleted jobs/p", "unit_deleted parts/b", "unit_deleted parts/a", "unit_deleted parts/b1");
        assertThat(h.units("parts", "{}")).isEmpty();
        assertThat(h.units("jobs", "{}")).containsExactly("other");
        assertThat(h.finish(b).errorCode()).isEqualTo("no_such_attempt");
    }

    @Test
    void deletingTheLastOpenChildFinishesTheWaitingParent() {
        h.setSpec("{\"name\":\"jobs\",\"then\":\"parts\"}");
        h.addUnits("jobs", "p");
        Attempt parent = run(h, "jobs", "p");
        addChildren(h, "jobs", "p", "c1", "c2");
        h.finish(parent, "{\"output\":[\"report\"]}").ok();
        runAndFinish(h, "jobs", "c1");
        h.clearCaptured();

        assertThat(delete("jobs", "{\"names\":[\"c2\"]}")).isEqualTo(1);

        assertThat(eventLines(h))
                .containsExactly(
                        "unit_deleted jobs/c2",
                        "unit_status_changed jobs/p waiting→finished",
                        "unit_added parts/report available");
        assertJson(children(h, "jobs", "p").get("counts"), "{\"parked\":0,\"open\":0,\"closed\":1}");
    }

    @Test
    void deletingAPredecessorFailsTheHeirsStillWaitingAndUnlinksTheOthers() {
        h.addUnits("jobs", "a", "b");
        Trees.add(h, "parts", heir("waits", "jobs", "a"), heir("ran", "jobs", "b"))
                .ok();
        runAndFinish(h, "jobs", "a");
        h.clearCaptured();
        // b has not run: "ran" still waits for it; a finished: "waits" was released
        assertThat(h.status("parts", "waits")).isEqualTo("available");

        assertThat(delete("jobs", "{}")).isEqualTo(2);

        assertThat(eventLines(h))
                .containsExactly(
                        "unit_deleted jobs/a", "unit_status_changed parts/ran blocked→failed", "unit_deleted jobs/b");
        assertJson(h.unitData("parts", "ran"), "{\"traceback\":\"predecessor jobs/b deleted\"}");
        assertThat(h.unit("parts", "ran").get("predecessor").isNull()).isTrue();
        assertThat(h.unit("parts", "waits").get("predecessor").isNull()).isTrue();
        assertThat(h.status("parts", "waits")).isEqualTo("available");
        h.reset("parts", "{\"names\":[\"ran\"]}").ok();
        assertThat(h.status("parts", "ran"))
                .as("without its link it is a plain unit again")
                .isEqualTo("available");
    }

    @Test
    void deletingASpecTakesItsTreesAlongAndTellsParentsInOtherSpecs() {
        h.addUnits("jobs", "p");
        Attempt parent = run(h, "jobs", "p");
        Trees.add(h, "parts", child("a", "jobs", "p")).ok();
        h.finish(parent).ok();
        Attempt a = run(h, "parts", "a");
        Trees.add(h, "jobs", child("a-child", "parts", "a")).ok();
        h.clearCaptured();

        h.send("delete_work_spec", "work_spec_name", "parts").ok();

        assertThat(eventLines(h))
                .containsExactly(
                        "unit_deleted parts/a",
                        "unit_deleted jobs/a-child",
                        "unit_status_changed jobs/p waiting→finished",
                        "work_spec_deleted");
        assertThat(h.units("jobs", "{}")).containsExactly("p");
        assertThat(h.finish(a).errorCode()).isEqualTo("no_such_attempt");
    }

    @Test
    void reAddingAFinishedChildOfAWaitingParentOpensItAgain() {
        h.addUnits("jobs", "p");
        Attempt parent = run(h, "jobs", "p");
        addChildren(h, "jobs", "p", "c1", "c2");
        h.finish(parent).ok();
        runAndFinish(h, "jobs", "c1");

        h.addUnits("jobs", "c1"); // no link given: the parent link is kept, and c1 runs again

        assertThat(h.status("jobs", "c1")).isEqualTo("available");
        assertThat(Trees.names(children(h, "jobs", "p").get("open"))).containsExactly("c1", "c2");
        runAndFinish(h, "jobs", "c1");
        runAndFinish(h, "jobs", "c2");
        assertThat(h.status("jobs", "p")).isEqualTo("finished");
        assertThat(Trees.add(h, "jobs", child("c1", "jobs", "p")).errorCode())
                .as("the parent is closed now")
                .isEqualTo("parent_closed");
    }

    @Test
    void aWaitingUnitReAddedKeepsWaitingWithItsNewData() {
        h.addUnits("jobs", "p");
        Attempt parent = run(h, "jobs", "p");
        addChildren(h, "jobs", "p", "c");
        h.finish(parent).ok();

        h.addUnitsJson("jobs", "[{\"name\":\"p\",\"data\":{\"v\":2}}]");

        assertThat(h.status("jobs", "p")).isEqualTo("waiting");
        assertThat(h.reader().units().get("ns", "jobs", "p").data()).isEqualTo(json("{\"v\":2}"));
    }
}
