package io.coordinate.engine.replication;

import static io.coordinate.engine.EngineHarness.assertJson;
import static io.coordinate.engine.replication.Replicas.eventLines;
import static io.coordinate.engine.replication.Replicas.finish;
import static io.coordinate.engine.replication.Replicas.nothingFor;
import static io.coordinate.engine.replication.Replicas.reliability;
import static io.coordinate.engine.replication.Replicas.replicaLines;
import static io.coordinate.engine.replication.Replicas.round;
import static io.coordinate.engine.replication.Replicas.take;
import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.engine.EngineHarness;
import io.coordinate.engine.EngineHarness.Attempt;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * BOINC's own example of a workunit (docs/replication.md): {@code min_quorum} 2, {@code target_nresults} 3. Two
 * agreeing successes give the canonical result and the third replica is validated when it comes in; a lost replica
 * times out; a replica that errs causes another one; two results that disagree need a third.
 */
class BoincExampleTest {

    private final EngineHarness h = new EngineHarness();

    @BeforeEach
    void setUp() {
        h.setSpec("{\"name\":\"sim\",\"min_quorum\":2,\"target_nresults\":3,\"delay_bound\":600}");
        h.addUnits("sim", "wu1");
        Replicas.workers(h, "w1", "h1", "w2", "h2", "w3", "h3", "w4", "h4", "w5", "h5");
    }

    @Test
    void twoAgreeingSuccessesGiveTheCanonicalResultAndTheThirdIsValidatedLater() {
        Attempt a1 = take(h, "w1", "wu1");
        assertThat(h.status("sim", "wu1")).as("two more replicas needed").isEqualTo("available");
        nothingFor(h, "w1"); // never two replicas on one host
        Attempt a2 = take(h, "w2", "wu1");
        Attempt a3 = take(h, "w3", "wu1");
        assertThat(h.status("sim", "wu1")).as("every needed replica is out").isEqualTo("pending");
        nothingFor(h, "w4");
        assertThat(round(h, "sim", "wu1").get("needed").asInt()).isZero();

        finish(h, a1, "{\"x\":1,\"y\":[1,2.0]}").ok();
        assertThat(h.status("sim", "wu1")).as("one success is below the quorum").isEqualTo("pending");
        assertThat(h.results()).isEmpty();
        h.clearCaptured();

        finish(h, a2, "{\"y\":[1.0,2],\"x\":1.00}").ok(); // the same result as canonical JSON

        assertThat(h.status("sim", "wu1")).isEqualTo("finished");
        assertThat(h.results()).hasSize(1);
        assertJson(
                h.results().get(0),
                "{\"namespace\":\"ns\",\"work_spec_name\":\"sim\",\"work_unit_name\":\"wu1\","
                        + "\"time\":\"2026-11-22T10:00:00.000Z\",\"round\":1,\"canonical_result\":{\"x\":1,\"y\":[1,2.0]},"
                        + "\"canonical_attempt_id\":\"1\",\"error_mask\":0,\"replicas\":["
                        + "{\"attempt_id\":\"1\",\"worker\":\"w1\",\"host\":\"h1\",\"outcome\":\"success\",\"validate_state\":\"valid\"},"
                        + "{\"attempt_id\":\"2\",\"worker\":\"w2\",\"host\":\"h2\",\"outcome\":\"success\",\"validate_state\":\"valid\"},"
                        + "{\"attempt_id\":\"3\",\"worker\":\"w3\",\"host\":\"h3\",\"outcome\":\"didnt_need\","
                        + "\"validate_state\":\"init\"}]}");
        assertThat(eventLines(h))
                .containsExactly(
                        "attempt_finished sim/wu1 2",
                        "replica_updated sim/wu1 1 success valid",
                        "replica_updated sim/wu1 2 success valid",
                        "replica_updated sim/wu1 3 didnt_need init",
                        "unit_status_changed sim/wu1 pending→finished",
                        "unit_assimilated sim/wu1 mask 0",
                        "worker_updated w1",
                        "worker_updated w2");
        assertJson(h.unitData("sim", "wu1"), "{\"result\":{\"x\":1,\"y\":[1,2.0]}}");
        assertThat(h.unit("sim", "wu1").get("active_attempt").asText())
                .as("the canonical replica")
                .isEqualTo("1");
        h.clearCaptured();

        // the third replica still reports: it is validated against the canonical result, and nothing is assimilated
        finish(h, a3, "{\"x\":1,\"y\":[1,2]}").ok();

        assertThat(h.results()).isEmpty();
        assertThat(eventLines(h))
                .containsExactly(
                        "attempt_finished sim/wu1 3", "replica_updated sim/wu1 3 success valid", "worker_updated w3");
        assertThat(replicaLines(h, "sim", "wu1"))
                .containsExactly("1 w1 h1 success valid", "2 w2 h2 success valid", "3 w3 h3 success valid");
        assertJson(
                reliability(h, "w3"),
                "{\"consecutive_valid\":1,\"valid\":1,\"invalid\":0,\"errors\":0,\"timeouts\":0}");
        assertThat(h.status("sim", "wu1")).isEqualTo("finished");
    }

    @Test
    void aLateReplicaThatDisagreesIsInvalid() {
        Attempt a1 = take(h, "w1", "wu1");
        Attempt a2 = take(h, "w2", "wu1");
        Attempt a3 = take(h, "w3", "wu1");
        finish(h, a1, "\"A\"").ok();
        finish(h, a2, "\"A\"").ok();

        finish(h, a3, "\"B\"").ok();

        assertThat(replicaLines(h, "sim", "wu1"))
                .containsExactly("1 w1 h1 success valid", "2 w2 h2 success valid", "3 w3 h3 success invalid");
        assertJson(
                reliability(h, "w3"),
                "{\"consecutive_valid\":0,\"valid\":0,\"invalid\":1,\"errors\":0,\"timeouts\":0}");
        assertThat(h.results()).hasSize(1);
    }

