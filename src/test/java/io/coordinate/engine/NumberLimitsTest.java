package io.coordinate.engine;

import static io.coordinate.engine.EngineHarness.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.engine.EngineHarness.Attempt;
import io.coordinate.engine.EngineHarness.Reply;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Absurd numbers (issue 24, defect 3): each reproduction, refused with {@code bad_command} and the store unchanged,
 * or, where a worker's output carries it, saturated; and the limits themselves accepted.
 */
class NumberLimitsTest {

    private final EngineHarness h = new EngineHarness();

    @BeforeEach
    void state() {
        h.setSpec("{\"name\":\"spec\"}");
        h.addUnits("spec", "a", "b");
    }

    /** Sends the command; asserts {@code bad_command} with this message, and that the store did not change. */
    private void assertRefused(String message, String command, Object... fields) {
        Map<String, String> before = h.snapshot();
        Reply reply = h.send(command, fields);
        assertThat(reply.errorCode()).isEqualTo("bad_command");
        assertThat(reply.json().get("error").get("message").asText()).isEqualTo(message);
        assertThat(reply.result().assignments()).isEmpty();
        assertThat(reply.result().events()).isEmpty();
        assertThat(h.snapshot()).as("store after a refused %s", command).isEqualTo(before);
    }

    @Test
    void aHugeLifetimeIsRefusedSoTheLeaseCannotWrapAroundAndGoToASecondWorker() {
        assertRefused(
                "field \"lifetime\" must be a number from 1 to 2592000, but it is 1E+300",
                "request_attempts",
                "worker",
                "w1",
                "lifetime",
                json("1e300"));

        // the longest lease is exclusive for its whole length
        Attempt first = h.worker("w1").requestOne("lifetime", 2_592_000, "work_specs", java.util.List.of("spec"));
        assertThat(first.assignmentItem().get("expiration_time").asText()).isEqualTo("2026-12-22T10:00:00.000Z");
        h.advance(Duration.ofMillis(51));
        h.punctuate();
        Attempt second = h.worker("w2").requestOne();
        assertThat(second.unit()).as("the other unit, not the leased one").isNotEqualTo(first.unit());
        assertThat(h.attempt(first).get("status").asText()).isEqualTo("pending");
    }

    @Test
    void aLeaseBelowOneSecondIsRefused() {
        assertRefused(
                "field \"lifetime\" must be a number from 1 to 2592000, but it is 1E-9",
                "request_attempts",
                "worker",
                "w1",
                "lifetime",
                json("1e-9"));
        assertRefused(
                "field \"lifetime\" must be a number from 1 to 2592000, but it is 0",
                "request_attempts",
                "worker",
                "w1",
                "lifetime",
                0);
        Attempt attempt = h.requestOne("lifetime", 1);
        assertThat(attempt.assignmentItem().get("expiration_time").asText()).isEqualTo("2026-11-22T10:00:01.000Z");
        assertRefused(
                "field \"extend\" must be a number from 1 to 2592000, but it is 1E-9",
                "renew_attempt",
                "attempt_id",
                attempt.id(),
                "extend",
                json("1e-9"));
        assertRefused(
                "field \"extend\" must be a number from 1 to 2592000, but it is 1E+300",
                "renew_attempt",
                "attempt_id",
                attempt.id(),
                "extend",
                json("1e300"));
    }

    @Test
    void aHugeDelayIsRefusedInsteadOfANotBeforeInTheYear292274999() {
        assertRefused(
                "work unit \"delay\" must be a number from 0 to 31536000, but it is 1E+300",
                "add_work_units",
                "work_spec_name",
                "spec",
                "work_units",
                json("[{\"name\":\"c\",\"delay\":1e300}]"));
        assertRefused(
                "work unit \"delay\" must be a number from 0 to 31536000, but it is -1",
                "add_work_units",
                "work_spec_name",
                "spec",
                "work_units",
                json("[{\"name\":\"c\",\"delay\":-1}]"));
        Attempt attempt = h.requestOne();
        assertRefused(
                "field \"delay\" must be a number from 0 to 31536000, but it is 1E+300",
                "retry_attempt",
                "attempt_id",
                attempt.id(),
                "delay",
                json("1e300"));

        h.send("add_work_units", "work_spec_name", "spec", "work_units", json("[{\"name\":\"c\",\"delay\":31536000}]"))
                .ok();
        assertThat(h.unit("spec", "c").get("not_before").asText()).isEqualTo("2027-11-22T10:00:00.000Z");
    }

