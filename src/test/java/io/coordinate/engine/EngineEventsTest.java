package io.coordinate.engine;

import static io.coordinate.engine.EngineHarness.assertJson;
import static io.coordinate.engine.EngineHarness.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.engine.EngineHarness.Attempt;
import io.coordinate.engine.EngineHarness.Reply;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** One event per state change, in order, batched into one record per command (docs/reference.md#events). */
class EngineEventsTest {

    private final EngineHarness h = new EngineHarness();

    @Test
    void requestToFinishCycleEmitsOneEventPerChange() {
        Reply spec = h.send("set_work_spec", "work_spec", json("{\"name\":\"spec\"}"));
        assertThat(spec.result().events()).hasSize(1);
        assertJson(
                spec.result().events().get(0).value(),
                "{\"namespace\":\"ns\",\"time\":\"2026-11-22T10:00:00.000Z\","
                        + "\"events\":[{\"type\":\"work_spec_set\",\"work_spec_name\":\"spec\",\"created\":true}]}");
        assertThat(spec.result().events().get(0).key()).isEqualTo("ns");

        h.clearCaptured();
        h.addUnits("spec", "a");
        assertJson(
                h.events().get(0),
                "{\"type\":\"unit_added\",\"work_spec_name\":\"spec\",\"work_unit_name\":\"a\","
                        + "\"status\":\"available\",\"priority\":0}");
        assertThat(h.eventTypes()).containsExactly("unit_added");

        h.clearCaptured();
        h.advanceSeconds(1);
        Attempt attempt = h.requestOne();
        assertThat(h.eventTypes()).containsExactly("worker_updated", "attempt_started", "unit_status_changed");
        assertJson(h.events().get(0), "{\"type\":\"worker_updated\",\"worker\":\"worker\",\"active\":true}");
        assertJson(
                h.events().get(1),
                "{\"type\":\"attempt_started\",\"work_spec_name\":\"spec\","
                        + "\"work_unit_name\":\"a\",\"attempt_id\":\"" + attempt.id() + "\",\"worker\":\"worker\","
                        + "\"status\":\"pending\",\"expiration_time\":\"2026-11-22T10:15:01.000Z\"}");
        assertJson(
                h.events().get(2),
                "{\"type\":\"unit_status_changed\",\"previous_status\":\"available\","
                        + "\"work_spec_name\":\"spec\",\"work_unit_name\":\"a\",\"status\":\"pending\",\"priority\":0}");
        assertThat(h.assignments()).hasSize(1);
        assertThat(h.assignments().get(0).key()).isEqualTo("worker");

        h.clearCaptured();
        h.advanceSeconds(1);
        Reply finish = h.finish(attempt, "{\"done\":true}");
        assertThat(h.eventTypes()).containsExactly("attempt_finished", "unit_status_changed");
        assertJson(
                h.events().get(0),
                "{\"type\":\"attempt_finished\",\"work_spec_name\":\"spec\","
                        + "\"work_unit_name\":\"a\",\"attempt_id\":\"" + attempt.id() + "\",\"worker\":\"worker\","
                        + "\"status\":\"finished\"}");
        assertJson(
                h.events().get(1),
                "{\"type\":\"unit_status_changed\",\"previous_status\":\"pending\","
                        + "\"work_spec_name\":\"spec\",\"work_unit_name\":\"a\",\"status\":\"finished\",\"priority\":0}");
        assertThat(finish.result().events()).as("one record for the command").hasSize(1);
        assertThat(finish.result().events().get(0).value().get("time").asText()).isEqualTo("2026-11-22T10:00:02.000Z");
    }

    @Test
    void everyAttemptTransitionHasItsEvent() {
        h.setSpec("{\"name\":\"spec\"}");
        h.addUnits("spec", "a", "b", "c", "d");
        Attempt a = h.requestOne();
        Attempt b = h.requestOne();
        Attempt c = h.requestOne();
        Attempt d = h.requestOne();

        h.clearCaptured();
        h.renew(a, 60, "{}").ok();
        assertThat(h.eventTypes()).containsExactly("attempt_renewed");
        h.clearCaptured();
        h.fail(a).ok();
        assertThat(h.eventTypes()).containsExactly("attempt_failed", "unit_status_changed");
        h.clearCaptured();
        h.retry(b, 30).ok();
        assertThat(h.eventTypes()).containsExactly("attempt_retried", "unit_status_changed");
        assertThat(h.events().get(1).get("status").asText()).isEqualTo("delayed");
        h.clearCaptured();
        h.expire(c).ok();
        assertThat(h.eventTypes()).containsExactly("attempt_expired", "unit_status_changed");
        h.clearCaptured();
        h.expire(c).ok();
        assertThat(h.eventTypes()).as("expiring again changes nothing").isEmpty();

        h.clearCaptured();
        h.advance(Duration.ofMinutes(16));
        h.punctuate();
        assertThat(h.eventTypes())
                .as("time step: d expires, b is released")
                .containsExactly("attempt_expired", "unit_status_changed", "unit_status_changed");
        assertThat(h.events().get(0).get("attempt_id").asText()).isEqualTo(d.id());
        assertJson(
                h.events().get(2),
                "{\"type\":\"unit_status_changed\",\"previous_status\":\"delayed\","
                        + "\"work_spec_name\":\"spec\",\"work_unit_name\":\"b\",\"status\":\"available\",\"priority\":0,"
                        + "\"not_before\":\"2026-11-22T10:00:30.000Z\"}");
        h.clearCaptured();
        h.punctuate();
        assertThat(h.eventTypes()).as("nothing more is due").isEmpty();
    }

    @Test
    void specUnitWorkerAndNamespaceChangesHaveTheirEvents() {
        h.setSpec("{\"name\":\"one\",\"then\":\"two\"}");
        h.setSpec("{\"name\":\"two\"}");
        h.addUnits("one", "a");
        h.clearCaptured();
        h.finish(h.requestOne(), "{\"output\":[\"b\"]}").ok();
        assertThat(h.eventTypes())
                .as("the chained add_work_units is applied after the finish")
                .containsExactly(
                        "worker_updated",
                        "attempt_started",
                        "unit_status_changed",
                        "attempt_finished",
                        "unit_status_changed",
                        "unit_added");
        assertJson(
                h.chainedCommands().get(0),
                "{\"command\":\"add_work_units\",\"namespace\":\"ns\","
                        + "\"work_spec_name\":\"two\",\"work_units\":[{\"name\":\"b\",\"data\":{},\"priority\":0}]}");

        h.clearCaptured();
        h.addUnitsJson("two", "[{\"name\":\"b\",\"data\":{\"v\":1},\"priority\":3}]");
        assertThat(h.eventTypes()).containsExactly("unit_updated");
        h.clearCaptured();
        h.send("prioritize_work_units", "work_spec_name", "two", "query", json("{}"), "priority", 4)
                .ok();
        assertThat(h.eventTypes()).containsExactly("unit_updated");
        h.clearCaptured();
        h.send("delete_work_units", "work_spec_name", "two", "query", json("{}"))
                .ok();
        assertThat(h.eventTypes()).containsExactly("unit_deleted");
        h.clearCaptured();
        h.setSpec("{\"name\":\"two\",\"priority\":1}");
        assertJson(h.events().get(0), "{\"type\":\"work_spec_set\",\"work_spec_name\":\"two\",\"created\":false}");
        h.clearCaptured();
        h.send("delete_work_spec", "work_spec_name", "two").ok();
        assertThat(h.eventTypes()).containsExactly("work_spec_deleted");
        h.clearCaptured();
        h.send("worker_heartbeat", "worker", "child", "parent", "worker").ok();
        assertJson(
                h.events().get(0),
                "{\"type\":\"worker_updated\",\"worker\":\"child\",\"active\":true," + "\"parent\":\"worker\"}");
        h.clearCaptured();
        h.send("deactivate_worker", "worker", "child").ok();
        assertJson(
                h.events().get(0),
                "{\"type\":\"worker_updated\",\"worker\":\"child\",\"active\":false," + "\"parent\":\"worker\"}");
        h.clearCaptured();
        h.send("destroy_namespace").ok();
        assertThat(h.eventTypes()).containsExactly("namespace_destroyed");
    }

    @Test
    void aCommandThatChangesNothingEmitsNoEvent() {
        h.setSpec("{\"name\":\"spec\"}");
        h.clearCaptured();
        h.requestNone();
        assertThat(h.eventTypes()).as("only the new worker").containsExactly("worker_updated");
        h.clearCaptured();
        h.requestNone();
        assertThat(h.eventTypes()).isEmpty();
        h.reset("spec", "{}").ok();
        assertThat(h.eventTypes()).isEmpty();
    }

    @Test
    void aReAddedUnitHasItsEventAndAReplicaRenewalOnlyTheAttempts() {
        h.setSpec("{\"name\":\"spec\"}");
        h.addUnits("spec", "a");
        h.expire(h.requestOne()).ok();
        h.clearCaptured();
        h.addUnitsJson("spec", "[{\"name\":\"a\",\"data\":{\"v\":2}}]");
        assertThat(h.eventTypes())
                .as("new data, and an attempt budget that starts afresh: still available")
                .containsExactly("unit_updated");

        h.setSpec("{\"name\":\"votes\",\"min_quorum\":2,\"target_nresults\":2,\"delay_bound\":60}");
        h.addUnits("votes", "v");
        Attempt replica = h.requestOne();
        h.clearCaptured();
        h.renew(replica, 600, "{}").ok();
        assertThat(h.eventTypes())
                .as("its deadline stays at the delay bound; the unit does not change")
                .containsExactly("attempt_renewed");
    }
}
