package io.coordinate.engine.replication;

import static io.coordinate.engine.EngineHarness.assertJson;
import static io.coordinate.engine.replication.Replicas.finish;
import static io.coordinate.engine.replication.Replicas.replicaLines;
import static io.coordinate.engine.replication.Replicas.take;
import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.engine.EngineHarness;
import io.coordinate.engine.EngineHarness.Attempt;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * How replication combines with the rest (docs/replication.md "With the rest"): {@code then} chaining and children
 * follow the canonical replica; a re-add keeps a round under way; a reset starts a new one; retry, renew,
 * {@code max_running}.
 */
class InteractionsTest {

    private final EngineHarness h = new EngineHarness();

    @BeforeEach
    void workers() {
        Replicas.workers(h, "w1", "h1", "w2", "h2", "w3", "h3");
    }

    @Test
    void thenChainsTheOutputOfTheCanonicalReplicaOnly() {
        h.setSpec("{\"name\":\"s\",\"min_quorum\":2,\"then\":\"next\"}");
        h.setSpec("{\"name\":\"next\"}");
        h.addUnits("s", "u");
        Attempt a1 = take(h, "w1", "u");
        Attempt a2 = take(h, "w2", "u");
        h.finish(a1, "{\"result\":1,\"output\":{\"from-w1\":{\"by\":\"w1\"}}}").ok();
        assertThat(h.chainedCommands()).as("not before the unit is decided").isEmpty();

        h.finish(a2, "{\"result\":1,\"output\":{\"from-w2\":{\"by\":\"w2\"}}}").ok();

        assertThat(h.chainedCommands()).hasSize(1);
        assertThat(h.units("next", "{}")).containsExactly("from-w1");
        assertJson(h.unitData("next", "from-w1"), "{\"by\":\"w1\"}");
    }

    @Test
    void childrenAddedWhileReplicasRunAreReleasedByTheCanonicalResult() {
        h.setSpec("{\"name\":\"s\",\"min_quorum\":2}");
        h.setSpec("{\"name\":\"parts\"}");
        h.addUnits("s", "p");
        Attempt a1 = take(h, "w1", "p");
        Attempt a2 = take(h, "w2", "p");
        String child = "[{\"name\":\"c\",\"parent\":{\"work_spec_name\":\"s\",\"work_unit_name\":\"p\"}}]";
        h.addUnitsJson("parts", child); // each replica's worker adds the same child: the second add replaces it
        h.addUnitsJson("parts", child);
        assertThat(h.status("parts", "c")).isEqualTo("blocked");
        finish(h, a1, "1").ok();
        assertThat(h.status("parts", "c")).isEqualTo("blocked");

        finish(h, a2, "1").ok();

        assertThat(h.status("s", "p")).isEqualTo("waiting");
        assertThat(h.status("parts", "c")).isEqualTo("available");
        assertThat(h.results())
                .as("assimilated when decided, before its children finish")
                .hasSize(1);
        h.finish(h.worker("w3").requestOne("work_specs", List.of("parts"))).ok();
        assertThat(h.status("s", "p")).isEqualTo("finished");
    }

    @Test
    void aFailedRoundLeavesItsChildrenParked() {
        h.setSpec("{\"name\":\"s\",\"min_quorum\":2,\"max_total_results\":2}");
        h.addUnits("s", "p");
        Attempt a1 = take(h, "w1", "p");
        take(h, "w2", "p");
        h.addUnitsJson("s", "[{\"name\":\"c\",\"parent\":{\"work_unit_name\":\"p\"}}]");

        h.fail(a1).ok();

        assertThat(h.status("s", "p")).isEqualTo("failed");
        assertThat(h.status("s", "c")).isEqualTo("blocked");
    }

    @Test
    void aReAddKeepsARoundUnderWayAndLaterReplicasGetTheNewData() {
        h.setSpec("{\"name\":\"s\",\"target_nresults\":3}");
        h.addUnitsJson("s", "[{\"name\":\"u\",\"data\":{\"v\":1}}]");
        Attempt a1 = take(h, "w1", "u");

        h.addUnitsJson("s", "[{\"name\":\"u\",\"data\":{\"v\":2}}]");
        Attempt a2 = take(h, "w2", "u");

        assertJson(a1.assignmentItem().get("data"), "{\"v\":1}");
        assertJson(a2.assignmentItem().get("data"), "{\"v\":2}");
        assertThat(replicaLines(h, "s", "u")).containsExactly("1 w1 h1 running init", "2 w2 h2 running init");
    }