    @Test
    void notBeforeMustBeAYearFrom1To9999() {
        assertRefused(
                "not a time from year 1 to 9999: +10000-01-01T00:00:00Z",
                "add_work_units",
                "work_spec_name",
                "spec",
                "work_units",
                json("[{\"name\":\"c\",\"not_before\":\"+10000-01-01T00:00:00Z\"}]"));
        // beyond what epoch milliseconds hold: java.time threw ArithmeticException, an internal_error
        assertRefused(
                "not an RFC 3339 time: +999999999-12-31T23:59:59Z",
                "add_work_units",
                "work_spec_name",
                "spec",
                "work_units",
                json("[{\"name\":\"c\",\"not_before\":\"+999999999-12-31T23:59:59Z\"}]"));
    }

    @Test
    void aPriorityThatIsNotFiniteIsRefusedNotStoredAsInfinity() {
        assertRefused(
                "work unit \"priority\" must be a number from -1000000000000000 to 1000000000000000, but it is "
                        + "1E+400",
                "add_work_units",
                "work_spec_name",
                "spec",
                "work_units",
                json("[{\"name\":\"c\",\"priority\":1e400}]"));
        assertRefused(
                "field \"priority\" must be a number from -1000000000000000 to 1000000000000000, but it is "
                        + "-1E+400",
                "prioritize_work_units",
                "work_spec_name",
                "spec",
                "priority",
                json("-1e400"));
        assertRefused(
                "work spec key \"priority\" must be a number from -1000000000000000 to 1000000000000000, but it "
                        + "is 1E+400",
                "set_work_spec",
                "work_spec",
                json("{\"name\":\"s2\",\"priority\":1e400}"));
        assertRefused(
                "work spec key \"weight\" must be a number from -1000000000 to 1000000000, but it is 1E+300",
                "set_work_spec_meta",
                "work_spec_name",
                "spec",
                "meta",
                json("{\"weight\":1e300}"));
        assertRefused(
                "work spec key \"max_running\" must be a number from -2147483647 to 2147483647, but it is 1E+300",
                "set_work_spec",
                "work_spec",
                json("{\"name\":\"s2\",\"max_running\":1e300}"));
        assertRefused(
                "field \"count\" must be a whole number from 0 to 2147483647, but it is 1E+400",
                "request_attempts",
                "worker",
                "w1",
                "count",
                json("1e400"));
    }

    @Test
    void adjustmentsSaturateAtTheLargestPriority() {
        for (int i = 0; i < 3; i++) {
            h.send("prioritize_work_units", "work_spec_name", "spec", "adjustment", json("2e15"))
                    .ok();
        }
        assertThat(h.unit("spec", "a").get("priority").asLong()).isEqualTo(1_000_000_000_000_000L);
        h.send("prioritize_work_units", "work_spec_name", "spec", "adjustment", json("-2e15"))
                .ok();
        assertThat(h.unit("spec", "a").get("priority").asLong()).isEqualTo(-1_000_000_000_000_000L);
    }

    @Test
    void aWorkersOutputWithAbsurdNumbersChainsSaturatedUnits() {
        h.setSpec("{\"name\":\"one\",\"then\":\"two\"}");
        h.setSpec("{\"name\":\"two\"}");
        h.addUnits("one", "u");
        Attempt attempt = h.requestOne("work_specs", java.util.List.of("one"));

        h.finish(attempt, "{\"output\":[[\"x\",{},{\"delay\":1e300},1e400]]}").ok();

        assertThat(h.chainedRejections()).isEmpty();
        assertThat(h.unit("two", "x").get("priority").asLong()).isEqualTo(1_000_000_000_000_000L);
        assertThat(h.unit("two", "x").get("not_before").asText()).isEqualTo("2027-11-22T10:00:00.000Z");
    }
}
