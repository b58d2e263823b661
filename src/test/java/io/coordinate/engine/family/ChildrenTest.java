package io.coordinate.engine.family;

import static io.coordinate.engine.EngineHarness.assertJson;
import static io.coordinate.engine.EngineHarness.json;
import static io.coordinate.engine.family.Trees.addChildren;
import static io.coordinate.engine.family.Trees.child;
import static io.coordinate.engine.family.Trees.children;
import static io.coordinate.engine.family.Trees.eventLines;
import static io.coordinate.engine.family.Trees.names;
import static io.coordinate.engine.family.Trees.run;
import static io.coordinate.engine.family.Trees.runAndFinish;
import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.engine.EngineHarness;
import io.coordinate.engine.EngineHarness.Attempt;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * docs/children-and-heirs.md#children: parked while the parent's attempt runs, released when it finishes, the parent
 * waiting for its whole subtree and only then finished (and chained); late children, closed parents.
 */
class ChildrenTest {

    private final EngineHarness h = new EngineHarness();

    @BeforeEach
    void specs() {
        h.setSpec("{\"name\":\"jobs\"}");
    }

    @Test
    @DisplayName("Children added during the parent's attempt are blocked until it finishes, then available")
    void childrenAddedDuringTheAttemptAreParkedUntilItFinishes() {
        h.addUnits("jobs", "p");
        Attempt parent = run(h, "jobs", "p");
        addChildren(h, "jobs", "p", "c1", "c2");

        assertThat(h.status("jobs", "c1")).isEqualTo("blocked");
        assertThat(h.status("jobs", "c2")).isEqualTo("blocked");
        assertJson(h.counts("jobs"), "{\"blocked\":2,\"pending\":1}");
        assertThat(h.units("jobs", "{\"statuses\":[\"blocked\"]}")).containsExactly("c1", "c2");
        assertJson(
                children(h, "jobs", "p"),
                "{\"parked\":[{\"work_spec_name\":\"jobs\",\"work_unit_name\":\"c1\"},"
                        + "{\"work_spec_name\":\"jobs\",\"work_unit_name\":\"c2\"}],\"open\":[],\"closed\":[],"
                        + "\"counts\":{\"parked\":2,\"open\":0,\"closed\":0}}");
        h.requestNone();

        h.clearCaptured();
        h.finish(parent).ok();

        assertThat(eventLines(h))
                .containsExactly(
                        "attempt_finished jobs/p",
                        "unit_status_changed jobs/p pending→waiting",
                        "unit_status_changed jobs/c1 blocked→available",
                        "unit_status_changed jobs/c2 blocked→available");
        assertThat(h.status("jobs", "p")).isEqualTo("waiting");
        assertJson(h.counts("jobs"), "{\"available\":2,\"waiting\":1}");
        assertThat(h.units("jobs", "{\"statuses\":[\"waiting\"]}")).containsExactly("p");
        assertJson(h.summary(), "[{\"name\":\"jobs\",\"counts\":{\"available\":2,\"waiting\":1}}]");
        assertThat(names(children(h, "jobs", "p").get("open"))).containsExactly("c1", "c2");
        assertJson(children(h, "jobs", "p").get("counts"), "{\"parked\":0,\"open\":2,\"closed\":0}");
    }

    @Test
    @DisplayName("The parent waits until every child is finished, then finishes; finishing it runs nothing else")
    void theParentWaitsForEveryChildThenFinishes() {
        h.addUnits("jobs", "p");
        Attempt parent = run(h, "jobs", "p");
        addChildren(h, "jobs", "p", "c1", "c2");
        h.finish(parent).ok();

        runAndFinish(h, "jobs", "c1");
        assertThat(h.status("jobs", "p")).isEqualTo("waiting");
        assertJson(children(h, "jobs", "p").get("counts"), "{\"parked\":0,\"open\":1,\"closed\":1}");

        Attempt last = run(h, "jobs", "c2");
        h.clearCaptured();
        h.finish(last).ok();

        assertThat(eventLines(h))
                .containsExactly(
                        "attempt_finished jobs/c2",
                        "unit_status_changed jobs/c2 pending→finished",
                        "unit_status_changed jobs/p waiting→finished");
        assertJson(h.counts("jobs"), "{\"finished\":3}");
        assertThat(names(children(h, "jobs", "p").get("closed"))).containsExactly("c1", "c2");
        assertThat(h.unit("jobs", "c1").get("parent")).isEqualTo(Trees.ref("jobs", "p"));
    }

