package io.coordinate.engine;

import static io.coordinate.engine.EngineHarness.assertJson;
import static io.coordinate.engine.EngineHarness.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.EngineHarness.Attempt;
import io.coordinate.engine.EngineHarness.Reply;
import io.coordinate.engine.state.model.WorkUnitRecord;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A work spec's retry policy (docs/reference.md#retries): retryable failures and expired leases delay the unit by the
 * backoff until {@code max_attempts}, then fail it; a worker's release does not count; without a policy nothing
 * changes.
 */
class RetryPolicyEngineTest {

    private static final String BACKOFF_1_2 =
            "{\"name\":\"s\",\"retry\":{\"max_attempts\":4,\"backoff\":\"exponential\",\"initial_delay\":1,"
                    + "\"multiplier\":2}}";

    private final EngineHarness h = new EngineHarness();

    private Reply failRetryable(Attempt attempt, String dataJson) {
        return h.send("fail_attempt", "attempt_id", attempt.id(), "retryable", true, "data", json(dataJson));
    }

    private WorkUnitRecord stored(String spec, String unit) {
        return h.reader().units().get(h.namespace(), spec, unit);
    }

    @Test
    void aRetryableFailureDelaysTheUnitByTheBackoff() {
        h.setSpec(BACKOFF_1_2);
        h.addUnits("s", "u");
        Attempt first = h.requestOne();
        h.advanceSeconds(5);
        h.clearCaptured();

        ObjectNode ended = failRetryable(first, "{\"traceback\":\"boom\"}").ok();

        assertThat(ended.get("status").asText()).isEqualTo("retryable");
        assertThat(h.eventTypes()).containsExactly("attempt_failed", "unit_status_changed");
        String retryAt = h.timeIn(Duration.ofSeconds(1));
        assertJson(
                h.events().get(0),
                "{\"type\":\"attempt_failed\",\"work_spec_name\":\"s\",\"work_unit_name\":\"u\",\"attempt_id\":\""
                        + first.id() + "\",\"worker\":\"worker\",\"status\":\"retryable\",\"retryable\":true,"
                        + "\"attempt_count\":1,\"max_attempts\":4,\"retry_at\":\"" + retryAt + "\"}");
        assertJson(
                h.events().get(1),
                "{\"type\":\"unit_status_changed\",\"previous_status\":\"pending\",\"work_spec_name\":\"s\","
                        + "\"work_unit_name\":\"u\",\"status\":\"delayed\",\"priority\":0,\"not_before\":\""
                        + retryAt + "\"}");
        assertJson(h.attempt(first).get("data"), "{\"traceback\":\"boom\"}");
        h.advance(Duration.ofMillis(999));
        h.requestNone();
        h.advance(Duration.ofMillis(1));
        assertThat(h.requestOne().unit()).isEqualTo("u");
    }

    @Test
    void theSecondAndThirdGapsAreOneAndTwoSeconds() {
        h.setSpec(BACKOFF_1_2);
        h.addUnits("s", "u");
        failRetryable(h.requestOne(), "{}").ok();
        h.advance(Duration.ofMillis(999));
        h.requestNone();
        h.advance(Duration.ofMillis(1));
        failRetryable(h.requestOne(), "{}").ok();

        h.advance(Duration.ofMillis(1999));
        h.requestNone();
        h.advance(Duration.ofMillis(1));
        Attempt third = h.requestOne();
        h.finish(third).ok();

        assertThat(h.status("s", "u")).isEqualTo("finished");
        assertThat(h.unit("s", "u").get("attempts")).hasSize(3);
        assertThat(stored("s", "u").attemptCount()).isEqualTo(3);
    }

