package io.coordinate.engine.replication;

import static io.coordinate.engine.replication.Replicas.finish;
import static io.coordinate.engine.replication.Replicas.take;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.Engine;
import io.coordinate.engine.EngineHarness;
import io.coordinate.engine.EngineHarness.Attempt;
import io.coordinate.engine.EngineResult;
import io.coordinate.protocol.Command;
import io.coordinate.protocol.Json;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Assimilation is exactly once per round (docs/replication.md#assimilation-exactly-once): the command that decides a
 * unit writes its record, and the state marks the round assimilated in the same command, so a later command — on this
 * engine or on another one over the same store, as after a restart or a rebalance — never writes it again.
 */
class AssimilationTest {

    private final EngineHarness h = new EngineHarness();
    private Attempt late;

    @BeforeEach
    void decideOneUnit() {
        h.setSpec("{\"name\":\"s\",\"min_quorum\":2,\"target_nresults\":3,\"delay_bound\":60}");
        h.addUnits("s", "u");
        Replicas.workers(h, "w1", "h1", "w2", "h2", "w3", "h3");
        Attempt a1 = take(h, "w1", "u");
        Attempt a2 = take(h, "w2", "u");
        late = take(h, "w3", "u");
        finish(h, a1, "\"x\"").ok();
        finish(h, a2, "\"x\"").ok();
        assertThat(h.results()).hasSize(1);
    }

    @Test
    void theDecidingCommandWritesTheRecordAndMarksTheUnit() {
        assertThat(h.reader().units().get("ns", "s", "u").replication().assimilatedAt())
                .isEqualTo(h.now());
        assertThat(Replicas.round(h, "s", "u").get("assimilated_at").asText()).isEqualTo("2026-11-22T10:00:00.000Z");
    }

    @Test
    void laterReportsTimeStepsAndCancelsNeverWriteItAgain() {
        finish(h, late, "\"x\"").ok();
        h.advanceSeconds(3600);
        h.punctuate();
        h.send("cancel_work_units", "work_spec_name", "s").ok();

        assertThat(h.results()).hasSize(1);
    }

    @Test
    void aSecondEngineOnTheSameStoreNeverWritesItAgain() {
        Engine restarted = new Engine(h.store(), new Random(7));

        EngineResult report = restarted.process(
                command("{\"command\":\"finish_attempt\",\"namespace\":\"ns\"," + "\"attempt_id\":\"" + late.id()
                        + "\",\"data\":{\"result\":\"x\"}}"),
                h.now() + 1000);
        EngineResult timeStep = restarted.advanceTime(h.now() + 3_600_000, Engine.TIME_STEP_BATCH);
        EngineResult cancel = restarted.process(
                command("{\"command\":\"cancel_work_units\",\"namespace\":\"ns\",\"work_spec_name\":\"s\"}"),
                h.now() + 2000);

        assertThat(report.rejected()).isFalse();
        assertThat(report.results()).isEmpty();
        assertThat(timeStep.results()).isEmpty();
        assertThat(cancel.results()).isEmpty();
        assertThat(h.unit("s", "u")
                        .get("replication")
                        .get("replicas")
                        .get(2)
                        .get("validate_state")
                        .asText())
                .isEqualTo("valid");
    }

    @Test
    void aRejectedCommandWritesNoRecord() {
        h.setSpec("{\"name\":\"t\",\"min_quorum\":2}");
        h.addUnits("t", "v");
        Attempt t1 = h.worker("w1").requestOne("work_specs", java.util.List.of("t"));
        Attempt t2 = h.worker("w2").requestOne("work_specs", java.util.List.of("t"));
        finish(h, t1, "1").ok();

        // finish_attempts applies its items one by one; a bad item list is refused whole, before anything is applied
        EngineHarness.Reply reply = h.send(
                "finish_attempts",
                "attempts",
                EngineHarness.json("[{\"attempt_id\":\"" + t2.id() + "\",\"data\":{\"result\":1}},{\"data\":{}}]"));

        assertThat(reply.errorCode()).isEqualTo("bad_command");
        assertThat(h.results()).hasSize(1);
        assertThat(h.status("t", "v")).isEqualTo("pending");
    }

    @Test
    void aResetStartsANewRoundThatIsAssimilatedOnceMore() {
        h.reset("s", "{}").ok();
        assertThat(Replicas.round(h, "s", "u").get("round").asInt()).isEqualTo(2);
        assertThat(Replicas.round(h, "s", "u").get("replicas")).isEmpty();
        Attempt b1 = take(h, "w1", "u");
        Attempt b2 = take(h, "w2", "u");
        Attempt b3 = take(h, "w3", "u");
        // the replica of round 1 still running now only changes its own attempt
        h.clearCaptured();
        finish(h, late, "\"x\"").ok();
        assertThat(Replicas.eventLines(h)).containsExactly("attempt_finished s/u " + late.id());

        finish(h, b1, "\"y\"").ok();
        finish(h, b2, "\"y\"").ok();
        finish(h, b3, "\"y\"").ok();

        assertThat(h.results()).hasSize(1);
        ObjectNode second = h.results().get(0);
        assertThat(second.get("round").asInt()).isEqualTo(2);
        assertThat(second.get("canonical_result").asText()).isEqualTo("y");
        assertThat(Replicas.lines(second.get("replicas")))
                .containsExactly("4 w1 h1 success valid", "5 w2 h2 success valid", "6 w3 h3 didnt_need init");
    }

    private static Command command(String json) {
        return Command.of((ObjectNode) Json.parse(json));
    }
}