    @Test
    @DisplayName("Three levels: the root finishes only when its grandchildren have")
    void theWholeSubtreeMustFinish() {
        h.setSpec("{\"name\":\"steps\"}");
        h.addUnits("jobs", "root");
        Attempt root = run(h, "jobs", "root");
        Trees.add(h, "steps", child("a", "jobs", "root"), child("b", "jobs", "root"))
                .ok(); // children in another spec
        h.finish(root).ok();
        Attempt a = run(h, "steps", "a");
        Trees.add(h, "steps", child("z1", "steps", "a"), child("z2", "steps", "a"))
                .ok();
        h.finish(a).ok();
        runAndFinish(h, "steps", "b");

        assertThat(Map.of("root", h.status("jobs", "root"), "a", h.status("steps", "a"), "b", h.status("steps", "b")))
                .isEqualTo(Map.of("root", "waiting", "a", "waiting", "b", "finished"));
        runAndFinish(h, "steps", "z1");
        assertThat(h.status("jobs", "root")).isEqualTo("waiting");

        Attempt z2 = run(h, "steps", "z2");
        h.clearCaptured();
        h.finish(z2).ok();

        assertThat(eventLines(h))
                .containsExactly(
                        "attempt_finished steps/z2",
                        "unit_status_changed steps/z2 pending→finished",
                        "unit_status_changed steps/a waiting→finished",
                        "unit_status_changed jobs/root waiting→finished");
        assertJson(h.counts("steps"), "{\"finished\":4}");
    }

    @Test
    @DisplayName("then chaining runs when the parent is finished, not when its attempt is")
    void chainingWaitsForTheChildren() {
        h.setSpec("{\"name\":\"jobs\",\"then\":\"next\"}");
        h.setSpec("{\"name\":\"next\",\"disabled\":true}");
        h.addUnits("jobs", "p");
        Attempt parent = run(h, "jobs", "p");
        addChildren(h, "jobs", "p", "c");
        h.finish(parent, "{\"output\":[\"after-p\"]}").ok();
        assertThat(h.chainedCommands()).isEmpty();

        Attempt child = run(h, "jobs", "c");
        h.finish(child, "{\"output\":[\"after-c\"]}").ok();

        assertThat(h.chainedCommands()).hasSize(2);
        assertJson(
                h.chainedCommands().get(0),
                "{\"command\":\"add_work_units\",\"namespace\":\"ns\","
                        + "\"work_spec_name\":\"next\",\"work_units\":[{\"name\":\"after-c\",\"data\":{},\"priority\":0}]}");
        assertJson(
                h.chainedCommands().get(1),
                "{\"command\":\"add_work_units\",\"namespace\":\"ns\","
                        + "\"work_spec_name\":\"next\",\"work_units\":[{\"name\":\"after-p\",\"data\":{},\"priority\":0}]}");
        assertThat(h.units("next", "{}")).containsExactly("after-c", "after-p");
    }

