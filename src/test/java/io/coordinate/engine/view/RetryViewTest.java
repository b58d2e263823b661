package io.coordinate.engine.view;

import static io.coordinate.engine.EngineHarness.assertJson;
import static io.coordinate.engine.EngineHarness.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.EngineHarness;
import io.coordinate.engine.EngineHarness.Attempt;
import io.coordinate.engine.handlers.RetryingUnits;
import io.coordinate.engine.handlers.UnitQuery;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.protocol.Json;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * A unit's {@code attempt_count}, {@code last_error}, {@code next_attempt_at} and {@code retrying}
 * (docs/reference.md#unit), in its view and in list items alike, and the listing's {@code retrying} filter.
 */
class RetryViewTest {

    private final EngineHarness h = new EngineHarness();

    /** The four fields of the unit's view, checked equal in its list item. */
    private ObjectNode retryFields(String unit) {
        ObjectNode full = h.unit("spec", unit);
        WorkUnitRecord record = h.reader().units().get(h.namespace(), "spec", unit);
        ObjectNode item = h.views().unitSummary(record);
        ObjectNode fields = Json.object();
        for (String field : List.of("attempt_count", "last_error", "next_attempt_at", "retrying")) {
            assertThat(item.get(field)).as(field + " of the list item").isEqualTo(full.get(field));
            fields.set(field, full.get(field));
        }
        return fields;
    }

    private void failWith(Attempt attempt, String traceback) {
        h.send("fail_attempt", "attempt_id", attempt.id(), "data", Json.object().put("traceback", traceback))
                .ok();
    }

    private void retryWith(Attempt attempt, long delay, String dataJson) {
        h.send("retry_attempt", "attempt_id", attempt.id(), "delay", delay, "data", json(dataJson))
                .ok();
    }

    @Test
    void aUnitThatNeverRanHasNoErrorAndIsNotRetrying() {
        h.setSpec("{\"name\":\"spec\"}");
        h.addUnitsJson("spec", "[{\"name\":\"a\"},{\"name\":\"b\",\"delay\":60}]");

        assertJson(
                retryFields("a"),
                "{\"attempt_count\":0,\"last_error\":null,\"next_attempt_at\":null,\"retrying\":false}");
        // delayed, but by its own not-before: it runs next then, and no retry brought it there
        assertJson(
                retryFields("b"),
                "{\"attempt_count\":0,\"last_error\":null,\"next_attempt_at\":\"2026-11-22T10:01:00.000Z\","
                        + "\"retrying\":false}");
    }

    @Test
    void aFailedAttemptShowsItsTracebackAndAFinishedOneNone() {
        h.setSpec("{\"name\":\"spec\"}");
        h.addUnits("spec", "a", "b");
        failWith(h.requestOne(), "Traceback: boom");
        h.finish(h.requestOne());

        assertJson(
                retryFields("a"),
                "{\"attempt_count\":1,\"last_error\":\"Traceback: boom\",\"next_attempt_at\":null,\"retrying\":false}");
        assertJson(
                retryFields("b"),
                "{\"attempt_count\":1,\"last_error\":null,\"next_attempt_at\":null,\"retrying\":false}");
    }

    @Test
    void aRetriedUnitIsRetryingUntilItsTimeComesAndKeepsItsLastError() {
        h.setSpec("{\"name\":\"spec\"}");
        h.addUnits("spec", "a");
        retryWith(h.requestOne(), 0, "{\"traceback\":\"first\"}");
        h.advanceSeconds(5);
        retryWith(h.requestOne(), 60, "{\"traceback\":\"timeout, try later\"}");

        assertJson(
                retryFields("a"),
                "{\"attempt_count\":2,\"last_error\":\"timeout, try later\","
                        + "\"next_attempt_at\":\"2026-11-22T10:01:05.000Z\",\"retrying\":true}");
        h.advanceSeconds(60); // its time has come: available, even before the time step runs
        assertJson(
                retryFields("a"),
                "{\"attempt_count\":2,\"last_error\":\"timeout, try later\",\"next_attempt_at\":null,"
                        + "\"retrying\":false}");
    }

    @Test
    void aRetryWithoutATracebackHasNoLastErrorButIsRetrying() {
        h.setSpec("{\"name\":\"spec\"}");
        h.addUnits("spec", "a");
        retryWith(h.requestOne(), 30, "{\"progress\":0.5}");

        assertJson(
                retryFields("a"),
                "{\"attempt_count\":1,\"last_error\":null,\"next_attempt_at\":\"2026-11-22T10:00:30.000Z\","
                        + "\"retrying\":true}");
    }

    @Test
    void anExpiredLeaseIsTheLastErrorAndRetriesADelayedUnit() {
        h.setSpec("{\"name\":\"spec\"}");
        h.addUnits("spec", "a", "b");
        List<Attempt> attempts = h.request("count", 2, "lifetime", 60);
        h.addUnitsJson("spec", "[{\"name\":\"b\",\"delay\":600}]"); // b rests delayed once its attempt ends
        h.expire(attempts.get(0)).ok();

        assertJson(
                retryFields("a"),
                "{\"attempt_count\":1,\"last_error\":\"lease expired\",\"next_attempt_at\":null,\"retrying\":false}");
        assertJson(
                retryFields("b"),
                "{\"attempt_count\":1,\"last_error\":null,\"next_attempt_at\":null,\"retrying\":false}");
        h.advance(Duration.ofSeconds(60).plusMillis(1)); // b's lease ran out, before any time step
        assertJson(
                retryFields("b"),
                "{\"attempt_count\":1,\"last_error\":\"lease expired\","
                        + "\"next_attempt_at\":\"2026-11-22T10:10:00.000Z\",\"retrying\":true}");
        assertThat(RetryingUnits.select(UnitQuery.ALL, h.reader(), h.namespace(), "spec", h.now()))
                .extracting(WorkUnitRecord::name)
                .containsExactly("b");
        h.punctuate();
        assertJson(
                retryFields("b"),
                "{\"attempt_count\":1,\"last_error\":\"lease expired\","
                        + "\"next_attempt_at\":\"2026-11-22T10:10:00.000Z\",\"retrying\":true}");
    }

    @Test
    void anExpiredAttemptKeepsItsTracebackAsTheLastError() {
        h.setSpec("{\"name\":\"spec\"}");
        h.addUnits("spec", "a");
        h.send("expire_attempt", "attempt_id", h.requestOne().id(), "data", json("{\"traceback\":\"killed\"}"))
                .ok();

        assertThat(retryFields("a").get("last_error").textValue()).isEqualTo("killed");
    }

    @Test
    void theLastErrorIsTheTracebacksLast2000Characters() {
        h.setSpec("{\"name\":\"spec\"}");
        h.addUnits("spec", "a", "b");
        String head = "x".repeat(500);
        String tail = "y".repeat(1999) + "z";
        failWith(h.requestOne(), head + tail);
        // a tail that would start inside a surrogate pair starts after it
        String emoji = "\uD83D\uDE00";
        failWith(h.requestOne(), emoji + "w".repeat(1999));

        assertThat(retryFields("a").get("last_error").textValue()).isEqualTo(tail);
        assertThat(retryFields("b").get("last_error").textValue()).isEqualTo("w".repeat(1999));
    }

    @Test
    void theRetryingFilterTakesTheUnitsARetryOrAnExpiryDelayed() {
        h.setSpec("{\"name\":\"spec\"}");
        h.setSpec("{\"name\":\"other\"}");
        h.addUnits("spec", "a", "b", "c", "d", "e");
        h.addUnitsJson("spec", "[{\"name\":\"f\",\"delay\":60}]"); // delayed, never ran
        h.addUnits("other", "o");
        retryWith(h.requestOne("work_specs", List.of("spec")), 60, "{}"); // a: retrying
        failWith(h.requestOne("work_specs", List.of("spec")), "boom"); // b: failed
        retryWith(h.requestOne("work_specs", List.of("spec")), 30, "{}"); // c: retrying
        retryWith(h.requestOne("work_specs", List.of("spec")), 0, "{}"); // d: available again
        retryWith(h.requestOne("work_specs", List.of("other")), 60, "{}"); // o: retrying, in another spec

        assertThat(retrying(UnitQuery.ALL)).containsExactly("a", "c");
        assertThat(retrying(new UnitQuery(null, null, "a", 10))).containsExactly("c");
        assertThat(retrying(new UnitQuery(null, null, null, 1))).containsExactly("a");
        assertThat(retrying(new UnitQuery(null, EnumSet.of(UnitStatus.FAILED), null, 10)))
                .containsExactly("a", "b", "c");
        assertThat(retrying(new UnitQuery(new TreeSet<>(List.of("c", "e", "f")), null, null, 10)))
                .containsExactly("c");
        h.advanceSeconds(30); // c's time has come
        assertThat(retrying(UnitQuery.ALL)).containsExactly("a");
    }

    @Test
    void theRetryingFilterReadsTheSpecWhenTheDelayedIndexHoldsMoreEntriesThanTheSpecHasUnits() {
        h.setSpec("{\"name\":\"spec\"}");
        h.setSpec("{\"name\":\"other\"}");
        h.addUnits("spec", "a", "b");
        h.addUnitsJson("other", "[{\"name\":\"o1\",\"delay\":60},{\"name\":\"o2\",\"delay\":60}]");
        retryWith(h.requestOne("work_specs", List.of("spec")), 60, "{}");

        assertThat(retrying(UnitQuery.ALL)).containsExactly("a");
        assertThat(retrying(new UnitQuery(null, null, "a", 10))).isEmpty();
    }

    private List<String> retrying(UnitQuery query) {
        return RetryingUnits.select(query, h.reader(), h.namespace(), "spec", h.now()).stream()
                .map(WorkUnitRecord::name)
                .toList();
    }
}
