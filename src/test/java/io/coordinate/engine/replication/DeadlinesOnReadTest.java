package io.coordinate.engine.replication;

import static io.coordinate.engine.EngineHarness.assertJson;
import static io.coordinate.engine.replication.Replicas.replicaLines;
import static io.coordinate.engine.replication.Replicas.round;
import static io.coordinate.engine.replication.Replicas.take;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.EngineHarness;
import io.coordinate.engine.EngineHarness.Attempt;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Deadlines that passed since the last time step (docs/replication.md, "Deadlines"): a read shows the unit as the
 * time step will leave it, and the time step takes the deadlines one at a time, in the order they passed, with a
 * pass of the transitioner after each. A replica still running when an earlier deadline decided the round is
 * {@code didnt_need}, whether or not its own deadline has passed by the time anyone looks.
 */
class DeadlinesOnReadTest {

    /** min_quorum 2 (target 2), at most 1 error, at most 2 replicas: a round that cannot lose a replica. */
    private static final String SPEC =
            "{\"name\":\"s\",\"min_quorum\":2,\"max_error_results\":1," + "\"max_total_results\":2,\"delay_bound\":1}";

    private final EngineHarness h = new EngineHarness();

    @BeforeEach
    void twoHosts() {
        Replicas.workers(h, "w1", "h1", "w2", "h2");
    }

    @Test
    void aReadAfterTwoDeadlinesShowsTheRoundTheTimeStepStores() {
        h.setSpec(SPEC);
        h.addUnits("s", "u");
        take(h, "w1", "u");
        h.advance(Duration.ofMillis(500));
        take(h, "w2", "u");
        h.advanceSeconds(2); // both deadlines (10:00:01 and 10:00:01.5) have passed; no time step since

        ObjectNode read = h.unit("s", "u");
        h.punctuate();
        ObjectNode stored = h.unit("s", "u");

        // the first deadline leaves a round that needs a third replica, more than max_total_results: bit 8, decided,
        // and the second replica, still running then, was not needed
        String round = "{\"round\":1,\"min_quorum\":2,\"target_nresults\":2,\"needed\":0,\"error_mask\":8,"
                + "\"canonical_attempt_id\":null,\"assimilated_at\":%s,\"replicas\":["
                + "{\"attempt_id\":\"1\",\"worker\":\"w1\",\"host\":\"h1\",\"outcome\":\"no_reply\",\"validate_state\":\"init\"},"
                + "{\"attempt_id\":\"2\",\"worker\":\"w2\",\"host\":\"h2\",\"outcome\":\"didnt_need\",\"validate_state\":\"init\"}]}";
        assertThat(read.get("status").asText()).isEqualTo("failed");
        assertJson(read.get("data"), "{\"traceback\":\"replicas: too many total replicas\",\"error_mask\":8}");
        assertJson(read.get("replication"), String.format(round, "null"));
        assertThat(stored.get("status").asText()).isEqualTo("failed");
        assertJson(stored.get("data"), "{\"traceback\":\"replicas: too many total replicas\",\"error_mask\":8}");
        assertJson(stored.get("replication"), String.format(round, "\"2026-11-22T10:00:02.500Z\""));
        assertThat(h.results()).hasSize(1);
        assertThat(h.results().get(0).get("error_mask").asInt()).isEqualTo(8);
        assertThat(Replicas.lines(h.results().get(0).get("replicas")))
                .containsExactly("1 w1 h1 no_reply init", "2 w2 h2 didnt_need init");
        assertJson(h.counts("s"), "{\"failed\":1}");
    }

    @Test
    void deadlinesAtTheSameTimeGoInTheOrderTheReplicasWereHandedOut() {
        h.setSpec(SPEC);
        h.addUnits("s", "u");
        take(h, "w1", "u");
        take(h, "w2", "u");
        h.advanceSeconds(2);

        assertThat(replicaLines(h, "s", "u")).containsExactly("1 w1 h1 no_reply init", "2 w2 h2 didnt_need init");
        h.punctuate();
        assertThat(replicaLines(h, "s", "u")).containsExactly("1 w1 h1 no_reply init", "2 w2 h2 didnt_need init");
        assertThat(h.results().get(0).get("error_mask").asInt()).isEqualTo(8);
    }

    @Test
    void aRenewedReplicaTimesOutInTheOrderOfItsDeadlineNotOfItsId() {
        h.setSpec(SPEC.replace("\"delay_bound\":1", "\"delay_bound\":10"));
        h.addUnits("s", "u");
        take(h, "w1", "u");
        Attempt a2 = take(h, "w2", "u");
        h.renew(a2, 1, "{}").ok(); // its deadline is now 10:00:01, the first's 10:00:10
        h.advanceSeconds(11);

        assertThat(replicaLines(h, "s", "u")).containsExactly("1 w1 h1 didnt_need init", "2 w2 h2 no_reply init");
        assertThat(round(h, "s", "u").get("error_mask").asInt()).isEqualTo(8);
        h.punctuate();
        assertThat(replicaLines(h, "s", "u")).containsExactly("1 w1 h1 didnt_need init", "2 w2 h2 no_reply init");
        assertThat(round(h, "s", "u").get("error_mask").asInt()).isEqualTo(8);
    }

    @Test
    void aReadAfterOneOfTwoDeadlinesShowsTheSecondStillRunningUntilTheRoundIsDecided() {
        // with room for a third replica, the first deadline only asks for one more; the second then fails the round
        h.setSpec(SPEC.replace("\"max_total_results\":2", "\"max_total_results\":3"));
        h.addUnits("s", "u");
        take(h, "w1", "u");
        h.advance(Duration.ofMillis(500));
        take(h, "w2", "u");
        h.advance(Duration.ofMillis(700)); // only the first deadline (10:00:01) has passed

        assertThat(h.status("s", "u")).isEqualTo("available");
        assertThat(replicaLines(h, "s", "u")).containsExactly("1 w1 h1 no_reply init", "2 w2 h2 running init");
        h.advanceSeconds(1); // the second (10:00:01.5) too

        assertThat(h.status("s", "u")).isEqualTo("failed");
        assertThat(replicaLines(h, "s", "u")).containsExactly("1 w1 h1 no_reply init", "2 w2 h2 no_reply init");
        assertThat(round(h, "s", "u").get("error_mask").asInt()).isEqualTo(2);
        h.punctuate();
        assertThat(h.status("s", "u")).isEqualTo("failed");
        assertThat(replicaLines(h, "s", "u")).containsExactly("1 w1 h1 no_reply init", "2 w2 h2 no_reply init");
        assertThat(h.results().get(0).get("error_mask").asInt()).isEqualTo(2);
    }
}
