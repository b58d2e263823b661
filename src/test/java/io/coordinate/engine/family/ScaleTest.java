package io.coordinate.engine.family;

import static io.coordinate.engine.EngineHarness.assertJson;
import static io.coordinate.engine.family.Trees.children;
import static io.coordinate.engine.family.Trees.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import io.coordinate.engine.EngineHarness;
import io.coordinate.engine.EngineHarness.Attempt;
import io.coordinate.engine.view.StateViews;
import io.coordinate.protocol.Json;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 5, item 8: a parent with 10,000 children, a chain of 1,000 heirs and a tree 1,000 levels deep complete
 * correctly. Cascades run from a queue (a deep one would overflow the stack if they recursed) and each step
 * costs a few reads and writes, never a scan of the siblings, so this runs in seconds.
 */
class ScaleTest {

    private final EngineHarness h = new EngineHarness();

    @BeforeEach
    void spec() {
        h.setSpec("{\"name\":\"jobs\"}");
    }

    @Test
    void aParentWithTenThousandChildren() {
        h.addUnits("jobs", "p");
        Attempt parent = run(h, "jobs", "p");
        ArrayNode units = Json.MAPPER.createArrayNode();
        for (int i = 0; i < 10_000; i++) {
            units.add(Trees.child(String.format("c%05d", i), "jobs", "p"));
        }
        h.send("add_work_units", "work_spec_name", "jobs", "work_units", units).ok();
        assertJson(h.counts("jobs"), "{\"blocked\":10000,\"pending\":1}");

        h.finish(parent).ok();
        assertJson(h.counts("jobs"), "{\"available\":10000,\"waiting\":1}");
        assertJson(children(h, "jobs", "p").get("counts"), "{\"parked\":0,\"open\":10000,\"closed\":0}");
        assertThat(children(h, "jobs", "p").get("open")).hasSize(StateViews.MAX_LINKS_SHOWN);

        int finished = 0;
        while (true) {
            List<Attempt> batch = h.request("count", 1000);
            if (batch.isEmpty()) {
                break;
            }
            for (Attempt attempt : batch) {
                assertThat(h.status("jobs", "p")).isEqualTo("waiting");
                h.finish(attempt).ok();
                finished++;
            }
            h.clearCaptured();
        }

        assertThat(finished).isEqualTo(10_000);
        assertThat(h.status("jobs", "p")).isEqualTo("finished");
        assertJson(h.counts("jobs"), "{\"finished\":10001}");
        assertJson(children(h, "jobs", "p").get("counts"), "{\"parked\":0,\"open\":0,\"closed\":10000}");
        assertThat(Trees.names(children(h, "jobs", "p").get("closed")).get(99)).isEqualTo("c00099");
    }

    /** u0000 ← u0001 ← ... ← u0999, added in one command (each names the one before). */
    private void chain(String prefix) {
        h.addUnits("jobs", prefix + "0000");
        ArrayNode units = Json.MAPPER.createArrayNode();
        for (int i = 1; i < 1000; i++) {
            units.add(Trees.heir(String.format("%s%04d", prefix, i), "jobs", String.format("%s%04d", prefix, i - 1)));
        }
        h.send("add_work_units", "work_spec_name", "jobs", "work_units", units).ok();
    }

    @Test
    void aChainOfAThousandHeirsRunsInOrder() {
        chain("u");
        assertJson(h.counts("jobs"), "{\"available\":1,\"blocked\":999}");

        List<String> order = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            Attempt attempt = h.requestOne();
            order.add(attempt.unit());
            h.finish(attempt).ok();
            h.clearCaptured();
        }

        h.requestNone();
        assertThat(order).first().isEqualTo("u0000");
        assertThat(order).last().isEqualTo("u0999");
        assertThat(order).isSorted();
        assertJson(h.counts("jobs"), "{\"finished\":1000}");
    }

    @Test
    void aFailureRunsDownAChainOfAThousandHeirsInOneCommand() {
        chain("f");
        Attempt first = h.requestOne();
        h.clearCaptured();

        h.fail(first).ok();

        assertJson(h.counts("jobs"), "{\"failed\":1000}");
        assertThat(h.events()).hasSize(1001); // attempt_failed, then one status change per unit
        assertJson(h.unitData("jobs", "f0999"), "{\"traceback\":\"predecessor jobs/f0998 failed\"}");
    }

    @Test
    void aTreeAThousandLevelsDeepFinishesFromItsLeafInOneCommand() {
        h.addUnits("jobs", "d0000");
        for (int depth = 0; depth < 999; depth++) {
            Attempt attempt = h.requestOne();
            Trees.addChildren(h, "jobs", attempt.unit(), String.format("d%04d", depth + 1));
            h.finish(attempt).ok();
            h.clearCaptured();
        }
        assertJson(h.counts("jobs"), "{\"available\":1,\"waiting\":999}");
        Attempt leaf = h.requestOne();
        assertThat(leaf.unit()).isEqualTo("d0999");

        h.finish(leaf).ok();

        assertJson(h.counts("jobs"), "{\"finished\":1000}");
        assertThat(h.events().get(h.events().size() - 1).get("work_unit_name").asText())
                .isEqualTo("d0000");
    }
}