    @Test
    void aLostReplicaTimesOutAndAnErrorCausesAnotherReplica() {
        Attempt a1 = take(h, "w1", "wu1");
        Attempt a2 = take(h, "w2", "wu1");
        Attempt a3 = take(h, "w3", "wu1");
        h.advanceSeconds(100);

        h.fail(a3).ok();

        assertThat(h.status("sim", "wu1")).as("the error needs a replacement").isEqualTo("available");
        assertJson(
                round(h, "sim", "wu1"),
                "{\"round\":1,\"min_quorum\":2,\"target_nresults\":3,\"needed\":1,"
                        + "\"error_mask\":0,\"canonical_attempt_id\":null,\"assimilated_at\":null,\"replicas\":["
                        + "{\"attempt_id\":\"1\",\"worker\":\"w1\",\"host\":\"h1\",\"outcome\":null,\"validate_state\":\"init\"},"
                        + "{\"attempt_id\":\"2\",\"worker\":\"w2\",\"host\":\"h2\",\"outcome\":null,\"validate_state\":\"init\"},"
                        + "{\"attempt_id\":\"3\",\"worker\":\"w3\",\"host\":\"h3\",\"outcome\":\"client_error\","
                        + "\"validate_state\":\"init\"}]}");
        nothingFor(h, "w3");
        Attempt a4 = take(h, "w4", "wu1");
        assertThat(a4.assignmentItem().get("expiration_time").asText())
                .as("delay_bound 600 s after it was sent")
                .isEqualTo("2026-11-22T10:11:40.000Z");
        finish(h, a1, "42").ok();

        // a2's deadline (10:10:00) passes: exact on read before the time step, then applied by it
        h.advanceSeconds(501);
        assertThat(h.status("sim", "wu1")).isEqualTo("available");
        assertThat(replicaLines(h, "sim", "wu1"))
                .containsExactly(
                        "1 w1 h1 success init",
                        "2 w2 h2 no_reply init",
                        "3 w3 h3 client_error init",
                        "4 w4 h4 running init");
        assertJson(h.counts("sim"), "{\"available\":1}");
        h.clearCaptured();
        h.punctuate();
        assertThat(eventLines(h))
                .containsExactly(
                        "attempt_expired sim/wu1 2",
                        "unit_status_changed sim/wu1 pending→available",
                        "replica_updated sim/wu1 2 no_reply init",
                        "worker_updated w2");

        Attempt a5 = take(h, "w5", "wu1");
        assertThat(h.status("sim", "wu1")).isEqualTo("pending");
        finish(h, a4, "42.0").ok();

        assertThat(h.status("sim", "wu1")).isEqualTo("finished");
        assertThat(Replicas.lines(h.results().get(0).get("replicas")))
                .containsExactly(
                        "1 w1 h1 success valid",
                        "2 w2 h2 no_reply init",
                        "3 w3 h3 client_error init",
                        "4 w4 h4 success valid",
                        "5 w5 h5 didnt_need init");
        assertThat(h.results().get(0).get("canonical_result").asInt()).isEqualTo(42);
        assertJson(
                reliability(h, "w2"),
                "{\"consecutive_valid\":0,\"valid\":0,\"invalid\":0,\"errors\":0,\"timeouts\":1}");
        assertJson(
                reliability(h, "w3"),
                "{\"consecutive_valid\":0,\"valid\":0,\"invalid\":0,\"errors\":1,\"timeouts\":0}");
        assertJson(
                reliability(h, "w4"),
                "{\"consecutive_valid\":1,\"valid\":1,\"invalid\":0,\"errors\":0,\"timeouts\":0}");
        assertThat(h.finish(a2).errorCode())
                .as("a timed-out replica cannot report")
                .isEqualTo("not_pending");
    }

    @Test
    void twoResultsThatDisagreeAreInconclusiveUntilAThirdDecides() {
        h.setSpec("{\"name\":\"pair\",\"min_quorum\":2}");
        h.addUnits("pair", "u");
        Attempt a1 = h.worker("w1").requestOne("work_specs", java.util.List.of("pair"));
        Attempt a2 = h.worker("w2").requestOne("work_specs", java.util.List.of("pair"));
        finish(h, a1, "{\"answer\":1}").ok();
        finish(h, a2, "{\"answer\":2}").ok();

        assertThat(h.status("pair", "u")).isEqualTo("available");
        assertThat(replicaLines(h, "pair", "u"))
                .containsExactly("1 w1 h1 success inconclusive", "2 w2 h2 success inconclusive");
        assertThat(round(h, "pair", "u").get("target_nresults").asInt())
                .as("successes + 1")
                .isEqualTo(3);
        assertThat(round(h, "pair", "u").get("needed").asInt()).isEqualTo(1);
        h.worker("w1").requestNone("work_specs", java.util.List.of("pair"));
        Attempt a3 = h.worker("w3").requestOne("work_specs", java.util.List.of("pair"));

        finish(h, a3, "{\"answer\":1}").ok();

        assertThat(h.status("pair", "u")).isEqualTo("finished");
        assertThat(replicaLines(h, "pair", "u"))
                .containsExactly("1 w1 h1 success valid", "2 w2 h2 success invalid", "3 w3 h3 success valid");
        assertJson(h.results().get(0).get("canonical_result"), "{\"answer\":1}");
        assertJson(
                reliability(h, "w2"),
                "{\"consecutive_valid\":0,\"valid\":0,\"invalid\":1,\"errors\":0,\"timeouts\":0}");
    }
}
