package io.coordinate.engine.family;

import static io.coordinate.engine.EngineHarness.assertJson;
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
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * docs/children-and-heirs.md#failures: a failed child fails its parent
 * ({@code {"traceback": "child <spec>/<name> failed"}}), recursively; a failed unit fails its waiting heirs. One
 * command carries the whole cascade.
 */
class FailureCascadeTest {

    private final EngineHarness h = new EngineHarness();

    @BeforeEach
    void specs() {
        h.setSpec("{\"name\":\"jobs\"}");
    }

    /** root → mid → leaf, each waiting for the next; root has the heir "after", mid the heir "mid-after". */
    private Attempt threeLevels() {
        h.addUnits("jobs", "root");
        Trees.add(h, "jobs", heir("after", "jobs", "root")).ok();
        Attempt root = run(h, "jobs", "root");
        addChildren(h, "jobs", "root", "mid");
        h.finish(root).ok();
        Attempt mid = run(h, "jobs", "mid");
        addChildren(h, "jobs", "mid", "leaf");
        Trees.add(h, "jobs", heir("mid-after", "jobs", "mid")).ok();
        h.finish(mid).ok();
        return run(h, "jobs", "leaf");
    }

    @Test
    void aFailedLeafFailsItsAncestorsAndTheirHeirs() {
        Attempt leaf = threeLevels();
        h.clearCaptured();

        h.fail(leaf).ok();

        assertThat(eventLines(h))
                .containsExactly(
                        "attempt_failed jobs/leaf",
                        "unit_status_changed jobs/leaf pending→failed",
                        "unit_status_changed jobs/mid waiting→failed",
                        "unit_status_changed jobs/mid-after blocked→failed",
                        "unit_status_changed jobs/root waiting→failed",
                        "unit_status_changed jobs/after blocked→failed");
        assertJson(h.unitData("jobs", "mid"), "{\"traceback\":\"child jobs/leaf failed\"}");
        assertJson(h.unitData("jobs", "root"), "{\"traceback\":\"child jobs/mid failed\"}");
        assertJson(h.unitData("jobs", "mid-after"), "{\"traceback\":\"predecessor jobs/mid failed\"}");
        assertJson(h.unitData("jobs", "after"), "{\"traceback\":\"predecessor jobs/root failed\"}");
        assertJson(h.counts("jobs"), "{\"failed\":5}");
        assertJson(children(h, "jobs", "root").get("counts"), "{\"parked\":0,\"open\":0,\"closed\":1}");
        assertThat(h.unit("jobs", "root").get("attempts").get(0).get("status").asText())
                .as("the parent's own attempt did finish")
                .isEqualTo("finished");
    }

    @Test
    void aChildFailedForTooManyRetriesFailsItsParent() {
        h.setSpec("{\"name\":\"jobs\",\"max_retries\":1}");
        h.addUnits("jobs", "p");
        Attempt p = run(h, "jobs", "p");
        addChildren(h, "jobs", "p", "c");
        h.finish(p).ok();
        h.retry(run(h, "jobs", "c"), 0).ok();

        h.requestNone(); // the second attempt is failed at once

        assertThat(h.status("jobs", "c")).isEqualTo("failed");
        assertThat(h.status("jobs", "p")).isEqualTo("failed");
        assertJson(h.unitData("jobs", "p"), "{\"traceback\":\"child jobs/c failed\"}");
    }

    @Test
    void aParkedChildFailedByItsPredecessorFailsTheParentWhenItsAttemptFinishes() {
        h.addUnits("jobs", "q", "p");
        List<Attempt> both = h.request("count", 2); // p, q
        Trees.add(h, "jobs", child("c", "jobs", "p").set("predecessor", Trees.ref("jobs", "q")))
                .ok();
        h.fail(both.get(1)).ok();
        assertThat(h.status("jobs", "c")).as("failed while parked").isEqualTo("failed");
        assertThat(h.status("jobs", "p")).isEqualTo("pending");
        h.clearCaptured();

        h.finish(both.get(0)).ok();

        assertThat(eventLines(h))
                .containsExactly("attempt_finished jobs/p", "unit_status_changed jobs/p pending→failed");
        assertJson(h.unitData("jobs", "p"), "{\"traceback\":\"child jobs/c failed\"}");
        assertJson(children(h, "jobs", "p").get("counts"), "{\"parked\":0,\"open\":0,\"closed\":1}");
    }

    @Test
    void siblingsOfAFailedChildKeepRunningAndChangeNothingWhenTheyEnd() {
        h.addUnits("jobs", "p");
        Attempt p = run(h, "jobs", "p");
        addChildren(h, "jobs", "p", "a", "b");
        h.finish(p).ok();
        List<Attempt> both = h.request("count", 2);
        h.fail(both.get(0)).ok();
        assertThat(h.status("jobs", "p")).isEqualTo("failed");
        h.clearCaptured();

        h.finish(both.get(1)).ok();

        assertThat(eventLines(h))
                .containsExactly("attempt_finished jobs/b", "unit_status_changed jobs/b pending→finished");
        assertThat(h.status("jobs", "p")).isEqualTo("failed");
        assertJson(children(h, "jobs", "p").get("counts"), "{\"parked\":0,\"open\":0,\"closed\":2}");
    }

    @Test
    void aResetParentRunsAgainAndWaitsForTheChildrenItsNewAttemptAdds() {
        h.addUnits("jobs", "p");
        Attempt first = run(h, "jobs", "p");
        addChildren(h, "jobs", "p", "c");
        h.finish(first).ok();
        h.fail(run(h, "jobs", "c")).ok();
        assertThat(h.status("jobs", "p")).isEqualTo("failed");

        h.reset("jobs", "{\"names\":[\"p\"]}").ok();
        assertThat(h.status("jobs", "p")).isEqualTo("available");
        assertJson(h.unitData("jobs", "p"), "{}");
        Attempt second = run(h, "jobs", "p");
        addChildren(h, "jobs", "p", "c"); // the failed child is added again: parked under the new attempt
        assertThat(h.status("jobs", "c")).isEqualTo("blocked");
        h.finish(second).ok();
        assertThat(h.status("jobs", "p")).isEqualTo("waiting");
        runAndFinish(h, "jobs", "c");

        assertThat(h.status("jobs", "p")).isEqualTo("finished");
    }

    @Test
    void aChildFailingWhileItsResetParentRunsFailsTheParentWhenItsAttemptEnds() {
        h.addUnits("jobs", "p");
        Attempt first = run(h, "jobs", "p");
        addChildren(h, "jobs", "p", "c");
        h.finish(first).ok();
        Attempt child = run(h, "jobs", "c");
        h.reset("jobs", "{\"names\":[\"p\"]}").ok(); // p runs again while c is still open
        Attempt second = run(h, "jobs", "p");

        h.fail(child).ok();
        assertThat(h.status("jobs", "p")).as("its attempt still runs").isEqualTo("pending");
        h.finish(second).ok();

        assertThat(h.status("jobs", "p")).isEqualTo("failed");
        assertJson(h.unitData("jobs", "p"), "{\"traceback\":\"child jobs/c failed\"}");
    }

    @Test
    void aChildFailingInAnotherSpecFailsTheParentThere() {
        h.setSpec("{\"name\":\"parts\"}");
        h.addUnits("jobs", "p");
        Attempt p = run(h, "jobs", "p");
        Trees.add(h, "parts", child("x", "jobs", "p")).ok();
        h.finish(p).ok();

        h.fail(run(h, "parts", "x")).ok();

        assertJson(h.unitData("jobs", "p"), "{\"traceback\":\"child parts/x failed\"}");
    }
}
