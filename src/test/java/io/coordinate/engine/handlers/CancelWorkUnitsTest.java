package io.coordinate.engine.handlers;

import static io.coordinate.engine.EngineHarness.assertJson;
import static io.coordinate.engine.EngineHarness.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.engine.EngineHarness;
import io.coordinate.engine.EngineHarness.Attempt;
import io.coordinate.engine.OutRecord;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code cancel_work_units} of an ordinary spec (docs/reference.md#cancel_work_units): units that are not settled
 * become {@code cancelled}, a running attempt with them, and its worker is told on {@code coordinate.assignments}
 * and by the error {@code cancelled} of its next command.
 */
class CancelWorkUnitsTest {

    private final EngineHarness h = new EngineHarness();

    @BeforeEach
    void spec() {
        h.setSpec("{\"name\":\"s\"}");
    }

    /** a available, b delayed, c pending on w1's attempt, d finished, e failed. Returns c's attempt. */
    private Attempt oneUnitOfEachStatus() {
        h.addUnits("s", "c", "d", "e");
        Attempt c = h.worker("w1").requestOne();
        h.finish(h.worker("w2").requestOne()).ok();
        h.fail(h.worker("w2").requestOne()).ok();
        h.addUnitsJson("s", "[{\"name\":\"a\"},{\"name\":\"b\",\"delay\":60}]");
        assertThat(c.unit()).isEqualTo("c");
        return c;
    }

    private static List<String> eventLines(EngineHarness h) {
        return h.events().stream()
                .map(e -> e.get("type").asText() + " " + e.get("work_unit_name").asText()
                        + (e.has("previous_status")
                                ? " " + e.get("previous_status").asText() + "→"
                                : " ")
                        + e.get("status").asText())
                .toList();
    }

    @Test
    void availableDelayedAndPendingUnitsAreCancelledAndTheWorkerIsToldAtOnce() {
        Attempt c = oneUnitOfEachStatus();
        h.advanceSeconds(5);
        h.clearCaptured();

        assertJson(
                h.send("cancel_work_units", "work_spec_name", "s", "query", json("{}"))
                        .ok(),
                "{\"cancelled\":3}");

        assertThat(eventLines(h))
                .containsExactly(
                        "unit_status_changed a available→cancelled",
                        "unit_status_changed b delayed→cancelled",
                        "attempt_cancelled c cancelled",
                        "unit_status_changed c pending→cancelled");
        assertJson(
                h.events().get(2),
                "{\"type\":\"attempt_cancelled\",\"work_spec_name\":\"s\",\"work_unit_name\":\"c\",\"attempt_id\":\""
                        + c.id() + "\",\"worker\":\"w1\",\"status\":\"cancelled\"}");
        assertThat(h.assignments()).hasSize(1);
        OutRecord notice = h.assignments().get(0);
        assertThat(notice.key()).isEqualTo("w1");
        assertJson(notice.value(), "{\"namespace\":\"ns\",\"worker\":\"w1\",\"cancelled\":[\"" + c.id() + "\"]}");

        assertJson(h.counts("s"), "{\"cancelled\":3,\"finished\":1,\"failed\":1}");
        assertThat(h.units("s", "{\"statuses\":[\"cancelled\"]}")).containsExactly("a", "b", "c");
        assertJson(
                h.attempt(c),
                "{\"attempt_id\":\"" + c.id() + "\",\"work_spec_name\":\"s\",\"work_unit_name\":\"c\","
                        + "\"worker\":\"w1\",\"status\":\"cancelled\",\"data\":{},"
                        + "\"start_time\":\"2026-11-22T10:00:00.000Z\",\"expiration_time\":\"2026-11-22T10:15:00.000Z\","
                        + "\"end_time\":\"2026-11-22T10:00:05.000Z\",\"active\":true}");
        assertThat(h.workerView("w1").get("active_attempts")).isEmpty();
        h.worker("w3").requestNone();

        h.clearCaptured();
        assertJson(h.send("cancel_work_units", "work_spec_name", "s").ok(), "{\"cancelled\":0}");
        assertThat(h.events()).as("settled units are left as they are").isEmpty();
        assertThat(h.assignments()).isEmpty();
    }

    @Test
    void theQuerySelectsTheUnitsAndANoticeNamesEachWorkersAttempts() {
        h.addUnits("s", "a", "b", "c", "d");
        Attempt a = h.worker("w1").requestOne();
        Attempt b = h.worker("w2").requestOne();
        Attempt c = h.worker("w1").requestOne();
        h.clearCaptured();

        assertJson(
                h.send("cancel_work_units", "work_spec_name", "s", "query", json("{\"names\":[\"a\",\"b\",\"c\"]}"))
                        .ok(),
                "{\"cancelled\":3}");

        assertThat(h.assignments())
                .extracting(r -> r.key() + " " + r.value())
                .containsExactly(
                        "w1 {\"namespace\":\"ns\",\"worker\":\"w1\",\"cancelled\":[\"" + a.id() + "\",\"" + c.id()
                                + "\"]}",
                        "w2 {\"namespace\":\"ns\",\"worker\":\"w2\",\"cancelled\":[\"" + b.id() + "\"]}");
        assertThat(h.status("s", "d")).isEqualTo("available");
    }

    @Test
    void theWorkersNextCommandOnTheAttemptAnswersCancelledAndChangesNothing() {
        Attempt c = oneUnitOfEachStatus();
        h.send("cancel_work_units", "work_spec_name", "s").ok();
        var before = h.snapshot();
        h.clearCaptured();

        EngineHarness.Reply renew = h.renew(c, 60, "{}");
        assertThat(renew.errorCode()).isEqualTo("cancelled");
        assertThat(renew.json().get("error").get("message").asText()).isEqualTo("attempt " + c.id() + " was cancelled");
        assertThat(h.finish(c).errorCode()).isEqualTo("cancelled");
        assertThat(h.fail(c).errorCode()).isEqualTo("cancelled");
        assertThat(h.retry(c, 0).errorCode()).isEqualTo("cancelled");
        assertThat(h.events()).isEmpty();
        assertThat(h.snapshot()).isEqualTo(before);

        // an item of a batch of finishes is refused alike (the batch's own answer is kept, as any other)
        assertJson(
                h.send("finish_attempts", "attempts", json("[{\"attempt_id\":\"" + c.id() + "\"}]"))
                        .ok(),
                "{\"finished\":0,\"errors\":[{\"attempt_id\":\"" + c.id() + "\",\"code\":\"cancelled\","
                        + "\"message\":\"attempt " + c.id() + " was cancelled\"}]}");
        assertThat(h.events()).isEmpty();
    }

    @Test
    void aCancelledAttemptHasNoLeaseLeftToExpire() {
        h.addUnits("s", "a");
        h.requestOne();
        h.send("cancel_work_units", "work_spec_name", "s").ok();
        h.clearCaptured();

        h.advance(Duration.ofMinutes(20));
        h.punctuate();

        assertThat(h.events()).isEmpty();
        assertThat(h.status("s", "a")).isEqualTo("cancelled");
    }

    @Test
    void aResetOrAReAddBringsACancelledUnitBack() {
        h.addUnits("s", "a", "b");
        Attempt first = h.requestOne();
        h.send("cancel_work_units", "work_spec_name", "s").ok();
        h.clearCaptured();

        assertJson(h.reset("s", "{\"names\":[\"a\"]}").ok(), "{\"reset\":1}");
        h.addUnits("s", "b");

        assertThat(eventLines(h))
                .containsExactly(
                        "unit_status_changed a cancelled→available", "unit_status_changed b cancelled→available");
        assertJson(h.counts("s"), "{\"available\":2}");
        Attempt again = h.requestOne();
        assertThat(again.unit()).isEqualTo("a");
        assertThat(again.id()).isNotEqualTo(first.id());
        h.finish(again).ok();
        assertThat(h.status("s", "a")).isEqualTo("finished");
        assertThat(h.finish(first).errorCode())
                .as("the cancelled attempt stays cancelled")
                .isEqualTo("cancelled");
    }

    @Test
    void aCancelledUnitIsPurgedAfterTheSpecsRetention() {
        h.setSpec("{\"name\":\"s\",\"retention\":60}");
        h.addUnits("s", "a");
        h.send("cancel_work_units", "work_spec_name", "s").ok();
        h.advanceSeconds(59);
        h.punctuate();
        assertThat(h.status("s", "a")).isEqualTo("cancelled");

        h.advanceSeconds(1);
        h.clearCaptured();
        h.punctuate();

        assertThat(h.eventTypes()).containsExactly("unit_deleted");
        assertThat(h.unit("s", "a")).isNull();
    }
}