    @Test
    void theUnitFailsAfterExactlyMaxAttemptsWithAnEvent() {
        h.setSpec("{\"name\":\"s\",\"retry\":{\"max_attempts\":3,\"initial_delay\":0}}");
        h.addUnits("s", "u");
        for (int i = 0; i < 2; i++) {
            Attempt attempt = h.requestOne();
            h.clearCaptured();
            failRetryable(attempt, "{\"traceback\":\"try " + i + "\"}").ok();
            assertThat(h.events().get(1).get("status").asText())
                    .as("due now: available at once")
                    .isEqualTo("available");
        }
        Attempt last = h.requestOne();
        h.clearCaptured();

        ObjectNode ended = failRetryable(last, "{\"traceback\":\"try 2\"}").ok();

        assertThat(ended.get("status").asText()).isEqualTo("failed");
        assertThat(h.eventTypes()).containsExactly("attempt_failed", "unit_status_changed", "unit_retries_exhausted");
        assertJson(
                h.events().get(0),
                "{\"type\":\"attempt_failed\",\"work_spec_name\":\"s\",\"work_unit_name\":\"u\",\"attempt_id\":\""
                        + last.id() + "\",\"worker\":\"worker\",\"status\":\"failed\",\"retryable\":true,"
                        + "\"attempt_count\":3,\"max_attempts\":3}");
        assertThat(h.events().get(1).get("status").asText()).isEqualTo("failed");
        assertJson(
                h.events().get(2),
                "{\"type\":\"unit_retries_exhausted\",\"work_spec_name\":\"s\",\"work_unit_name\":\"u\","
                        + "\"attempt_id\":\"" + last.id() + "\",\"attempt_count\":3,\"max_attempts\":3}");
        assertThat(h.status("s", "u")).isEqualTo("failed");
        assertJson(h.unitData("s", "u"), "{\"traceback\":\"try 2\"}");
        h.requestNone();
    }

    @Test
    void aFailureWithoutRetryableIsPermanentUnderAPolicy() {
        h.setSpec(BACKOFF_1_2);
        h.addUnits("s", "u");
        Attempt attempt = h.requestOne();
        h.clearCaptured();

        h.fail(attempt).ok();

        assertThat(h.eventTypes()).containsExactly("attempt_failed", "unit_status_changed");
        assertThat(h.events().get(0).has("retryable")).isFalse();
        assertThat(h.status("s", "u")).isEqualTo("failed");
    }

    @Test
    void anExpiredLeaseUnderAPolicyWaitsForTheBackoff() {
        h.setSpec("{\"name\":\"s\",\"retry\":{\"backoff\":\"fixed\",\"initial_delay\":10}}");
        h.addUnits("s", "u", "v");
        Attempt byTimeStep = h.requestOne("lifetime", 60);
        Attempt byCommand = h.requestOne();
        h.advanceSeconds(61);
        h.clearCaptured();

        h.punctuate();

        assertThat(h.eventTypes()).containsExactly("attempt_expired", "unit_status_changed");
        String retryAt = h.timeIn(Duration.ofSeconds(10));
        assertJson(
                h.events().get(0),
                "{\"type\":\"attempt_expired\",\"work_spec_name\":\"s\",\"work_unit_name\":\"u\",\"attempt_id\":\""
                        + byTimeStep.id() + "\",\"worker\":\"worker\",\"status\":\"expired\","
                        + "\"attempt_count\":1,\"max_attempts\":25,\"retry_at\":\"" + retryAt + "\"}");
        assertThat(h.events().get(1).get("status").asText()).isEqualTo("delayed");
        assertThat(stored("s", "u").notBefore()).isEqualTo(h.now() + 10_000);

        h.expire(byCommand).ok();
        assertThat(stored("s", "v").notBefore()).isEqualTo(h.now() + 10_000);
        assertThat(h.status("s", "v")).isEqualTo("delayed");
        h.advance(Duration.ofMillis(9_999));
        h.requestNone();
        h.advance(Duration.ofMillis(1));
        assertThat(h.request("count", 2)).extracting(Attempt::unit).containsExactly("u", "v");
    }

