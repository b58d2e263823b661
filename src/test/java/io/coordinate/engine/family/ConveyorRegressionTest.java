package io.coordinate.engine.family;

import static io.coordinate.engine.EngineHarness.assertJson;
import static io.coordinate.engine.family.Trees.addChildren;
import static io.coordinate.engine.family.Trees.children;
import static io.coordinate.engine.family.Trees.eventLines;
import static io.coordinate.engine.family.Trees.names;
import static io.coordinate.engine.family.Trees.run;
import static io.coordinate.engine.family.Trees.runAndFinish;
import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.engine.Engine;
import io.coordinate.engine.EngineHarness;
import io.coordinate.engine.EngineHarness.Attempt;
import io.coordinate.engine.state.model.UnitStatus;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The defects of the original Conveyor on Redis (issue 5, item 9), each pinned by the test named after it. */
class ConveyorRegressionTest {

    private final EngineHarness h = new EngineHarness();

    @BeforeEach
    void spec() {
        h.setSpec("{\"name\":\"jobs\"}");
    }

    @Test
    @DisplayName("A retried child goes back to its spec, not to its parent's parked list")
    void retriedChildGoesBackToItsSpecNotToItsParentsParkedList() {
        h.addUnits("jobs", "p");
        Attempt parent = run(h, "jobs", "p");
        addChildren(h, "jobs", "p", "c");
        h.finish(parent).ok();

        h.retry(run(h, "jobs", "c"), 0).ok();

        assertThat(h.status("jobs", "c")).isEqualTo("available");
        assertThat(h.status("jobs", "p")).isEqualTo("waiting");
        assertJson(
                children(h, "jobs", "p"),
                "{\"parked\":[],\"open\":[{\"work_spec_name\":\"jobs\","
                        + "\"work_unit_name\":\"c\"}],\"closed\":[],\"counts\":{\"parked\":0,\"open\":1,\"closed\":0}}");
        assertThat(h.reader().units().bestAvailable("ns", "jobs", 10)).containsExactly("c");
        runAndFinish(h, "jobs", "c");
        assertThat(h.status("jobs", "p")).isEqualTo("finished");
    }

    @Test
    @DisplayName("A due delayed unit is released once, also across a restart")
    void dueDelayedUnitIsReleasedOnceAlsoAcrossARestart() {
        h.addUnits("jobs", "p");
        Attempt parent = run(h, "jobs", "p");
        Trees.add(h, "jobs", Trees.child("c", "jobs", "p").put("delay", 60)).ok();
        h.finish(parent).ok();
        h.advanceSeconds(61);
        h.clearCaptured();

        h.punctuate();
        h.punctuate();
        assertThat(eventLines(h)).containsExactly("unit_status_changed jobs/c delayed→available");
        Attempt child = run(h, "jobs", "c");

        // a restart: a new engine over the same store, with no memory of what the old one scanned
        Engine restarted = new Engine(h.store(), new Random(7));
        assertThat(restarted.advanceTime(h.now(), Engine.TIME_STEP_BATCH).isEmpty())
                .isTrue();
        assertThat(h.reader().timeIndexes().dueDelayedUnits(Long.MAX_VALUE - 1, 10))
                .isEmpty();
        assertThat(h.reader().units().counts("ns", "jobs").get(UnitStatus.PENDING))
                .isEqualTo(1);
        h.finish(child).ok();
        assertThat(h.status("jobs", "p")).isEqualTo("finished");
        assertThat(h.unit("jobs", "c").get("attempts")).hasSize(1);
    }

    @Test
    @DisplayName("A failed child never leaves its parent open for ever")
    void failedChildNeverLeavesItsParentOpenForever() {
        h.addUnits("jobs", "p");
        Attempt parent = run(h, "jobs", "p");
        addChildren(h, "jobs", "p", "a", "b");
        h.finish(parent).ok();

        h.fail(run(h, "jobs", "a")).ok();

        assertThat(h.status("jobs", "p")).isEqualTo("failed");
        assertJson(children(h, "jobs", "p").get("counts"), "{\"parked\":0,\"open\":1,\"closed\":1}");
        runAndFinish(h, "jobs", "b");
        assertJson(children(h, "jobs", "p").get("counts"), "{\"parked\":0,\"open\":0,\"closed\":2}");
        assertJson(h.counts("jobs"), "{\"failed\":2,\"finished\":1}");
    }

    @Test
    @DisplayName("A parent never finishes before a child released late")
    void parentNeverFinishesBeforeAChildReleasedLate() {
        h.addUnits("jobs", "q", "p");
        Attempt parent = h.request("count", 2).get(0); // p (q runs too, and stays pending)
        Trees.add(
                        h,
                        "jobs",
                        Trees.child("blocked-by-q", "jobs", "p").set("predecessor", Trees.ref("jobs", "q")),
                        Trees.child("delayed", "jobs", "p").put("delay", 3600))
                .ok();
        h.finish(parent).ok();
        assertThat(names(children(h, "jobs", "p").get("open"))).containsExactly("blocked-by-q", "delayed");
        assertThat(h.status("jobs", "blocked-by-q")).isEqualTo("blocked");
        assertThat(h.status("jobs", "delayed")).isEqualTo("delayed");

        h.advance(Duration.ofHours(2));
        h.punctuate(); // q's attempt expires; "delayed" is due
        assertThat(h.status("jobs", "p")).isEqualTo("waiting");
        runAndFinish(h, "jobs", "delayed");
        assertThat(h.status("jobs", "p")).isEqualTo("waiting");
        runAndFinish(h, "jobs", "q");
        assertThat(h.status("jobs", "p")).isEqualTo("waiting");
        runAndFinish(h, "jobs", "blocked-by-q");

        assertThat(h.status("jobs", "p")).isEqualTo("finished");
    }

    @Test
    @DisplayName("A child added to a parent that does not exist is refused with no_such_work_unit")
    void childOfAMissingParentIsRefusedWithNoSuchWorkUnit() {
        h.addUnits("jobs", "a");
        var before = h.snapshot();

        EngineHarness.Reply reply =
                Trees.add(h, "jobs", Trees.child("b", "jobs", "a"), Trees.child("c", "jobs", "nope"));

        assertThat(reply.errorCode()).isEqualTo("no_such_work_unit");
        assertThat(reply.json().get("error").get("message").asText())
                .isEqualTo("no work unit \"nope\" in \"jobs\" (the parent of jobs/c)");
        assertThat(h.snapshot()).as("the whole command is refused").isEqualTo(before);
    }
}