    @Test
    void aReAddOfADecidedUnitStartsTheNextRound() {
        h.setSpec("{\"name\":\"s\",\"min_quorum\":2}");
        h.addUnits("s", "u");
        finish(h, take(h, "w1", "u"), "1").ok();
        finish(h, take(h, "w2", "u"), "1").ok();

        h.addUnits("s", "u");

        assertThat(h.status("s", "u")).isEqualTo("available");
        assertJson(
                Replicas.round(h, "s", "u"),
                "{\"round\":2,\"min_quorum\":2,\"target_nresults\":2,\"needed\":2,"
                        + "\"error_mask\":0,\"canonical_attempt_id\":null,\"assimilated_at\":null,\"replicas\":[]}");
        assertThat(take(h, "w1", "u").id()).isEqualTo("3");
    }

    @Test
    void aRetriedReplicaIsANoReplyAndItsDelayHoldsBackTheNextReplica() {
        h.setSpec("{\"name\":\"s\",\"min_quorum\":2}");
        h.addUnits("s", "u");
        Attempt a1 = take(h, "w1", "u");
        take(h, "w2", "u");

        h.retry(a1, 30).ok();

        assertThat(replicaLines(h, "s", "u")).containsExactly("1 w1 h1 no_reply init", "2 w2 h2 running init");
        assertThat(h.status("s", "u")).isEqualTo("delayed");
        h.worker("w3").requestNone();
        h.advanceSeconds(30);
        assertThat(take(h, "w3", "u").id()).isEqualTo("3");
        assertJson(
                Replicas.reliability(h, "w1"),
                "{\"consecutive_valid\":0,\"valid\":0,\"invalid\":0,\"errors\":0,\"timeouts\":1}");
    }

    @Test
    void aRenewCannotTakeAReplicaPastItsDelayBound() {
        h.setSpec("{\"name\":\"s\",\"min_quorum\":2,\"delay_bound\":100}");
        h.addUnits("s", "u");
        Attempt a1 = take(h, "w1", "u");
        h.advanceSeconds(50);

        assertThat(h.renew(a1, 30, "{\"step\":1}").ok().get("expiration_time").asText())
                .isEqualTo("2026-11-22T10:01:20.000Z");
        assertThat(h.renew(a1, 900, "{\"step\":2}").ok().get("expiration_time").asText())
                .isEqualTo("2026-11-22T10:01:40.000Z");
        h.advanceSeconds(51);
        assertThat(replicaLines(h, "s", "u")).containsExactly("1 w1 h1 no_reply init");
    }

    @Test
    void withoutDelayBoundAReplicaRunsForTheRequestsLifetimeAndCanBeRenewed() {
        h.setSpec("{\"name\":\"s\",\"min_quorum\":2}");
        h.addUnits("s", "u");
        Attempt a1 = h.worker("w1").requestOne("lifetime", 60);
        assertThat(a1.assignmentItem().get("expiration_time").asText()).isEqualTo("2026-11-22T10:01:00.000Z");

        assertThat(h.renew(a1, 600, "{}").ok().get("expiration_time").asText()).isEqualTo("2026-11-22T10:10:00.000Z");
        assertThat(h.attempt(a1).get("active").asBoolean()).isTrue();
    }

    @Test
    void maxRunningCountsTheUnitsWhoseEveryReplicaIsOut() {
        h.setSpec("{\"name\":\"s\",\"min_quorum\":2,\"max_running\":1}");
        h.addUnits("s", "a", "b");
        take(h, "w1", "a");
        take(h, "w2", "a");
        assertJson(h.counts("s"), "{\"available\":1,\"pending\":1}");

        h.worker("w3").requestNone();
    }

    @Test
    void aReplicaCannotBeFinishedOnceItFailed() {
        h.setSpec("{\"name\":\"s\",\"min_quorum\":2}");
        h.addUnits("s", "u");
        Attempt a1 = take(h, "w1", "u");
        h.fail(a1).ok();

        assertThat(h.finish(a1).errorCode()).isEqualTo("not_pending");
    }

    @Test
    void theAttemptViewShowsTheReplica() {
        h.setSpec("{\"name\":\"s\",\"min_quorum\":2}");
        h.addUnits("s", "u");
        Attempt a1 = take(h, "w1", "u");
        Attempt a2 = take(h, "w2", "u");
        finish(h, a1, "1").ok();
        finish(h, a2, "1").ok();

        assertJson(
                h.attempt(a2),
                "{\"attempt_id\":\"2\",\"work_spec_name\":\"s\",\"work_unit_name\":\"u\","
                        + "\"worker\":\"w2\",\"status\":\"finished\",\"data\":{\"result\":1},"
                        + "\"start_time\":\"2026-11-22T10:00:00.000Z\",\"expiration_time\":\"2026-11-22T10:15:00.000Z\","
                        + "\"end_time\":\"2026-11-22T10:00:00.000Z\",\"active\":false,"
                        + "\"replica\":{\"host\":\"h2\",\"outcome\":\"success\",\"validate_state\":\"valid\",\"canonical\":false}}");
        assertThat(h.attempt(a1).get("replica").get("canonical").asBoolean()).isTrue();
    }
}