    @Test
    void anExpiryThatExhaustsThePolicyFailsTheUnit() {
        h.setSpec("{\"name\":\"s\",\"retry\":{\"max_attempts\":1}}");
        h.addUnits("s", "u");
        Attempt attempt = h.requestOne("lifetime", 60);
        h.advanceSeconds(61);
        h.clearCaptured();

        h.punctuate();

        assertThat(h.eventTypes()).containsExactly("attempt_expired", "unit_status_changed", "unit_retries_exhausted");
        assertThat(h.events().get(0).get("attempt_count").asInt()).isEqualTo(1);
        assertThat(h.events().get(0).has("retry_at")).isFalse();
        assertThat(h.attempt(attempt).get("status").asText()).isEqualTo("expired");
        assertThat(h.status("s", "u")).isEqualTo("failed");
    }

    @Test
    void aReleaseGivesTheAttemptBackToThePolicy() {
        h.setSpec("{\"name\":\"s\",\"retry\":{\"max_attempts\":2,\"initial_delay\":0}}");
        h.addUnits("s", "u");
        Attempt released = h.requestOne();

        h.send("retry_attempt", "attempt_id", released.id(), "release", true).ok();

        assertThat(h.attempt(released).get("status").asText()).isEqualTo("retryable");
        assertThat(stored("s", "u").attemptCount()).isEqualTo(0);
        failRetryable(h.requestOne(), "{}").ok();
        assertThat(h.status("s", "u")).as("1 of 2 attempts counted: retried").isEqualTo("available");
        assertThat(stored("s", "u").attemptCount()).isEqualTo(1);
    }

    @Test
    void aReleaseDoesNotCountForMaxRetries() {
        h.setSpec("{\"name\":\"m\",\"max_retries\":1}");
        h.addUnits("m", "u");
        Attempt released = h.requestOne();

        h.send("retry_attempt", "attempt_id", released.id(), "release", true, "delay", 5)
                .ok();

        assertThat(h.status("m", "u")).isEqualTo("delayed");
        h.advanceSeconds(5);
        assertThat(h.requestOne().unit()).isEqualTo("u");
        assertThat(h.status("m", "u")).isEqualTo("pending");
    }

    @Test
    void withoutAPolicyRetryableChangesNothing() {
        EngineHarness plain = new EngineHarness();
        for (EngineHarness run : List.of(h, plain)) {
            run.setSpec("{\"name\":\"s\",\"max_retries\":3}");
            run.addUnits("s", "a", "b");
            Attempt a = run.requestOne();
            run.requestOne("lifetime", 10);
            run.advanceSeconds(1);
            if (run == h) {
                run.send("fail_attempt", "attempt_id", a.id(), "retryable", true)
                        .ok();
            } else {
                run.send("fail_attempt", "attempt_id", a.id()).ok();
            }
            run.advanceSeconds(20);
            run.punctuate();
        }

        assertThat(h.events()).isEqualTo(plain.events());
        assertThat(h.stateSnapshot()).isEqualTo(plain.stateSnapshot());
        assertThat(h.status("s", "a")).isEqualTo("failed");
        assertThat(h.status("s", "b")).isEqualTo("available");
        assertThat(h.meta("s").has("retry")).isFalse();
    }

    @Test
    void jitterShortensTheDelayByTheUnitsOwnHashedFraction() {
        EngineHarness again = new EngineHarness();
        for (EngineHarness run : List.of(h, again)) {
            run.setSpec("{\"name\":\"s\",\"retry\":{\"initial_delay\":1,\"jitter\":0.5}}");
            run.addUnits("s", "u");
            Attempt attempt = run.requestOne();
            run.send("fail_attempt", "attempt_id", attempt.id(), "retryable", true)
                    .ok();
        }

        // 1 s × (1 - 0.5 × u), u the hash's fraction for ("ns", "s", "u", 1): RetryPolicyTest pins it
        assertThat(stored("s", "u").notBefore()).isEqualTo(h.now() + 528);
        assertThat(again.reader().units().get("ns", "s", "u").notBefore()).isEqualTo(h.now() + 528);
    }

