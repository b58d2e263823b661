package io.coordinate.engine;

import static io.coordinate.engine.EngineHarness.assertJson;
import static io.coordinate.engine.EngineHarness.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.engine.EngineHarness.Attempt;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Conformance scenarios 36–49, attempts (docs/architecture.md#conformance-tests). */
class AttemptConformanceTest {

    private final EngineHarness h = new EngineHarness();

    @Test
    @DisplayName("36. Attempt lifetime: pending, finished (still active), reset keeps the history")
    void scenario36_attemptLifetime() {
        h.setSpec("{\"name\":\"spec\",\"min_gb\":1}");
        h.addUnits("spec", "a");
        assertThat(h.status("spec", "a")).isEqualTo("available");
        assertJson(h.unitData("spec", "a"), "{}");

        Attempt attempt = h.requestOne();
        assertThat(h.status("spec", "a")).isEqualTo("pending");
        assertThat(h.attempt(attempt).get("status").asText()).isEqualTo("pending");
        assertThat(h.unit("spec", "a").get("active_attempt").asText()).isEqualTo(attempt.id());
        assertJson(h.workerView("worker").get("active_attempts"), "[\"" + attempt.id() + "\"]");
        assertJson(h.unitData("spec", "a"), "{}");

        h.finish(attempt, "{\"outputs\":[\"yes\"]}").ok();
        assertThat(h.status("spec", "a")).isEqualTo("finished");
        assertThat(h.attempt(attempt).get("status").asText()).isEqualTo("finished");
        assertThat(h.attempt(attempt).get("active").asBoolean()).isTrue();
        assertThat(h.unit("spec", "a").get("active_attempt").asText()).isEqualTo(attempt.id());
        assertJson(h.workerView("worker").get("active_attempts"), "[]");
        assertThat(h.unit("spec", "a").get("attempts")).hasSize(1);
        assertJson(h.workerView("worker").get("attempts"), "[\"" + attempt.id() + "\"]");
        assertJson(h.unitData("spec", "a"), "{\"outputs\":[\"yes\"]}");

        assertJson(h.reset("spec", "{}").ok(), "{\"reset\":1}");
        assertThat(h.status("spec", "a")).isEqualTo("available");
        assertJson(h.unitData("spec", "a"), "{}");
        assertThat(h.unit("spec", "a").get("active_attempt").isNull()).isTrue();
        assertThat(h.unit("spec", "a").get("attempts")).hasSize(1);
        assertJson(h.workerView("worker").get("attempts"), "[\"" + attempt.id() + "\"]");
    }

    @Test
    @DisplayName("37. Attempt metadata: start, data, expiration (default or requested lifetime), renew, finish")
    void scenario37_attemptMetadata() {
        h.setSpec("{\"name\":\"spec\",\"min_gb\":1}");
        h.addUnitsJson("spec", "[{\"name\":\"unit\",\"data\":{\"from\":\"wu\"}}]");

        Attempt attempt = h.requestOne();
        assertJson(
                h.attempt(attempt),
                "{\"attempt_id\":\"1\",\"work_spec_name\":\"spec\",\"work_unit_name\":\"unit\","
                        + "\"worker\":\"worker\",\"status\":\"pending\",\"data\":{\"from\":\"wu\"},"
                        + "\"start_time\":\"2026-11-22T10:00:00.000Z\",\"expiration_time\":\"2026-11-22T10:15:00.000Z\","
                        + "\"end_time\":null,\"active\":true}");
        assertJson(
                attempt.assignmentItem(),
                "{\"attempt_id\":\"1\",\"work_spec_name\":\"spec\","
                        + "\"work_unit_name\":\"unit\",\"data\":{\"from\":\"wu\"},\"start_time\":\"2026-11-22T10:00:00.000Z\","
                        + "\"expiration_time\":\"2026-11-22T10:15:00.000Z\"}");

        h.advanceSeconds(10);
        h.renew(attempt, 300, "{\"from\":\"renew\"}").ok();
        assertJson(
                h.attempt(attempt),
                "{\"attempt_id\":\"1\",\"work_spec_name\":\"spec\",\"work_unit_name\":\"unit\","
                        + "\"worker\":\"worker\",\"status\":\"pending\",\"data\":{\"from\":\"renew\"},"
                        + "\"start_time\":\"2026-11-22T10:00:00.000Z\",\"expiration_time\":\"2026-11-22T10:05:10.000Z\","
                        + "\"end_time\":null,\"active\":true}");

        h.finish(attempt, "{\"from\":\"finish\"}").ok();
        assertJson(
                h.attempt(attempt),
                "{\"attempt_id\":\"1\",\"work_spec_name\":\"spec\",\"work_unit_name\":\"unit\","
                        + "\"worker\":\"worker\",\"status\":\"finished\",\"data\":{\"from\":\"finish\"},"
                        + "\"start_time\":\"2026-11-22T10:00:00.000Z\",\"expiration_time\":\"2026-11-22T10:05:10.000Z\","
                        + "\"end_time\":\"2026-11-22T10:00:10.000Z\",\"active\":true}");

        // the requested lifetime replaces the default one
        h.addUnits("spec", "other");
        Attempt shortLived = h.requestOne("lifetime", 60);
        assertThat(h.attempt(shortLived).get("start_time").asText()).isEqualTo("2026-11-22T10:00:10.000Z");
        assertThat(h.attempt(shortLived).get("expiration_time").asText()).isEqualTo("2026-11-22T10:01:10.000Z");
    }

    @Test
    @DisplayName("38. Chaining to a paused spec: no output → nothing; object; list of names; output from unit data")
    void scenario38_workUnitChaining() {
        h.setSpec("{\"name\":\"one\",\"then\":\"two\"}");
        h.setSpec("{\"name\":\"two\",\"disabled\":true}");
        h.addUnits("one", "a", "b", "c");
        h.addUnitsJson("one", "[{\"name\":\"d\",\"data\":{\"output\":[\"two_d\"]}}]");

        finishNext("a", null);
        assertThat(h.units("two", "{}")).isEmpty();

        finishNext("b", "{\"output\":{\"two_b\":{\"k\":\"v\"}}}");
        assertThat(h.units("two", "{}")).containsExactly("two_b");
        assertJson(h.unitData("two", "two_b"), "{\"k\":\"v\"}");

        finishNext("c", "{\"output\":[\"two_c\",\"two_cc\"]}");
        assertThat(h.units("two", "{}")).containsExactly("two_b", "two_c", "two_cc");
        assertJson(h.unitData("two", "two_c"), "{}");
        assertJson(h.unitData("two", "two_cc"), "{}");

        finishNext("d", null);
        assertThat(h.units("two", "{}")).containsExactly("two_b", "two_c", "two_cc", "two_d");
        assertThat(h.chainedRejections()).isEmpty();
    }

    /** Requests the next attempt, which must be at {@code unit}, and finishes it with {@code data}. */
    private void finishNext(String unit, String data) {
        Attempt attempt = h.requestOne();
        assertThat(attempt.unit()).isEqualTo(unit);
        (data == null ? h.finish(attempt) : h.finish(attempt, data)).ok();
    }

    @Test
    @DisplayName("39. Output [\"key\", [\"key\", {\"data\":\"x\"}, {\"priority\":10}]] → later duplicate wins")
    void scenario39_chainingMixed() {
        h.setSpec("{\"name\":\"one\",\"then\":\"two\"}");
        h.setSpec("{\"name\":\"two\"}");
        h.addUnits("one", "a");

        finishNext("a", "{\"output\":[\"key\",[\"key\",{\"data\":\"x\"},{\"priority\":10}]]}");

        assertThat(h.units("two", "{}")).containsExactly("key");
        assertJson(h.unitData("two", "key"), "{\"data\":\"x\"}");
        assertThat(h.unit("two", "key").get("priority").asInt()).isEqualTo(10);
    }

    @Test
    @DisplayName("40. Renew with an output in its data, then finish without data → the output is used")
    void scenario40_chainingTwoStep() {
        h.setSpec("{\"name\":\"one\",\"then\":\"two\"}");
        h.setSpec("{\"name\":\"two\"}");
        h.addUnits("one", "a");
        String name = "\u0001\u0002\u0003\u0004";

        Attempt attempt = h.requestOne();
        h.renew(
                        attempt,
                        900,
                        "{\"output\":[\"\\u0001\\u0002\\u0003\\u0004\","
                                + "[\"\\u0001\\u0002\\u0003\\u0004\",{},{\"priority\":0}]]}")
                .ok();
        h.finish(attempt).ok();

        assertThat(h.units("two", "{}")).containsExactly(name);
        assertJson(h.unitData("two", name), "{}");
        assertThat(h.unit("two", name).get("priority").asInt()).isZero();
    }

    @Test
    @DisplayName("41. Finishing a superseded attempt with output is accepted and chains nothing")
    void scenario41_chainingExpiry() {
        h.setSpec("{\"name\":\"one\",\"then\":\"two\"}");
        h.setSpec("{\"name\":\"two\",\"disabled\":true}");
        h.addUnits("one", "a");

        Attempt first = h.requestOne();
        h.reset("one", "{}").ok();
        Attempt second = h.requestOne();
        assertThat(second.id()).isNotEqualTo(first.id());
        assertThat(h.attempt(second).get("status").asText()).isEqualTo("pending");

        h.finish(first, "{\"output\":[\"unit\"]}").ok();

        assertThat(h.units("two", "{}")).isEmpty();
        assertThat(h.chainedCommands()).isEmpty();
        assertThat(h.attempt(first).get("status").asText()).isEqualTo("finished");
        assertThat(h.status("one", "a")).isEqualTo("pending");
        assertThat(h.unit("one", "a").get("active_attempt").asText()).isEqualTo(second.id());
    }

    @Test
    @DisplayName("42. A re-emitted finished unit runs again: a, z, b, z, then none")
    void scenario42_chainingDuplicate() {
        h.setSpec("{\"name\":\"one\",\"then\":\"two\",\"priority\":1}");
        h.setSpec("{\"name\":\"two\",\"priority\":2}");
        h.addUnits("one", "a", "b");

        finishNext("a", "{\"output\":[\"z\"]}");
        finishNext("z", "{}");
        finishNext("b", "{\"output\":[\"z\"]}");
        finishNext("z", "{}");
        h.requestNone();
        assertJson(h.counts("one"), "{\"finished\":2}");
        assertJson(h.counts("two"), "{\"finished\":1}");
    }

    @Test
    @DisplayName("43. +20 min: the attempt is expired, counts (1, 0), the unit available, a new attempt follows")
    void scenario43_attemptExpiration() {
        h.setSpec("{\"name\":\"spec\",\"min_gb\":1}");
        h.addUnits("spec", "unit");

        Attempt attempt = h.requestOne();
        assertThat(h.attempt(attempt).get("status").asText()).isEqualTo("pending");
        h.requestNone();
        h.advance(Duration.ofMinutes(20));

        // exact on read: no command and no time step ran since the attempt expired
        assertThat(h.attempt(attempt).get("status").asText()).isEqualTo("expired");
        assertThat(h.meta("spec").get("available_count").asInt()).isEqualTo(1);
        assertThat(h.meta("spec").get("pending_count").asInt()).isZero();
        assertThat(h.status("spec", "unit")).isEqualTo("available");
        assertJson(h.workerView("worker").get("active_attempts"), "[]");

        Attempt next = h.requestOne();
        assertThat(next.unit()).isEqualTo("unit");
        assertThat(h.attempt(next).get("status").asText()).isEqualTo("pending");
        assertThat(h.attempt(attempt).get("status").asText()).isEqualTo("expired");
    }

    @Test
    @DisplayName("44. Retry delay 90 s; +60 s → delayed, no attempts; +60 s → available, order unit")
    void scenario44_retryDelay() {
        h.setSpec("{\"name\":\"spec\",\"min_gb\":1}");
        h.addUnits("spec", "unit");
        assertThat(h.status("spec", "unit")).isEqualTo("available");

        h.retry(h.requestOne(), 90).ok();
        h.advanceSeconds(60);
        assertThat(h.status("spec", "unit")).isEqualTo("delayed");
        h.requestNone();
        h.advanceSeconds(60);
        assertThat(h.status("spec", "unit")).isEqualTo("available");
        assertThat(h.order("spec")).containsExactly("unit");
    }

    @Test
    @DisplayName("45. Attempt commands on a deleted unit → no_such_attempt")
    void scenario45_attemptGone() {
        h.setSpec("{\"name\":\"spec\",\"min_gb\":1}");
        h.addUnits("spec", "unit");
        Attempt attempt = h.requestOne();
        h.send("delete_work_units", "work_spec_name", "spec", "query", json("{\"names\":[\"unit\"]}"))
                .ok();
        assertNoSuchAttempt(attempt);

        h.addUnits("spec", "other");
        Attempt onOther = h.requestOne();
        h.send("delete_work_spec", "work_spec_name", "spec").ok();
        assertNoSuchAttempt(onOther);
    }

    private void assertNoSuchAttempt(Attempt attempt) {
        assertThat(h.attempt(attempt)).isNull();
        assertThat(h.finish(attempt).errorCode()).isEqualTo("no_such_attempt");
        assertThat(h.fail(attempt).errorCode()).isEqualTo("no_such_attempt");
        assertThat(h.retry(attempt, 0).errorCode()).isEqualTo("no_such_attempt");
        assertThat(h.expire(attempt).errorCode()).isEqualTo("no_such_attempt");
        assertThat(h.renew(attempt, 60, "{}").errorCode()).isEqualTo("no_such_attempt");
    }

    @Test
    @DisplayName("46. max_retries 2: two attempts, the third request fails the unit with \"too many retries\"")
    void scenario46_maxRetries() {
        h.setSpec("{\"name\":\"spec\",\"min_gb\":1,\"max_retries\":2}");
        h.addUnits("spec", "unit");

        h.requestOne();
        h.advance(Duration.ofHours(1));
        assertThat(h.requestOne().unit()).isEqualTo("unit");
        h.advance(Duration.ofHours(1));
        h.requestNone();

        assertThat(h.status("spec", "unit")).isEqualTo("failed");
        assertThat(h.unitData("spec", "unit").get("traceback").asText()).isEqualTo("too many retries");
        assertThat(h.unit("spec", "unit").get("attempts")).hasSize(3);
        assertJson(h.workerView("worker").get("active_attempts"), "[]");
    }

    @Test
    @DisplayName("47. max_getwork 2, max_retries 1: [a, b]; finish a; +1 h; request 10 → exactly [c]")
    void scenario47_maxRetriesMulti() {
        h.setSpec("{\"name\":\"spec\",\"min_gb\":1,\"max_getwork\":2,\"max_retries\":1}");
        h.addUnits("spec", "a", "b", "c", "d");

        var first = h.request("count", 10);
        assertThat(first).extracting(Attempt::unit).containsExactly("a", "b");
        h.advance(Duration.ofMinutes(1));
        h.finish(first.get(0)).ok();
        h.advance(Duration.ofHours(1));

        assertThat(h.request("count", 10)).extracting(Attempt::unit).containsExactly("c");
        assertThat(h.status("spec", "b")).isEqualTo("failed");
    }

    @Test
    @DisplayName("48. max_getwork 2, max_retries 1: [a, b]; +1 h; a batch all auto-failed is fetched again → [c, d]")
    void scenario48_maxRetriesMultiBatch() {
        h.setSpec("{\"name\":\"spec\",\"min_gb\":1,\"max_getwork\":2,\"max_retries\":1}");
        h.addUnits("spec", "a", "b", "c", "d");

        assertThat(h.request("count", 10)).extracting(Attempt::unit).containsExactly("a", "b");
        h.advance(Duration.ofHours(1));

        assertThat(h.request("count", 10)).extracting(Attempt::unit).containsExactly("c", "d");
        assertThat(h.status("spec", "a")).isEqualTo("failed");
        assertThat(h.status("spec", "b")).isEqualTo("failed");
    }

    @Test
    @DisplayName("49. State machine: lost_lease, not_pending, finish after fail, expire twice")
    void scenario49_stateMachine() {
        h.setSpec("{\"name\":\"spec\",\"min_gb\":1}");
        h.addUnits("spec", "a", "b", "c");

        Attempt superseded = h.requestOne();
        h.reset("spec", "{\"names\":[\"a\"]}").ok();
        Attempt current = h.requestOne();
        assertThat(current.unit()).isEqualTo("a");
        assertThat(h.renew(superseded, 60, "{}").errorCode()).isEqualTo("lost_lease");
        assertThat(h.attempt(current).get("status").asText()).isEqualTo("pending");
        h.finish(current).ok();
        assertThat(h.fail(current).errorCode()).isEqualTo("not_pending");
        assertThat(h.status("spec", "a")).isEqualTo("finished");

        Attempt failed = h.requestOne();
        assertThat(failed.unit()).isEqualTo("b");
        h.fail(failed).ok();
        assertThat(h.status("spec", "b")).isEqualTo("failed");
        h.finish(failed).ok();
        assertThat(h.attempt(failed).get("status").asText()).isEqualTo("finished");
        assertThat(h.status("spec", "b")).isEqualTo("finished");

        Attempt expired = h.requestOne();
        h.expire(expired).ok();
        var before = h.stateSnapshot();
        assertThat(h.expire(expired).ok().get("status").asText()).isEqualTo("expired");
        assertThat(h.stateSnapshot())
                .as("expiring twice changes nothing (but keeps its answer)")
                .isEqualTo(before);
    }
}
