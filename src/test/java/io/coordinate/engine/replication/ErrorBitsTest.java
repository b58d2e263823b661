package io.coordinate.engine.replication;

import static io.coordinate.engine.EngineHarness.assertJson;
import static io.coordinate.engine.replication.Replicas.eventLines;
import static io.coordinate.engine.replication.Replicas.finish;
import static io.coordinate.engine.replication.Replicas.replicaLines;
import static io.coordinate.engine.replication.Replicas.take;
import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.engine.EngineHarness;
import io.coordinate.engine.EngineHarness.Attempt;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Each of BOINC's error bits (docs/replication.md#the-transitioner-and-the-validator) fails the unit, which is
 * assimilated with the error mask: 1 couldn't send, 2 too many errors, 4 too many successes without consensus, 8 too
 * many total replicas, 16 cancelled.
 */
class ErrorBitsTest {

    private final EngineHarness h = new EngineHarness();

    @BeforeEach
    void workers() {
        Replicas.workers(h, "w1", "h1", "w2", "h2", "w3", "h3", "w4", "h4");
    }

    @Test
    void bit1_aReplicaThatMaxRetriesDoesNotAllowCouldNotBeSent() {
        h.setSpec("{\"name\":\"s\",\"min_quorum\":2,\"max_retries\":2}");
        h.addUnits("s", "u");
        Attempt a1 = take(h, "w1", "u");
        take(h, "w2", "u");
        h.clearCaptured();

        h.fail(a1).ok();

        assertThat(h.status("s", "u")).isEqualTo("failed");
        assertJson(h.unitData("s", "u"), "{\"traceback\":\"replicas: couldn't send\",\"error_mask\":1}");
        assertThat(replicaLines(h, "s", "u")).containsExactly("1 w1 h1 client_error init", "2 w2 h2 didnt_need init");
        assertThat(h.results()).hasSize(1);
        assertThat(h.results().get(0).get("error_mask").asInt()).isEqualTo(1);
        assertThat(h.results().get(0).has("canonical_result")).isFalse();
        assertThat(eventLines(h))
                .containsExactly(
                        "attempt_failed s/u 1",
                        "replica_updated s/u 1 client_error init",
                        "replica_updated s/u 2 didnt_need init",
                        "unit_status_changed s/u pending→failed",
                        "unit_assimilated s/u mask 1",
                        "worker_updated w1");
    }

    @Test
    void bit1_alsoWhenMaxRetriesIsLoweredWhileTheRoundRuns() {
        h.setSpec("{\"name\":\"s\",\"min_quorum\":2,\"target_nresults\":3}");
        h.addUnits("s", "u");
        take(h, "w1", "u");
        h.setSpecMeta("s", "{\"max_retries\":1}");

        Replicas.nothingFor(h, "w2");

        assertThat(h.status("s", "u")).isEqualTo("failed");
        assertThat(h.results().get(0).get("error_mask").asInt()).isEqualTo(1);
        assertThat(replicaLines(h, "s", "u")).containsExactly("1 w1 h1 didnt_need init");
    }

    @Test
    void bit2_moreFailedAndUnansweredReplicasThanMaxErrorResults() {
        h.setSpec("{\"name\":\"s\",\"min_quorum\":2,\"max_error_results\":1,\"delay_bound\":60}");
        h.addUnits("s", "u");
        Attempt a1 = take(h, "w1", "u");
        Attempt a2 = take(h, "w2", "u");
        h.fail(a1).ok();
        assertThat(h.status("s", "u")).as("one error is allowed").isEqualTo("available");
        take(h, "w3", "u");

        h.advanceSeconds(61);
        assertThat(h.status("s", "u")).as("exact on read: a2 and a3 timed out").isEqualTo("failed");
        h.punctuate();

        assertThat(h.status("s", "u")).isEqualTo("failed");
        assertJson(h.unitData("s", "u"), "{\"traceback\":\"replicas: too many errors\",\"error_mask\":2}");
        assertThat(replicaLines(h, "s", "u"))
                .containsExactly("1 w1 h1 client_error init", "2 w2 h2 no_reply init", "3 w3 h3 didnt_need init");
        assertThat(h.results()).hasSize(1);
        assertThat(h.results().get(0).get("error_mask").asInt()).isEqualTo(2);
        assertThat(h.finish(a2).errorCode()).isEqualTo("not_pending");
    }

