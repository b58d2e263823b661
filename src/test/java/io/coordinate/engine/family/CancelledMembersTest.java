package io.coordinate.engine.family;

import static io.coordinate.engine.EngineHarness.assertJson;
import static io.coordinate.engine.family.Trees.addChildren;
import static io.coordinate.engine.family.Trees.children;
import static io.coordinate.engine.family.Trees.eventLines;
import static io.coordinate.engine.family.Trees.heir;
import static io.coordinate.engine.family.Trees.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.engine.EngineHarness;
import io.coordinate.engine.EngineHarness.Attempt;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * docs/children-and-heirs.md#failures: a cancelled unit is to its parent and heirs what a failed one is, and a
 * cancelled unit's running attempt takes the children parked during it along.
 */
class CancelledMembersTest {

    private final EngineHarness h = new EngineHarness();

    @BeforeEach
    void specs() {
        h.setSpec("{\"name\":\"jobs\"}");
    }

    private void cancel(String... names) {
        h.send("cancel_work_units", "work_spec_name", "jobs", "query", Map.of("names", List.of(names)))
                .ok();
    }

    @Test
    void aCancelledChildFailsItsWaitingParentAndThePredecessorsHeir() {
        h.addUnits("jobs", "p");
        Trees.add(h, "jobs", heir("after", "jobs", "p")).ok();
        Attempt p = run(h, "jobs", "p");
        addChildren(h, "jobs", "p", "c1", "c2");
        h.finish(p).ok();
        h.clearCaptured();

        cancel("c1");

        assertThat(eventLines(h))
                .containsExactly(
                        "unit_status_changed jobs/c1 available→cancelled",
                        "unit_status_changed jobs/p waiting→failed",
                        "unit_status_changed jobs/after blocked→failed");
        assertJson(h.unitData("jobs", "p"), "{\"traceback\":\"child jobs/c1 was cancelled\"}");
        assertJson(h.unitData("jobs", "after"), "{\"traceback\":\"predecessor jobs/p failed\"}");
        assertJson(children(h, "jobs", "p").get("counts"), "{\"parked\":0,\"open\":1,\"closed\":1}");
        assertThat(h.status("jobs", "c2")).as("the other child still runs").isEqualTo("available");
    }

    @Test
    void theHeirOfACancelledUnitFails() {
        h.addUnits("jobs", "x");
        Trees.add(h, "jobs", heir("y", "jobs", "x")).ok();
        h.clearCaptured();

        cancel("x");

        assertThat(eventLines(h))
                .containsExactly(
                        "unit_status_changed jobs/x available→cancelled", "unit_status_changed jobs/y blocked→failed");
        assertJson(h.unitData("jobs", "y"), "{\"traceback\":\"predecessor jobs/x was cancelled\"}");
        assertThat(Trees.add(h, "jobs", heir("z", "jobs", "x"))
                        .ok()
                        .get("added")
                        .asInt())
                .isEqualTo(1);
        assertJson(h.unitData("jobs", "z"), "{\"traceback\":\"predecessor jobs/x was cancelled\"}");
        assertThat(Trees.add(h, "jobs", Trees.child("k", "jobs", "x")).errorCode())
                .as("a cancelled parent is closed")
                .isEqualTo("parent_closed");
    }

    @Test
    void aParkedChildCancelledFailsItsParentWhenItsAttemptFinishes() {
        h.addUnits("jobs", "p");
        Attempt p = run(h, "jobs", "p");
        addChildren(h, "jobs", "p", "c");
        cancel("c");
        assertThat(h.status("jobs", "p")).isEqualTo("pending");

        h.finish(p).ok();

        assertThat(h.status("jobs", "p")).isEqualTo("failed");
        assertJson(h.unitData("jobs", "p"), "{\"traceback\":\"child jobs/c was cancelled\"}");
    }

    @Test
    void cancellingARunningParentTakesTheChildrenParkedDuringItsAttemptAlong() {
        h.addUnits("jobs", "p");
        Attempt p = run(h, "jobs", "p");
        addChildren(h, "jobs", "p", "c1", "c2");
        h.clearCaptured();

        cancel("p");

        assertThat(eventLines(h))
                .containsExactly(
                        "attempt_cancelled jobs/p",
                        "unit_status_changed jobs/p pending→cancelled",
                        "unit_deleted jobs/c1",
                        "unit_deleted jobs/c2");
        assertThat(h.finish(p).errorCode()).isEqualTo("cancelled");
        assertJson(h.counts("jobs"), "{\"cancelled\":1}");
    }
}
