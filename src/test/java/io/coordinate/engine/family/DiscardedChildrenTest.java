package io.coordinate.engine.family;

import static io.coordinate.engine.EngineHarness.assertJson;
import static io.coordinate.engine.family.Trees.addChildren;
import static io.coordinate.engine.family.Trees.child;
import static io.coordinate.engine.family.Trees.children;
import static io.coordinate.engine.family.Trees.eventLines;
import static io.coordinate.engine.family.Trees.heir;
import static io.coordinate.engine.family.Trees.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.engine.EngineHarness;
import io.coordinate.engine.EngineHarness.Attempt;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * docs/children-and-heirs.md#children: if the parent's attempt fails, expires or is retried, the children parked
 * during that attempt are discarded (the next attempt adds them again) — deleted with their own children, each with its
 * {@code unit_deleted} event; children parked before the attempt stay.
 */
class DiscardedChildrenTest {

    private final EngineHarness h = new EngineHarness();
    private Attempt parent;

    /** p runs; "early" was added before; c1 and c2 during the attempt; c1 has a child of its own. */
    @BeforeEach
    void parentWithParkedChildren() {
        h.setSpec("{\"name\":\"jobs\"}");
        h.addUnits("jobs", "p");
        addChildren(h, "jobs", "p", "early");
        parent = h.requestOne("lifetime", 60);
        addChildren(h, "jobs", "p", "c1", "c2");
        addChildren(h, "jobs", "c1", "c1-child");
        h.clearCaptured();
    }

    @Test
    void aFailedAttemptDiscardsItsChildren() {
        h.fail(parent).ok();

        assertThat(eventLines(h))
                .containsExactly(
                        "attempt_failed jobs/p",
                        "unit_status_changed jobs/p pending→failed",
                        "unit_deleted jobs/c1",
                        "unit_deleted jobs/c2",
                        "unit_deleted jobs/c1-child");
        assertThat(h.units("jobs", "{}")).containsExactly("early", "p");
        assertJson(children(h, "jobs", "p").get("counts"), "{\"parked\":1,\"open\":0,\"closed\":0}");
    }

    @Test
    void aRetriedAttemptDiscardsItsChildrenAndTheNextAttemptAddsThemAgain() {
        h.retry(parent, 0).ok();

        assertThat(eventLines(h))
                .containsExactly(
                        "attempt_retried jobs/p",
                        "unit_status_changed jobs/p pending→available",
                        "unit_deleted jobs/c1",
                        "unit_deleted jobs/c2",
                        "unit_deleted jobs/c1-child");
        Attempt again = run(h, "jobs", "p");
        addChildren(h, "jobs", "p", "c1", "c2");
        h.finish(again).ok();
        assertThat(h.status("jobs", "c1")).isEqualTo("available");
        assertThat(Trees.names(children(h, "jobs", "p").get("open"))).containsExactly("c1", "c2", "early");
    }

    @Test
    void anExpiredAttemptDiscardsItsChildren() {
        h.expire(parent).ok();

        assertThat(eventLines(h))
                .containsExactly(
                        "attempt_expired jobs/p",
                        "unit_status_changed jobs/p pending→available",
                        "unit_deleted jobs/c1",
                        "unit_deleted jobs/c2",
                        "unit_deleted jobs/c1-child");
    }

    @Test
    void anAttemptExpiredByTheTimeStepDiscardsItsChildren() {
        h.advance(Duration.ofSeconds(61));
        h.punctuate();

        assertThat(eventLines(h))
                .containsExactly(
                        "attempt_expired jobs/p",
                        "unit_status_changed jobs/p pending→available",
                        "unit_deleted jobs/c1",
                        "unit_deleted jobs/c2",
                        "unit_deleted jobs/c1-child");
        assertJson(h.counts("jobs"), "{\"available\":1,\"blocked\":1}");
    }

    @Test
    void resettingARunningParentDiscardsTheChildrenOfTheDroppedAttempt() {
        h.reset("jobs", "{\"names\":[\"p\"]}").ok();

        assertThat(eventLines(h))
                .containsExactly(
                        "unit_status_changed jobs/p pending→available",
                        "unit_deleted jobs/c1",
                        "unit_deleted jobs/c2",
                        "unit_deleted jobs/c1-child");
        assertThat(h.finish(parent).ok().get("status").asText())
                .as("the dropped attempt may still finish")
                .isEqualTo("finished");
        assertThat(h.status("jobs", "p")).isEqualTo("available");
    }

    @Test
    void anHeirOutsideADiscardedChildFailsAndAnHeirInsideGoesWithIt() {
        h.setSpec("{\"name\":\"reports\"}");
        Trees.add(h, "jobs", child("c3", "jobs", "p").set("predecessor", Trees.ref("jobs", "c1")))
                .ok();
        Trees.add(h, "reports", heir("r", "jobs", "c1")).ok();
        h.clearCaptured();

        h.fail(parent).ok();

        assertThat(eventLines(h))
                .containsExactly(
                        "attempt_failed jobs/p",
                        "unit_status_changed jobs/p pending→failed",
                        "unit_status_changed reports/r blocked→failed",
                        "unit_deleted jobs/c1",
                        "unit_deleted jobs/c2",
                        "unit_deleted jobs/c3",
                        "unit_deleted jobs/c1-child");
        assertThat(h.unit("reports", "r").get("predecessor").isNull()).isTrue();
        assertJson(h.unitData("reports", "r"), "{\"traceback\":\"predecessor jobs/c1 deleted\"}");
    }
}
