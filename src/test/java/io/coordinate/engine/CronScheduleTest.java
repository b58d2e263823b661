package io.coordinate.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.protocol.Times;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Cron schedules (docs/reference.md#schedules): the time step adds a unit at each fire time, on the engine's clock. */
class CronScheduleTest {

    private final EngineHarness h = new EngineHarness(); // its clock starts at 2026-11-22T10:00:00Z

    private static String every(String cron, String more) {
        return "{\"name\":\"spec\",\"schedule\":{\"cron\":\"" + cron + "\"" + more + "}}";
    }

    /** Steps the clock by {@code seconds} at a time until {@code until}, a time step after each move. */
    private void stepUntil(String until, long seconds) {
        long end = Instant.parse(until).toEpochMilli();
        while (h.now() + seconds * 1000 <= end) {
            h.advanceSeconds(seconds);
            h.punctuate();
        }
    }

    private List<String> units() {
        return h.units("spec", "{}");
    }

    private long unitsAdded() {
        return h.events().stream()
                .filter(e -> e.get("type").asText().equals("unit_added"))
                .count();
    }

    @Test
    void everyMinuteAddsExactlyOneUnitPerMinute() {
        h.setSpec(every("*/1 * * * *", ""));

        stepUntil("2026-11-22T10:03:30Z", 5);

        assertThat(units())
                .containsExactly("spec-2026-11-22T10:01:00Z", "spec-2026-11-22T10:02:00Z", "spec-2026-11-22T10:03:00Z");
        assertThat(unitsAdded()).isEqualTo(3);
        assertThat(h.status("spec", "spec-2026-11-22T10:01:00Z")).isEqualTo("available");
        assertThat(h.meta("spec").get("schedule").get("next_fire_time").asText())
                .isEqualTo(Times.format(Instant.parse("2026-11-22T10:04:00Z").toEpochMilli()));
    }

    @Test
    void theUnitTakesTheTemplatesNameDataAndPriority() {
        h.setSpec(every(
                "0 * * * *",
                ",\"unit\":{\"name_template\":\"{spec}/{fire_epoch}/{fire_time}\",\"data\":{\"k\":1},\"priority\":7}"));

        stepUntil("2026-11-22T11:00:00Z", 600);

        String name = "spec/" + Instant.parse("2026-11-22T11:00:00Z").getEpochSecond() + "/2026-11-22T11:00:00Z";
        assertThat(units()).containsExactly(name);
        ObjectNode unit = h.unit("spec", name);
        assertThat(unit.get("data").toString()).isEqualTo("{\"k\":1}");
        assertThat(unit.get("priority").asDouble()).isEqualTo(7.0);
    }

    /** The app was down from 10:01:30 to 10:03:30: the fires of 10:02 and 10:03 were missed. */
    private List<String> afterTwoMinutesDown(String catchUp) {
        h.setSpec(every("*/1 * * * *", ",\"catch_up\":\"" + catchUp + "\""));
        stepUntil("2026-11-22T10:01:30Z", 5);
        assertThat(units()).containsExactly("spec-2026-11-22T10:01:00Z");

        h.advanceSeconds(120);
        h.punctuate();
        List<String> afterRestart = units();
        stepUntil("2026-11-22T10:04:30Z", 5);
        assertThat(units()).as("on time again").contains("spec-2026-11-22T10:04:00Z");
        return afterRestart;
    }

    @Test
    void catchUpOneAddsOneUnitForTheMissedFires() {
        assertThat(afterTwoMinutesDown("one"))
                .containsExactly("spec-2026-11-22T10:01:00Z", "spec-2026-11-22T10:03:00Z");
        assertThat(unitsAdded()).isEqualTo(3);
    }

    @Test
    void catchUpNoneAddsNothingForTheMissedFires() {
        assertThat(afterTwoMinutesDown("none")).containsExactly("spec-2026-11-22T10:01:00Z");
        assertThat(unitsAdded()).isEqualTo(2);
    }

    @Test
    void catchUpAllAddsOneUnitPerMissedFire() {
        assertThat(afterTwoMinutesDown("all"))
                .containsExactly("spec-2026-11-22T10:01:00Z", "spec-2026-11-22T10:02:00Z", "spec-2026-11-22T10:03:00Z");
        assertThat(unitsAdded()).isEqualTo(4);
    }

    @Test
    void catchUpAllAddsAtMostAThousandFiresPerStep() {
        h.setSpec(every("*/1 * * * *", ",\"catch_up\":\"all\""));
        h.advanceSeconds(1500 * 60 + 30); // 1500 fires past

        h.punctuate();
        assertThat(unitsAdded()).isEqualTo(1000);
        h.punctuate();
        assertThat(unitsAdded()).isEqualTo(1500);
        h.punctuate();
        assertThat(unitsAdded()).isEqualTo(1500);
        assertThat(units()).last().isEqualTo("spec-2026-11-23T11:00:00Z");
    }

    /**
     * Europe/Berlin: 02:00 does not exist on 28 March 2027 (no fire) and comes twice on 31 October 2027 (one fire, the
     * first), as cron-utils computes them.
     */
    @Test
    void aZoneWithDaylightSavingTimeFiresAtCronUtilsTimes() {
        assertThat(berlinFires("2027-03-26T12:00:00Z", "2027-03-30T12:00:00Z"))
                .containsExactly("spec-2027-03-27T01:00:00Z", "spec-2027-03-29T00:00:00Z", "spec-2027-03-30T00:00:00Z");
        assertThat(berlinFires("2027-10-29T12:00:00Z", "2027-11-01T12:00:00Z"))
                .containsExactly("spec-2027-10-30T00:00:00Z", "spec-2027-10-31T00:00:00Z", "spec-2027-11-01T01:00:00Z");
    }

    private static List<String> berlinFires(String from, String until) {
        EngineHarness harness = new EngineHarness();
        harness.advance(Duration.ofMillis(Instant.parse(from).toEpochMilli() - harness.now()));
        harness.setSpec(every("0 2 * * *", ",\"timezone\":\"Europe/Berlin\""));
        long end = Instant.parse(until).toEpochMilli();
        while (harness.now() < end) {
            harness.advanceSeconds(1800);
            harness.punctuate();
        }
        return harness.units("spec", "{}");
    }

    @Test
    void changingTheScheduleComputesTheNextFireFromNow() {
        h.setSpec(every("0 * * * *", ""));
        assertThat(nextFire()).isEqualTo("2026-11-22T11:00:00Z");
        h.advanceSeconds(600);
        h.setSpec(every("0 * * * *", "")); // the same schedule again: its next fire stays
        assertThat(nextFire()).isEqualTo("2026-11-22T11:00:00Z");

        h.setSpec(every("*/15 * * * *", ""));

        assertThat(nextFire()).isEqualTo("2026-11-22T10:15:00Z");
        stepUntil("2026-11-22T10:31:00Z", 60);
        assertThat(units()).containsExactly("spec-2026-11-22T10:15:00Z", "spec-2026-11-22T10:30:00Z");
    }

    private String nextFire() {
        long next =
                Times.parse(h.meta("spec").get("schedule").get("next_fire_time").asText());
        return Instant.ofEpochMilli(next).toString();
    }

    @Test
    void aScheduleRemovedFromTheDataStops() {
        h.setSpec(every("*/1 * * * *", ""));
        h.setSpec("{\"name\":\"spec\"}");

        stepUntil("2026-11-22T10:03:00Z", 30);

        assertThat(units()).isEmpty();
        assertThat(h.meta("spec").has("schedule")).isFalse();
        assertThat(h.reader().timeIndexes().dueScheduleFires(Long.MAX_VALUE, 10))
                .isEmpty();
    }

    @Test
    void deletingTheSpecStopsItsSchedule() {
        h.setSpec(every("*/1 * * * *", ""));
        h.send("delete_work_spec", "work_spec_name", "spec").ok();
        h.setSpec("{\"name\":\"spec\"}"); // the same name again, without a schedule

        stepUntil("2026-11-22T10:03:00Z", 30);

        assertThat(units()).isEmpty();
        assertThat(h.reader().specs().schedule("ns", "spec")).isNull();
        assertThat(h.reader().timeIndexes().dueScheduleFires(Long.MAX_VALUE, 10))
                .isEmpty();
    }

    @Test
    void destroyingTheNamespaceStopsItsSchedules() {
        h.setSpec(every("*/1 * * * *", ""));
        h.send("destroy_namespace").ok();

        assertThat(h.reader().timeIndexes().dueScheduleFires(Long.MAX_VALUE, 10))
                .isEmpty();
        stepUntil("2026-11-22T10:03:00Z", 30);
        assertThat(h.namespaces()).isEmpty();
    }

    @Test
    void aFireWhoseUnitExistsKeepsTheUnitAsItIs() {
        h.setSpec(every("*/1 * * * *", ""));
        h.addUnitsJson("spec", "[{\"name\":\"spec-2026-11-22T10:01:00Z\",\"data\":{\"mine\":true}}]");
        EngineHarness.Attempt attempt = h.requestOne();
        h.finish(attempt);

        stepUntil("2026-11-22T10:01:30Z", 5);

        assertThat(units()).containsExactly("spec-2026-11-22T10:01:00Z");
        assertThat(h.status("spec", "spec-2026-11-22T10:01:00Z")).isEqualTo("finished");
        assertThat(h.unitData("spec", "spec-2026-11-22T10:01:00Z").get("mine").asBoolean())
                .isTrue();
        assertThat(nextFire()).isEqualTo("2026-11-22T10:02:00Z");
    }

    /** The same commands at the same times give the same units, and an engine reopened on the store adds none twice. */
    @Test
    void aReplayAddsTheSameUnitsOnce() {
        EngineHarness other = new EngineHarness();
        for (EngineHarness harness : List.of(h, other)) {
            harness.setSpec(every("*/1 * * * *", ",\"catch_up\":\"all\""));
            harness.advanceSeconds(150);
            harness.punctuate();
            harness.reopen();
            harness.punctuate();
            harness.send("add_work_units", "work_spec_name", "spec", "work_units", EngineHarness.json("[]"));
        }
        assertThat(units()).containsExactly("spec-2026-11-22T10:01:00Z", "spec-2026-11-22T10:02:00Z");
        assertThat(other.units("spec", "{}")).isEqualTo(units());
        assertThat(other.events().toString()).isEqualTo(h.events().toString());
        assertThat(unitsAdded()).isEqualTo(2);
    }

    @Test
    void aBadScheduleIsRefusedNamingItsKey() {
        assertThat(refused("{\"cron\":\"61 * * * *\"}")).startsWith("work spec key \"schedule.cron\" must be");
        assertThat(refused("{\"cron\":\"0 0 * * * *\"}")).startsWith("work spec key \"schedule.cron\" must be");
        assertThat(refused("{}")).isEqualTo("work spec key \"schedule.cron\" must be a string");
        assertThat(refused("{\"cron\":\"* * * * *\",\"timezone\":\"Mars/Olympus\"}"))
                .isEqualTo("work spec key \"schedule.timezone\" must be an IANA time zone, as \"Europe/Berlin\"");
        assertThat(refused("{\"cron\":\"* * * * *\",\"catch_up\":\"some\"}"))
                .isEqualTo("work spec key \"schedule.catch_up\" must be \"none\", \"one\" or \"all\"");
        assertThat(refused("{\"cron\":\"* * * * *\",\"every\":1}"))
                .isEqualTo("work spec key \"schedule.every\" is not a setting of \"schedule\"");
        assertThat(refused("{\"cron\":\"* * * * *\",\"unit\":{\"name_template\":\"{spec}\"}}"))
                .isEqualTo("work spec key \"schedule.unit.name_template\" must hold {fire_time} or {fire_epoch}:"
                        + " each fire needs its own name");
        assertThat(refused("{\"cron\":\"* * * * *\",\"unit\":{\"name_template\":\"{fire_date}\"}}"))
                .startsWith("work spec key \"schedule.unit.name_template\" has an unknown placeholder {fire_date}");
        assertThat(refused("{\"cron\":\"* * * * *\",\"unit\":{\"data\":[]}}"))
                .isEqualTo("work spec key \"schedule.unit.data\" must be an object");
        assertThat(refused("[]")).isEqualTo("work spec key \"schedule\" must be an object");
        assertThat(h.specNames()).isEmpty();
    }

    private String refused(String scheduleJson) {
        EngineHarness.Reply reply = h.send(
                "set_work_spec",
                "work_spec",
                EngineHarness.json("{\"name\":\"spec\",\"schedule\":" + scheduleJson + "}"));
        assertThat(reply.errorCode()).isEqualTo("bad_command");
        return reply.json().get("error").get("message").asText();
    }

    @Test
    void specGetShowsTheScheduleWithItsDefaults() {
        h.setSpec(every("*/5 * * * *", ""));

        assertThat(h.meta("spec").get("schedule").toString())
                .isEqualTo("{\"cron\":\"*/5 * * * *\",\"timezone\":\"UTC\",\"unit\":{\"name_template\":"
                        + "\"{spec}-{fire_time}\",\"data\":{},\"priority\":0},\"catch_up\":\"one\","
                        + "\"next_fire_time\":\""
                        + Times.format(Instant.parse("2026-11-22T10:05:00Z").toEpochMilli())
                        + "\"}");
    }
}