    @Test
    void maxPerMinuteSpacesTheSpecsRetries() {
        h.setSpec("{\"name\":\"s\",\"retry\":{\"backoff\":\"fixed\",\"initial_delay\":1,\"max_per_minute\":2}}");
        h.addUnits("s", "a", "b", "c");
        List<Attempt> attempts = h.request("count", 3);
        long start = h.now();

        attempts.forEach(attempt -> failRetryable(attempt, "{}").ok());

        assertThat(stored("s", "a").notBefore()).isEqualTo(start + 1_000);
        assertThat(stored("s", "b").notBefore()).isEqualTo(start + 31_000);
        assertThat(stored("s", "c").notBefore()).isEqualTo(start + 61_000);
        assertThat(h.reader().specs().nextRetrySlot("ns", "s")).isEqualTo(start + 91_000);

        h.advanceSeconds(200); // a slot long past: the retry's own delay decides
        failRetryable(h.requestOne(), "{}").ok();
        assertThat(stored("s", "a").notBefore()).isEqualTo(h.now() + 1_000);

        h.send("delete_work_spec", "work_spec_name", "s").ok();
        assertThat(h.reader().specs().nextRetrySlot("ns", "s")).isEqualTo(0);
    }

    @Test
    void theSpecShowsItsPolicyWithTheDefaultsFilledIn() {
        h.setSpec("{\"name\":\"s\",\"retry\":{\"max_attempts\":4}}");
        h.setSpecMeta("s", "{\"priority\":3}");

        assertJson(
                h.meta("s").get("retry"),
                "{\"max_attempts\":4,\"backoff\":\"exponential\",\"initial_delay\":1,\"multiplier\":2,"
                        + "\"max_delay\":3600,\"jitter\":0,\"max_per_minute\":0}");
        h.setSpec("{\"name\":\"s\",\"retry\":null}");
        assertThat(h.meta("s").has("retry")).isFalse();
    }

    @Test
    void badRetrySettingsAreRefusedNamingTheKey() {
        assertThat(error("\"retry\":3")).isEqualTo("work spec key \"retry\" must be an object");
        assertThat(error("\"retry\":{\"backoff\":\"linear\"}"))
                .isEqualTo("work spec key \"retry.backoff\" must be \"exponential\" or \"fixed\"");
        assertThat(error("\"retry\":{\"max_attempts\":0}"))
                .startsWith("work spec key \"retry.max_attempts\" must be a whole number");
        assertThat(error("\"retry\":{\"max_attempts\":2.5}"))
                .startsWith("work spec key \"retry.max_attempts\" must be a whole number");
        assertThat(error("\"retry\":{\"jitter\":2}"))
                .isEqualTo("work spec key \"retry.jitter\" must be a number from 0 to 1, but it is 2");
        assertThat(error("\"retry\":{\"multiplier\":0.5}"))
                .startsWith("work spec key \"retry.multiplier\" must be a number from 1 to ");
        assertThat(error("\"retry\":{\"initial_delay\":-1}"))
                .startsWith("work spec key \"retry.initial_delay\" must be a number from 0 to ");
        assertThat(error("\"retry\":{\"max_atempts\":3}"))
                .isEqualTo("work spec key \"retry.max_atempts\" is not a retry setting");
        Attempt attempt = setUpAttempt();
        Reply reply = h.send("fail_attempt", "attempt_id", attempt.id(), "retryable", "yes");
        assertThat(reply.errorCode()).isEqualTo("bad_command");
        assertThat(h.status("s", "u")).isEqualTo("pending");
    }

    private Attempt setUpAttempt() {
        h.setSpec(BACKOFF_1_2);
        h.addUnits("s", "u");
        return h.requestOne();
    }

    private String error(String retryJson) {
        Reply reply = h.send("set_work_spec", "work_spec", json("{\"name\":\"bad\"," + retryJson + "}"));
        assertThat(reply.errorCode()).isEqualTo("bad_command");
        return reply.json().get("error").get("message").asText();
    }
}
