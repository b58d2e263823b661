package io.coordinate.engine.handlers;

import static io.coordinate.engine.EngineHarness.assertJson;
import static io.coordinate.engine.EngineHarness.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.engine.EngineHarness;
import io.coordinate.engine.EngineHarness.Attempt;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code renew_attempt}'s {@code progress} (docs/reference.md#renew_attempt): stored on the attempt, shown, evented. */
class RenewProgressTest {

    private final EngineHarness h = new EngineHarness();
    private Attempt attempt;

    @BeforeEach
    void running() {
        h.setSpec("{\"name\":\"s\"}");
        h.addUnits("s", "a");
        attempt = h.worker("w1").requestOne();
        h.advanceSeconds(3);
        h.clearCaptured();
    }

    private EngineHarness.Reply renew(String progressJson) {
        return h.send("renew_attempt", "attempt_id", attempt.id(), "extend", 60, "progress", json(progressJson));
    }

    @Test
    void progressIsStoredShownAndEvented() {
        JsonNode reply = renew("{\"fraction\":0.25,\"message\":\"a quarter\"}").ok();

        String progress = "{\"fraction\":0.25,\"message\":\"a quarter\",\"time\":\"2026-11-22T10:00:03.000Z\"}";
        assertJson(reply.get("progress"), progress);
        assertJson(h.attempt(attempt).get("progress"), progress);
        assertJson(h.unit("s", "a").get("attempts").get(0).get("progress"), progress);
        assertThat(h.attempt(attempt).get("expiration_time").asText()).isEqualTo("2026-11-22T10:01:03.000Z");
        assertThat(h.eventTypes()).containsExactly("attempt_renewed", "attempt_progress");
        assertJson(
                h.events().get(1),
                "{\"type\":\"attempt_progress\",\"work_spec_name\":\"s\",\"work_unit_name\":\"a\",\"attempt_id\":\""
                        + attempt.id() + "\",\"worker\":\"w1\",\"status\":\"pending\","
                        + "\"expiration_time\":\"2026-11-22T10:01:03.000Z\",\"fraction\":0.25,\"message\":\"a quarter\"}");
    }

    @Test
    void aRenewalWithoutProgressKeepsTheLastAndALaterReportReplacesIt() {
        renew("{\"fraction\":1}").ok();
        h.advanceSeconds(2);
        h.clearCaptured();

        h.renew(attempt, 60, "{}").ok();

        assertThat(h.eventTypes()).containsExactly("attempt_renewed");
        assertJson(
                h.attempt(attempt).get("progress"),
                "{\"fraction\":1,\"message\":null,\"time\":\"2026-11-22T10:00:03.000Z\"}");

        renew("{\"message\":\"almost\"}").ok();
        assertJson(
                h.attempt(attempt).get("progress"),
                "{\"fraction\":null,\"message\":\"almost\",\"time\":\"2026-11-22T10:00:05.000Z\"}");
        assertThat(h.events().get(2).get("fraction").isNull()).isTrue();
        h.finish(attempt).ok();
        assertThat(h.attempt(attempt).get("progress").get("message").asText())
                .as("an ended attempt keeps its last progress")
                .isEqualTo("almost");
    }

    @Test
    void anAttemptWithoutProgressShowsNone() {
        h.renew(attempt, 60, "{}").ok();
        assertThat(h.attempt(attempt).has("progress")).isFalse();
    }

    @Test
    void badProgressIsABadCommandThatChangesNothing() {
        var before = h.snapshot();
        for (String bad : new String[] {
            "[]",
            "{\"fraction\":1.5}",
            "{\"fraction\":-0.1}",
            "{\"fraction\":\"half\"}",
            "{\"message\":3}",
            "{\"message\":\"" + "m".repeat(1001) + "\"}",
            "{\"percent\":50}"
        }) {
            assertThat(renew(bad).errorCode()).as(bad).isEqualTo("bad_command");
        }
        assertThat(h.snapshot()).isEqualTo(before);
        assertThat(renew("{\"message\":\"" + "m".repeat(1000) + "\"}").ok()).isNotNull();
    }
}
