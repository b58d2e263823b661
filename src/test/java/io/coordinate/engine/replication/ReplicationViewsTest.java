package io.coordinate.engine.replication;

import static io.coordinate.engine.EngineHarness.assertJson;
import static io.coordinate.engine.replication.Replicas.finish;
import static io.coordinate.engine.replication.Replicas.take;
import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.engine.EngineHarness;
import org.junit.jupiter.api.Test;

/**
 * What HTTP shows of replication (docs/replication.md#what-you-see): a replicated unit's round with its replicas,
 * canonical one, error mask and needed count; workers' reliability counters. Ordinary units and workers show nothing
 * new.
 */
class ReplicationViewsTest {

    private final EngineHarness h = new EngineHarness();

    @Test
    void aUnitOfAReplicatedSpecShowsItsRoundBeforeAnyReplicaIsOut() {
        h.setSpec("{\"name\":\"s\",\"min_quorum\":2,\"target_nresults\":3}");
        h.addUnits("s", "u");

        assertJson(
                h.unit("s", "u").get("replication"),
                "{\"round\":1,\"min_quorum\":2,\"target_nresults\":3,"
                        + "\"needed\":3,\"error_mask\":0,\"canonical_attempt_id\":null,\"assimilated_at\":null,\"replicas\":[]}");
    }

    @Test
    void aDecidedUnitShowsItsCanonicalReplicaAndWhenItWasAssimilated() {
        h.setSpec("{\"name\":\"s\",\"min_quorum\":2}");
        h.addUnits("s", "u");
        Replicas.workers(h, "w1", "h1", "w2", "h2");
        finish(h, take(h, "w1", "u"), "7").ok();
        h.advanceSeconds(5);
        finish(h, take(h, "w2", "u"), "7").ok();

        assertJson(
                h.unit("s", "u").get("replication"),
                "{\"round\":1,\"min_quorum\":2,\"target_nresults\":2,"
                        + "\"needed\":0,\"error_mask\":0,\"canonical_attempt_id\":\"1\",\"assimilated_at\":\"2026-11-22T10:00:05.000Z\","
                        + "\"replicas\":[{\"attempt_id\":\"1\",\"worker\":\"w1\",\"host\":\"h1\",\"outcome\":\"success\","
                        + "\"validate_state\":\"valid\"},{\"attempt_id\":\"2\",\"worker\":\"w2\",\"host\":\"h2\",\"outcome\":\"success\","
                        + "\"validate_state\":\"valid\"}]}");
        assertJson(h.unitData("s", "u"), "{\"result\":7}");
        assertThat(h.unit("s", "u").get("attempts")).hasSize(2);
        assertJson(
                Replicas.reliability(h, "w1"),
                "{\"consecutive_valid\":1,\"valid\":1,\"invalid\":0,\"errors\":0,\"timeouts\":0}");
    }

    @Test
    void ordinaryUnitsAndWorkersShowNothingNew() {
        h.setSpec("{\"name\":\"plain\"}");
        h.addUnits("plain", "u");
        h.finish(h.worker("w").requestOne()).ok();

        assertThat(h.unit("plain", "u").has("replication")).isFalse();
        assertThat(h.unit("plain", "u").has("purge_at")).isFalse();
        assertThat(h.workerView("w").has("reliability")).isFalse();
        assertThat(h.attempt("1").has("replica")).isFalse();
        assertThat(h.results()).isEmpty();
    }

    @Test
    void handingOutReplicasMovesTheUnitOnlyWhenTheLastNeededOneIsOut() {
        h.setSpec("{\"name\":\"s\",\"min_quorum\":2}");
        h.addUnits("s", "u");
        h.clearCaptured();

        take(h, "w1", "u");
        take(h, "w2", "u");

        assertThat(Replicas.eventLines(h))
                .containsExactly(
                        "worker_updated w1",
                        "attempt_started s/u 1",
                        "worker_updated w2",
                        "attempt_started s/u 2",
                        "unit_status_changed s/u available→pending");
    }
}
