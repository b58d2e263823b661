package io.coordinate.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.protocol.Json;
import io.coordinate.testing.EventLedger.UnitKey;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The fault suite's checker catches each breach it is there for, and passes a clean history. */
class EventLedgerTest {

    private static final String EVENTS = "coordinate.events";
    private static final String RESULTS = "coordinate.results";
    private final EventLedger ledger = new EventLedger(Set.of("ns"), Set.of("rep"));

    private void batch(String time, String... events) {
        ledger.accept(
                EVENTS,
                "ns",
                Json.parse("{\"namespace\":\"ns\",\"time\":\"" + time + "\",\"events\":[" + String.join(",", events)
                        + "]}"));
    }

    private static String added(String spec, String unit) {
        return "{\"type\":\"unit_added\",\"work_spec_name\":\"" + spec + "\",\"work_unit_name\":\"" + unit
                + "\",\"status\":\"available\"}";
    }

    private static String started(String spec, String unit, String attempt, String expires) {
        return "{\"type\":\"attempt_started\",\"work_spec_name\":\"" + spec + "\",\"work_unit_name\":\"" + unit
                + "\",\"attempt_id\":\"" + attempt + "\",\"expiration_time\":\"" + expires + "\"}";
    }

    private static String ended(String type, String spec, String unit, String attempt) {
        return "{\"type\":\"" + type + "\",\"work_spec_name\":\"" + spec + "\",\"work_unit_name\":\"" + unit
                + "\",\"attempt_id\":\"" + attempt + "\"}";
    }

    private static String status(String spec, String unit, String status) {
        return "{\"type\":\"unit_status_changed\",\"work_spec_name\":\"" + spec + "\",\"work_unit_name\":\"" + unit
                + "\",\"status\":\"" + status + "\"}";
    }

    @Test
    void aCleanHistoryWithAnExpiredLeaseHasNoViolation() {
        batch("2026-01-01T00:00:00.000Z", added("s", "u"));
        batch("2026-01-01T00:00:01.000Z", started("s", "u", "1", "2026-01-01T00:00:04.000Z"));
        batch(
                "2026-01-01T00:00:05.000Z",
                ended("attempt_expired", "s", "u", "1"),
                started("s", "u", "2", "2026-01-01T00:00:08.000Z"));
        batch("2026-01-01T00:00:06.000Z", ended("attempt_finished", "s", "u", "2"), status("s", "u", "finished"));

        assertThat(ledger.violations()).isEmpty();
        assertThat(ledger.unfinished(Set.of(new UnitKey("ns", "s", "u")))).isEmpty();
        assertThat(ledger.unitOf(new UnitKey("ns", "s", "u")).attemptsFinished).isEqualTo(1);
    }

    @Test
    void anAttemptStartedWhileAnotherHoldsItsLeaseIsAViolation() {
        batch("2026-01-01T00:00:00.000Z", added("s", "u"), started("s", "u", "1", "2026-01-01T00:00:04.000Z"));
        batch("2026-01-01T00:00:03.000Z", started("s", "u", "2", "2026-01-01T00:00:07.000Z"));

        assertThat(ledger.violations())
                .containsExactly("attempt 2 of UnitKey[namespace=ns, spec=s, unit=u] started at "
                        + "2026-01-01T00:00:03.000Z while attempt 1 held its lease until 2026-01-01T00:00:04Z");
    }

    @Test
    void replicasMayOverlap() {
        batch(
                "2026-01-01T00:00:00.000Z",
                added("rep", "u"),
                started("rep", "u", "1", "2026-01-01T00:00:04.000Z"),
                started("rep", "u", "2", "2026-01-01T00:00:04.000Z"));
        assertThat(ledger.violations()).isEmpty();
    }

    @Test
    void aUnitFinishedTwiceAnAttemptIdReusedAndAUnitAddedTwiceAreViolations() {
        batch("2026-01-01T00:00:00.000Z", added("s", "u"), started("s", "u", "1", "2026-01-01T00:00:01.000Z"));
        batch("2026-01-01T00:00:00.500Z", ended("attempt_finished", "s", "u", "1"), status("s", "u", "finished"));
        batch(
                "2026-01-01T00:00:02.000Z",
                status("s", "u", "available"),
                started("s", "u", "1", "2026-01-01T00:00:03Z"));
        batch(
                "2026-01-01T00:00:02.500Z",
                ended("attempt_finished", "s", "u", "1"),
                status("s", "u", "finished"),
                added("s", "u"));

        assertThat(ledger.violations())
                .containsExactly(
                        "attempt id 1 handed out twice (UnitKey[namespace=ns, spec=s, unit=u])",
                        "second attempt finished: UnitKey[namespace=ns, spec=s, unit=u] (1)",
                        "finished twice: UnitKey[namespace=ns, spec=s, unit=u] at 2026-01-01T00:00:02.500Z",
                        "added twice: UnitKey[namespace=ns, spec=s, unit=u] at 2026-01-01T00:00:02.500Z");
    }

    @Test
    void aReplicatedUnitAssimilatedTwiceIsAViolation() {
        String result = "{\"work_spec_name\":\"rep\",\"work_unit_name\":\"u\"}";
        ledger.accept(RESULTS, "ns", Json.parse(result));
        ledger.accept(RESULTS, "ns", Json.parse(result));
        assertThat(ledger.violations()).containsExactly("assimilated twice: " + result);
    }
}