    @Test
    @DisplayName("A child added to a waiting parent is released at once and the parent waits for it too")
    void aChildOfAWaitingParentIsReleasedAtOnce() {
        h.addUnits("jobs", "p");
        Attempt parent = run(h, "jobs", "p");
        addChildren(h, "jobs", "p", "c1");
        h.finish(parent).ok();

        h.clearCaptured();
        addChildren(h, "jobs", "p", "late");

        assertThat(eventLines(h)).containsExactly("unit_added jobs/late available");
        assertThat(names(children(h, "jobs", "p").get("open"))).containsExactly("c1", "late");
        runAndFinish(h, "jobs", "c1");
        assertThat(h.status("jobs", "p")).isEqualTo("waiting");
        runAndFinish(h, "jobs", "late");
        assertThat(h.status("jobs", "p")).isEqualTo("finished");
    }

    @Test
    @DisplayName("Children added before the parent runs are parked too, and survive a retry of its attempt")
    void childrenAddedBeforeTheParentRunsSurviveItsRetries() {
        h.addUnits("jobs", "p");
        addChildren(h, "jobs", "p", "early");
        assertThat(h.status("jobs", "early")).isEqualTo("blocked");

        h.retry(run(h, "jobs", "p"), 0).ok();
        assertThat(h.status("jobs", "early")).isEqualTo("blocked");
        h.finish(run(h, "jobs", "p")).ok();

        assertThat(h.status("jobs", "early")).isEqualTo("available");
        assertThat(h.status("jobs", "p")).isEqualTo("waiting");
    }

    @Test
    @DisplayName("A child of a finished or failed parent is refused with parent_closed; nothing is added")
    void aChildOfAClosedParentIsRefused() {
        h.addUnits("jobs", "broken", "done");
        h.fail(run(h, "jobs", "broken")).ok();
        runAndFinish(h, "jobs", "done");
        var before = h.snapshot();

        var underFailed = Trees.add(h, "jobs", child("x1", "jobs", "broken"));
        var underFinished = Trees.add(h, "jobs", child("x2", "jobs", "done"));

        assertThat(underFailed.errorCode()).isEqualTo("parent_closed");
        assertThat(underFailed.json().get("error").get("message").asText())
                .isEqualTo("Expected parent jobs/broken of work unit jobs/x1 to be open, but it is failed");
        assertThat(underFinished.errorCode()).isEqualTo("parent_closed");
        assertThat(underFinished.json().get("error").get("message").asText())
                .isEqualTo("Expected parent jobs/done of work unit jobs/x2 to be open, but it is finished");
        assertThat(h.snapshot()).as("a refused command changes nothing").isEqualTo(before);
    }

    @Test
    @DisplayName("A unit without a name gets a UUID; names come back in order; the parent lists its children")
    void unnamedChildrenGetUuidsInOrder() {
        h.addUnits("jobs", "p");
        Attempt parent = run(h, "jobs", "p");
        var result = h.send(
                        "add_work_units",
                        "work_spec_name",
                        "jobs",
                        "work_units",
                        json("[{\"data\":{\"i\":1},\"parent\":{\"work_unit_name\":\"p\"}},"
                                + "{\"data\":{\"i\":2},\"parent\":{\"work_spec_name\":\"jobs\",\"work_unit_name\":\"p\"}},"
                                + "{\"name\":\"named\",\"data\":{\"i\":3},\"parent\":{\"work_unit_name\":\"p\"}}]"))
                .ok();

        List<String> added = new java.util.ArrayList<>();
        result.get("work_unit_names").forEach(n -> added.add(n.asText()));
        assertThat(added).hasSize(3);
        assertThat(added.get(0)).matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
        assertThat(added.get(1)).matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
        assertThat(added.get(0)).isNotEqualTo(added.get(1));
        assertThat(added.get(2)).isEqualTo("named");
        for (int i = 0; i < 3; i++) {
            assertJson(h.unitData("jobs", added.get(i)), "{\"i\":" + (i + 1) + "}");
            assertThat(h.status("jobs", added.get(i))).isEqualTo("blocked");
        }
        h.finish(parent).ok();
        assertThat(names(children(h, "jobs", "p").get("open"))).containsExactlyInAnyOrderElementsOf(added);
    }
}
