package io.coordinate.engine.handlers;

import static io.coordinate.engine.EngineHarness.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.engine.EngineHarness;
import io.coordinate.engine.EngineHarness.Attempt;
import io.coordinate.protocol.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code finish_attempts}: each item as a single {@code finish_attempt}; bad items reported, not fatal. */
class BatchCommandsTest {

    private final EngineHarness engine = new EngineHarness();

    @Test
    void finishesEveryAttemptAndReportsTheOnesThatAreNotPending() {
        engine.setSpec("{\"name\":\"spec\"}");
        engine.addUnits("spec", "a", "b", "c");
        List<Attempt> attempts = engine.request("count", 3);
        engine.fail(attempts.get(2));

        var result = engine.send(
                        "finish_attempts",
                        "attempts",
                        json("[{\"attempt_id\":\"" + attempts.get(0).id() + "\",\"data\":{\"x\":1}},{\"attempt_id\":\""
                                + attempts.get(1).id() + "\"},{\"attempt_id\":\"99\"}]"))
                .ok();

        assertThat(result)
                .isEqualTo(Json.parse("{\"finished\":2,\"errors\":[{\"attempt_id\":\"99\","
                        + "\"code\":\"no_such_attempt\",\"message\":\"no attempt \\\"99\\\"\"}]}"));
        assertThat(engine.status("spec", "a")).isEqualTo("finished");
        assertThat(engine.unitData("spec", "a")).isEqualTo(Json.parse("{\"x\":1}"));
        assertThat(engine.status("spec", "b")).isEqualTo("finished");
        assertThat(engine.status("spec", "c")).isEqualTo("failed");
        EngineHarness.assertJson(engine.counts("spec"), "{\"finished\":2,\"failed\":1}");
    }

    @Test
    void aMalformedItemRejectsTheWholeBatchAndChangesNothing() {
        engine.setSpec("{\"name\":\"spec\"}");
        engine.addUnits("spec", "a");
        Attempt attempt = engine.requestOne();

        var reply = engine.send(
                "finish_attempts", "attempts", json("[{\"attempt_id\":\"" + attempt.id() + "\"},{\"data\":{}}]"));

        assertThat(reply.json().get("error").get("code").asText()).isEqualTo("bad_command");
        assertThat(engine.status("spec", "a")).isEqualTo("pending");
    }
}
