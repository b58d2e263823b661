package io.coordinate.engine.replication;

import static io.coordinate.engine.EngineHarness.assertJson;
import static io.coordinate.engine.replication.Replicas.eventLines;
import static io.coordinate.engine.replication.Replicas.finish;
import static io.coordinate.engine.replication.Replicas.take;
import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.engine.EngineHarness;
import io.coordinate.engine.EngineHarness.Attempt;
import org.junit.jupiter.api.Test;

/**
 * {@code retention} (docs/replication.md#retention): a finished or failed unit is purged with its attempts (replicas)
 * once {@code retention} seconds have passed since it settled — for a replicated unit, since its assimilation — by the
 * time step, from a time index; a {@code unit_deleted} event says so.
 */
class RetentionTest {

    private final EngineHarness h = new EngineHarness();

    @Test
    void anAssimilatedUnitAndItsReplicasArePurgedAfterRetention() {
        h.setSpec("{\"name\":\"s\",\"min_quorum\":2,\"target_nresults\":3,\"retention\":60}");
        h.addUnits("s", "u");
        Replicas.workers(h, "w1", "h1", "w2", "h2", "w3", "h3");
        Attempt a1 = take(h, "w1", "u");
        Attempt a2 = take(h, "w2", "u");
        Attempt a3 = take(h, "w3", "u");
        h.advanceSeconds(10);
        finish(h, a1, "1").ok();
        finish(h, a2, "1").ok();
        assertThat(h.unit("s", "u").get("purge_at").asText()).isEqualTo("2026-11-22T10:01:10.000Z");

        h.advanceSeconds(59);
        h.punctuate();
        assertThat(h.unit("s", "u")).as("a second before its purge time").isNotNull();
        h.advanceSeconds(1);
        h.clearCaptured();
        h.punctuate();

        assertThat(h.unit("s", "u")).isNull();
        assertThat(eventLines(h)).containsExactly("unit_deleted s/u");
        assertThat(h.attempt(a1.id())).isNull();
        assertThat(h.finish(a3).errorCode())
                .as("a replica of a purged unit is gone")
                .isEqualTo("no_such_attempt");
        assertThat(h.results()).isEmpty();
        assertJson(h.counts("s"), "{}");
        assertThat(h.reader().timeIndexes().duePurges(Long.MAX_VALUE - 1, 10)).isEmpty();
    }

    @Test
    void ordinaryFinishedAndFailedUnitsOfASpecWithRetentionArePurgedToo() {
        h.setSpec("{\"name\":\"keep\"}");
        h.setSpec("{\"name\":\"s\",\"retention\":30}");
        h.addUnits("s", "done", "broken", "again");
        h.addUnits("keep", "k");
        h.finish(h.requestOne("work_specs", java.util.List.of("s"))).ok();
        h.fail(h.requestOne("work_specs", java.util.List.of("s"))).ok();
        h.finish(h.requestOne("work_specs", java.util.List.of("s"))).ok();
        h.finish(h.requestOne("work_specs", java.util.List.of("keep"))).ok();
        h.advanceSeconds(20);
        h.addUnits("s", "again"); // added again: available, no longer to purge

        h.advanceSeconds(11);
        h.clearCaptured();
        h.punctuate();

        assertThat(eventLines(h)).containsExactly("unit_deleted s/broken", "unit_deleted s/done");
        assertThat(h.units("s", "{}")).containsExactly("again");
        assertThat(h.status("keep", "k")).isEqualTo("finished");
        assertThat(h.unit("keep", "k").has("purge_at")).isFalse();
    }

    @Test
    void aPurgeIsDueByTheNextCommandAsWellAsByThePunctuator() {
        h.setSpec("{\"name\":\"s\",\"retention\":0}");
        h.addUnits("s", "u");
        h.finish(h.requestOne()).ok();
        h.advance(java.time.Duration.ofMillis(1));

        h.send("add_work_units", "work_spec_name", "s", "work_units", EngineHarness.json("[{\"name\":\"v\"}]"))
                .ok();

        assertThat(h.units("s", "{}")).containsExactly("v");
    }
}
