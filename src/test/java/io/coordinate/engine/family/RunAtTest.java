package io.coordinate.engine.family;

import static io.coordinate.engine.EngineHarness.assertJson;
import static io.coordinate.engine.EngineHarness.json;
import static io.coordinate.engine.family.Trees.children;
import static io.coordinate.engine.family.Trees.eventLines;
import static io.coordinate.engine.family.Trees.run;
import static io.coordinate.engine.family.Trees.runAndFinish;
import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.engine.EngineHarness;
import io.coordinate.engine.EngineHarness.Attempt;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code not_before} / {@code run_at} / {@code delay} on any unit, children and heirs included: blocked comes
 * first; once released, a unit whose time has not come is {@code delayed} — and a delayed child is still an
 * open child of its parent. Plus generated names (docs/reference.md#unit-object).
 */
class RunAtTest {

    private final EngineHarness h = new EngineHarness();

    @BeforeEach
    void specs() {
        h.setSpec("{\"name\":\"jobs\"}");
    }

    @Test
    void aReleasedChildWhoseTimeHasNotComeIsDelayedAndKeepsItsParentWaiting() {
        h.addUnits("jobs", "p");
        Attempt parent = run(h, "jobs", "p");
        Trees.add(h, "jobs", Trees.child("c", "jobs", "p").put("delay", 60)).ok();
        assertThat(h.status("jobs", "c")).isEqualTo("blocked");
        assertThat(h.reader().timeIndexes().dueDelayedUnits(Long.MAX_VALUE - 1, 10))
                .as("not in the time index while blocked")
                .isEmpty();

        h.advanceSeconds(10);
        h.finish(parent).ok();
        assertThat(h.status("jobs", "c")).isEqualTo("delayed");
        assertThat(h.status("jobs", "p")).isEqualTo("waiting");
        assertJson(children(h, "jobs", "p").get("counts"), "{\"parked\":0,\"open\":1,\"closed\":0}");
        h.requestNone();

        h.advanceSeconds(50);
        h.clearCaptured();
        h.punctuate();
        assertThat(eventLines(h)).containsExactly("unit_status_changed jobs/c delayed→available");
        assertThat(h.status("jobs", "p")).isEqualTo("waiting");
        runAndFinish(h, "jobs", "c");
        assertThat(h.status("jobs", "p")).isEqualTo("finished");
    }

    @Test
    void aBlockedUnitWhoseTimePassedIsAvailableWhenReleased() {
        h.addUnits("jobs", "a");
        Trees.add(h, "jobs", Trees.heir("b", "jobs", "a").put("run_at", h.timeIn(Duration.ofSeconds(30))))
                .ok();
        assertThat(h.unit("jobs", "b").get("not_before").asText()).isEqualTo("2026-11-22T10:00:30.000Z");

        h.advanceSeconds(40);
        h.punctuate();
        assertThat(h.status("jobs", "b")).isEqualTo("blocked");
        runAndFinish(h, "jobs", "a");

        assertThat(h.status("jobs", "b")).isEqualTo("available");
    }

    @Test
    void anHeirReleasedBeforeItsTimeIsDelayedUntilThen() {
        h.addUnits("jobs", "a");
        Trees.add(h, "jobs", Trees.heir("b", "jobs", "a").put("not_before", h.timeIn(Duration.ofMinutes(5))))
                .ok();
        runAndFinish(h, "jobs", "a");

        assertThat(h.status("jobs", "b")).isEqualTo("delayed");
        assertJson(h.counts("jobs"), "{\"delayed\":1,\"finished\":1}");
        h.advance(Duration.ofMinutes(5));
        assertThat(h.status("jobs", "b"))
                .as("exact on read, before the time step")
                .isEqualTo("available");
        runAndFinish(h, "jobs", "b");
    }

    @Test
    void aDelayedChildOfAWaitingParentIsOpenAtOnce() {
        h.addUnits("jobs", "p");
        Attempt parent = run(h, "jobs", "p");
        Trees.addChildren(h, "jobs", "p", "first");
        h.finish(parent).ok();
        Trees.add(h, "jobs", Trees.child("later", "jobs", "p").put("delay", 30)).ok();

        assertThat(h.status("jobs", "later")).isEqualTo("delayed");
        runAndFinish(h, "jobs", "first");
        assertThat(h.status("jobs", "p")).isEqualTo("waiting");
        h.advanceSeconds(30);
        runAndFinish(h, "jobs", "later");
        assertThat(h.status("jobs", "p")).isEqualTo("finished");
    }

    @Test
    void unitsWithoutANameGetUuidsReturnedInOrder() {
        var result = h.send(
                        "add_work_units",
                        "work_spec_name",
                        "jobs",
                        "work_units",
                        json("[{\"data\":{\"i\":0}},{\"name\":\"named\",\"data\":{\"i\":1}},{\"data\":{\"i\":2}}]"))
                .ok();

        List<String> names = new ArrayList<>();
        result.get("work_unit_names").forEach(n -> names.add(n.asText()));
        assertThat(names).hasSize(3).doesNotHaveDuplicates();
        assertThat(names.get(1)).isEqualTo("named");
        for (int i = 0; i < 3; i++) {
            if (i != 1) {
                assertThat(names.get(i)).matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
            }
            assertJson(h.unitData("jobs", names.get(i)), "{\"i\":" + i + "}");
        }
        assertThat(result.get("added").asInt()).isEqualTo(3);
    }
}