    @Test
    void bit4_moreSuccessesThanMaxSuccessResultsWithoutConsensus() {
        h.setSpec("{\"name\":\"s\",\"min_quorum\":2,\"max_success_results\":2}");
        h.addUnits("s", "u");
        finish(h, take(h, "w1", "u"), "1").ok();
        finish(h, take(h, "w2", "u"), "2").ok();
        assertThat(h.status("s", "u")).isEqualTo("available");

        finish(h, take(h, "w3", "u"), "3").ok();

        assertThat(h.status("s", "u")).isEqualTo("failed");
        assertThat(replicaLines(h, "s", "u"))
                .containsExactly("1 w1 h1 success no_check", "2 w2 h2 success no_check", "3 w3 h3 success no_check");
        assertJson(
                h.results().get(0),
                "{\"namespace\":\"ns\",\"work_spec_name\":\"s\",\"work_unit_name\":\"u\","
                        + "\"time\":\"2026-11-22T10:00:00.000Z\",\"round\":1,\"error_mask\":4,\"replicas\":["
                        + "{\"attempt_id\":\"1\",\"worker\":\"w1\",\"host\":\"h1\",\"outcome\":\"success\",\"validate_state\":\"no_check\"},"
                        + "{\"attempt_id\":\"2\",\"worker\":\"w2\",\"host\":\"h2\",\"outcome\":\"success\",\"validate_state\":\"no_check\"},"
                        + "{\"attempt_id\":\"3\",\"worker\":\"w3\",\"host\":\"h3\",\"outcome\":\"success\","
                        + "\"validate_state\":\"no_check\"}]}");
    }

    @Test
    void bit8_moreReplicasThanMaxTotalResultsWouldBeNeeded() {
        h.setSpec("{\"name\":\"s\",\"min_quorum\":2,\"max_total_results\":2}");
        h.addUnits("s", "u");
        Attempt a1 = take(h, "w1", "u");
        take(h, "w2", "u");

        h.fail(a1).ok();

        assertThat(h.status("s", "u")).isEqualTo("failed");
        assertJson(h.unitData("s", "u"), "{\"traceback\":\"replicas: too many total replicas\",\"error_mask\":8}");
        assertThat(h.results().get(0).get("error_mask").asInt()).isEqualTo(8);
        Replicas.nothingFor(h, "w3");
    }

    @Test
    void bit16_cancelWorkUnitsCancelsTheUndecidedReplicatedUnits() {
        h.setSpec("{\"name\":\"s\",\"min_quorum\":2}");
        h.setSpec("{\"name\":\"plain\"}");
        h.addUnits("s", "done", "running", "waiting");
        h.addUnits("plain", "p");
        Attempt d1 = h.worker("w1").requestOne("work_specs", java.util.List.of("s"));
        Attempt d2 = h.worker("w2").requestOne("work_specs", java.util.List.of("s"));
        finish(h, d1, "1").ok();
        finish(h, d2, "1").ok();
        Attempt r1 = h.worker("w3").requestOne("work_specs", java.util.List.of("s"));
        assertThat(r1.unit()).isEqualTo("running");
        h.clearCaptured();

        assertJson(
                h.send("cancel_work_units", "work_spec_name", "s", "query", EngineHarness.json("{}"))
                        .ok(),
                "{\"cancelled\":2}");
        assertJson(h.send("cancel_work_units", "work_spec_name", "plain").ok(), "{\"cancelled\":1}");

        assertThat(h.status("s", "done")).isEqualTo("finished");
        assertThat(h.status("s", "running")).isEqualTo("failed");
        assertThat(h.status("s", "waiting")).isEqualTo("failed");
        assertThat(h.status("plain", "p")).as("an ordinary unit is cancelled").isEqualTo("cancelled");
        assertJson(h.unitData("s", "waiting"), "{\"traceback\":\"replicas: cancelled\",\"error_mask\":16}");
        assertThat(h.results())
                .extracting(r -> r.get("work_unit_name").asText() + " "
                        + r.get("error_mask").asInt() + " " + r.get("replicas").size())
                .containsExactly("running 16 1", "waiting 16 0");
        assertThat(replicaLines(h, "s", "running")).containsExactly("3 w3 h3 didnt_need init");

        // the cancelled replica may still report: there is no canonical result to check it against
        finish(h, r1, "1").ok();
        assertThat(replicaLines(h, "s", "running")).containsExactly("3 w3 h3 success no_check");
        assertThat(h.results()).hasSize(2);
        assertThat(h.send("cancel_work_units", "work_spec_name", "nope").errorCode())
                .isEqualTo("no_such_work_spec");
    }
}
