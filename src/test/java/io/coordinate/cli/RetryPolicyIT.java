package io.coordinate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.protocol.Times;
import io.coordinate.testing.KafkaTestClient;
import io.coordinate.testing.RunningApp;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A spec's retry policy with the shell worker, as a new user tries it (docs/reference.md#retries): a command that
 * fails twice per unit and then works, and one that always fails, each spec with {@code max_attempts} 4 and an
 * exponential backoff from 1 s. The delays are read from the events, on the engine's clock.
 */
class RetryPolicyIT {

    private static final String RETRY =
            "{\"max_attempts\":4,\"backoff\":\"exponential\",\"initial_delay\":1,\"multiplier\":2}";

    @TempDir
    static Path dataDir;

    private static RunningApp app;

    @BeforeAll
    static void start() throws Exception {
        app = RunningApp.start(dataDir);
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    /** What the events say of one unit: its attempts' start times, its failures' retry times, its last status. */
    private static final class UnitStory {
        final List<Long> starts = new ArrayList<>();
        final List<Long> failedAt = new ArrayList<>();
        final List<Long> retryAt = new ArrayList<>();
        final List<JsonNode> exhausted = new ArrayList<>();
        String status;
    }

    @Test
    void aCommandThatFailsTwiceFinishesOnItsThirdAttemptAfterDelaysOfOneAndTwoSeconds() throws Exception {
        String ns = "retry-flaky";
        addSpecAndUnits(ns, 4);
        Path counts = Files.createDirectories(dataDir.resolve("counts"));
        String exec = "f=" + counts + "/$COORDINATE_UNIT; n=$(cat $f 2>/dev/null || echo 0); n=$((n+1)); echo $n > $f; "
                + "[ $n -ge 3 ] || { echo \"boom on run $n\" >&2; exit 1; }";
        assertThat(ShellWork.untilIdle(app, ns, exec, 4)).isEqualTo(ExitCodes.OK);

        Map<String, UnitStory> stories = stories(ns, 4, "finished");
        for (Map.Entry<String, UnitStory> entry : stories.entrySet()) {
            UnitStory story = entry.getValue();
            assertThat(story.status).as(entry.getKey()).isEqualTo("finished");
            assertThat(story.starts).as(entry.getKey()).hasSize(3);
            assertDelays(entry.getKey(), story, List.of(1000L, 2000L));
            assertThat(story.exhausted).isEmpty();
        }
        JsonNode unit = app.client()
                .get("/api/namespaces/" + ns + "/work-specs/s/work-units/u1")
                .body();
        assertThat(unit.get("status").asText()).isEqualTo("finished");
        assertThat(unit.get("attempt_count").asInt()).isEqualTo(3);
        assertThat(unit.get("last_error").isNull()).isTrue();
        assertThat(unit.get("attempts")).hasSize(3);
        assertThat(unit.get("attempts").get(1).get("data").get("traceback").asText())
                .isEqualTo("exit status 1\nboom on run 2\n");
    }

    @Test
    void aCommandThatAlwaysFailsFailsItsUnitsAfterExactlyFourAttempts() {
        String ns = "retry-broken";
        addSpecAndUnits(ns, 3);
        assertThat(ShellWork.untilIdle(app, ns, "echo \"always broken\" >&2; exit 1", 4))
                .isEqualTo(ExitCodes.OK);

        Map<String, UnitStory> stories = stories(ns, 3, "failed");
        for (Map.Entry<String, UnitStory> entry : stories.entrySet()) {
            UnitStory story = entry.getValue();
            assertThat(story.status).as(entry.getKey()).isEqualTo("failed");
            assertThat(story.starts).as(entry.getKey()).hasSize(4);
            assertDelays(entry.getKey(), story, List.of(1000L, 2000L, 4000L));
            assertThat(story.exhausted).hasSize(1);
            assertThat(story.exhausted.get(0).get("attempt_count").asInt()).isEqualTo(4);
            assertThat(story.exhausted.get(0).get("max_attempts").asInt()).isEqualTo(4);
        }
        JsonNode unit = app.client()
                .get("/api/namespaces/" + ns + "/work-specs/s/work-units/u0")
                .body();
        assertThat(unit.get("status").asText()).isEqualTo("failed");
        assertThat(unit.get("attempt_count").asInt()).isEqualTo(4);
        assertThat(unit.get("last_error").asText()).isEqualTo("exit status 1\nalways broken\n");
        assertThat(unit.get("attempts")).hasSize(4);
    }

    /** Each retry is due exactly its backoff after its failure, and the next attempt starts no sooner. */
    private static void assertDelays(String unit, UnitStory story, List<Long> delays) {
        assertThat(story.retryAt).as("retries of %s", unit).hasSize(delays.size());
        for (int i = 0; i < delays.size(); i++) {
            assertThat(story.retryAt.get(i) - story.failedAt.get(i))
                    .as("delay %d of %s", i + 1, unit)
                    .isEqualTo(delays.get(i));
            assertThat(story.starts.get(i + 1))
                    .as("start %d of %s", i + 2, unit)
                    .isGreaterThanOrEqualTo(story.retryAt.get(i));
        }
    }

    private static void addSpecAndUnits(String ns, int units) {
        app.call(
                ns,
                "{\"command\":\"set_work_spec\",\"namespace\":\"" + ns + "\",\"work_spec\":{\"name\":\"s\",\"retry\":"
                        + RETRY + "}}");
        StringBuilder list = new StringBuilder();
        for (int i = 0; i < units; i++) {
            list.append(i == 0 ? "" : ",").append("{\"name\":\"u").append(i).append("\"}");
        }
        app.call(
                ns,
                "{\"command\":\"add_work_units\",\"namespace\":\"" + ns + "\",\"work_spec_name\":\"s\","
                        + "\"work_units\":[" + list + "]}");
    }

    /** The namespace's events, read until {@code units} units reached {@code last}, told per unit. */
    private static Map<String, UnitStory> stories(String ns, int units, String last) {
        List<ConsumerRecord<byte[], byte[]>> records = app.client()
                .readUntil(
                        "coordinate.events",
                        read -> tell(ns, read).values().stream()
                                        .filter(s -> last.equals(s.status))
                                        .count()
                                == units);
        return tell(ns, records);
    }

    private static Map<String, UnitStory> tell(String ns, List<ConsumerRecord<byte[], byte[]>> records) {
        Map<String, UnitStory> stories = new LinkedHashMap<>();
        for (ConsumerRecord<byte[], byte[]> record : records) {
            if (!ns.equals(KafkaTestClient.keyOf(record))) {
                continue;
            }
            JsonNode batch = io.coordinate.protocol.Json.parse(new String(record.value(), StandardCharsets.UTF_8));
            long time = Times.parse(batch.get("time").asText());
            for (JsonNode event : batch.get("events")) {
                String unit = event.path("work_unit_name").asText(null);
                if (unit == null) {
                    continue;
                }
                UnitStory story = stories.computeIfAbsent(unit, u -> new UnitStory());
                switch (event.get("type").asText()) {
                    case "attempt_started" -> story.starts.add(time);
                    case "attempt_failed" -> {
                        // a failure the policy retries; the last one, past max_attempts, is "failed"
                        if (event.get("status").asText().equals("retryable")) {
                            story.failedAt.add(time);
                            story.retryAt.add(Times.parse(event.get("retry_at").asText()));
                        }
                    }
                    case "unit_retries_exhausted" -> story.exhausted.add(event);
                    case "unit_status_changed" ->
                        story.status = event.get("status").asText();
                    default -> {}
                }
            }
        }
        return stories;
    }
}
