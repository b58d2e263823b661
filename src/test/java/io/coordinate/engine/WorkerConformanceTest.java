package io.coordinate.engine;

import static io.coordinate.engine.EngineHarness.assertJson;
import static io.coordinate.engine.EngineHarness.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.engine.EngineHarness.Attempt;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Conformance scenarios 50–53, workers (docs/architecture.md#conformance-tests). */
class WorkerConformanceTest {

    private final EngineHarness h = new EngineHarness();

    @Test
    @DisplayName("50. Heartbeat parent; child with parent → parent's children = [child], child's parent = parent")
    void scenario50_workerAncestry() {
        h.send("worker_heartbeat", "worker", "parent").ok();
        assertThat(h.workerView("parent").get("parent").isNull()).isTrue();
        assertJson(h.workerView("parent").get("children"), "[]");

        h.send("worker_heartbeat", "worker", "child", "parent", "parent").ok();

        assertThat(h.workerView("parent").get("parent").isNull()).isTrue();
        assertJson(h.workerView("parent").get("children"), "[\"child\"]");
        assertThat(h.workerView("child").get("parent").asText()).isEqualTo("parent");
        assertJson(h.workerView("child").get("children"), "[]");
    }

    @Test
    @DisplayName("51. Child moves from old to new parent: old has no children, new has [child]")
    void scenario51_workerAdoption() {
        h.send("worker_heartbeat", "worker", "old").ok();
        h.send("worker_heartbeat", "worker", "new").ok();
        h.send("worker_heartbeat", "worker", "child", "parent", "old").ok();

        h.send("worker_heartbeat", "worker", "child", "parent", "new").ok();

        assertThat(h.workerView("child").get("parent").asText()).isEqualTo("new");
        assertJson(h.workerView("child").get("children"), "[]");
        assertThat(h.workerView("old").get("parent").isNull()).isTrue();
        assertJson(h.workerView("old").get("children"), "[]");
        assertThat(h.workerView("new").get("parent").isNull()).isTrue();
        assertJson(h.workerView("new").get("children"), "[\"child\"]");
    }

    @Test
    @DisplayName("52. Worker metadata: defaults, heartbeat with data and mode, deactivate, reactivate")
    void scenario52_workerMetadata() {
        h.send("worker_heartbeat", "worker", "w").ok();
        assertJson(
                h.workerView("w"),
                "{\"name\":\"w\",\"parent\":null,\"children\":[],\"active\":true,\"mode\":\"\","
                        + "\"data\":{},\"expiration\":\"2026-11-22T10:15:00.000Z\",\"expired\":false,"
                        + "\"last_update\":\"2026-11-22T10:00:00.000Z\",\"active_attempts\":[],\"attempts\":[],"
                        + "\"child_attempts\":[]}");

        h.advance(Duration.ofMinutes(1));
        h.send("worker_heartbeat", "worker", "w", "data", json("{\"key\":\"value\"}"), "mode", "run", "expire", 600)
                .ok();
        String updated = "{\"name\":\"w\",\"parent\":null,\"children\":[],\"active\":true,\"mode\":\"run\","
                + "\"data\":{\"key\":\"value\"},\"expiration\":\"2026-11-22T10:11:00.000Z\",\"expired\":false,"
                + "\"last_update\":\"2026-11-22T10:01:00.000Z\",\"active_attempts\":[],\"attempts\":[],"
                + "\"child_attempts\":[]}";
        assertJson(h.workerView("w"), updated);

        h.send("deactivate_worker", "worker", "w").ok();
        assertThat(h.workerView("w").get("active").asBoolean()).isFalse();

        h.send("worker_heartbeat", "worker", "w", "data", json("{\"key\":\"value\"}"), "mode", "run", "expire", 600)
                .ok();
        assertJson(h.workerView("w"), updated);

        // only deactivate_worker deactivates: an expired worker is reported as such and stays active
        h.advance(Duration.ofMinutes(30));
        assertThat(h.workerView("w").get("expired").asBoolean()).isTrue();
        assertThat(h.workerView("w").get("active").asBoolean()).isTrue();

        // a worker with a parent can be deactivated too
        h.send("worker_heartbeat", "worker", "child", "parent", "w").ok();
        h.send("deactivate_worker", "worker", "child").ok();
        assertThat(h.workerView("child").get("active").asBoolean()).isFalse();
        assertJson(h.workerView("w").get("children"), "[\"child\"]");
    }

    @Test
    @DisplayName("53. Child finishes one, starts two: child active [two], all {one, two}; parent child attempts [two]")
    void scenario53_workerAttempts() {
        h.setSpec("{\"name\":\"spec\",\"min_gb\":1}");
        h.send("worker_heartbeat", "worker", "parent").ok();
        h.send("worker_heartbeat", "worker", "child", "parent", "parent").ok();
        h.worker("child");

        h.addUnits("spec", "one");
        Attempt one = h.requestOne();
        h.finish(one).ok();
        h.addUnits("spec", "two");
        Attempt two = h.requestOne();
        assertThat(two.unit()).isEqualTo("two");

        assertJson(h.workerView("child").get("active_attempts"), "[\"" + two.id() + "\"]");
        assertJson(h.workerView("child").get("attempts"), "[\"" + one.id() + "\",\"" + two.id() + "\"]");
        assertJson(h.workerView("child").get("child_attempts"), "[]");
        assertJson(h.workerView("parent").get("active_attempts"), "[]");
        assertJson(h.workerView("parent").get("attempts"), "[]");
        assertJson(h.workerView("parent").get("child_attempts"), "[\"" + two.id() + "\"]");
        assertThat(h.attempt(two.id()).get("worker").asText()).isEqualTo("child");
    }
}
