package io.coordinate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.testing.KafkaTestClient;
import io.coordinate.testing.RunningApp;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Concurrency groups with the shell worker, as a new user tries them (docs/reference.md#concurrency-groups): three
 * groups of 30 units, {@code group_max_running} 1, eight commands at a time. Read from the events: never two pending
 * units of one group, and the groups progress together. Then a {@code group_rate_limit}: no group starts faster than
 * its bucket allows, by the events' times (the engine's clock, which the buckets use).
 */
class ConcurrencyGroupsIT {

    private static final List<String> GROUPS = List.of("acme", "globex", "initech");
    private static final int PER_GROUP = 30;

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

    @Test
    void eachGroupRunsOneUnitAtATimeAndTheGroupsProgressTogether() {
        String ns = "groups";
        addSpecWithGroups(ns, "\"group_max_running\":1", PER_GROUP);

        assertThat(ShellWork.untilIdle(app, ns, "sleep 0.02", 8)).isEqualTo(ExitCodes.OK);

        List<ConsumerRecord<byte[], byte[]>> records = app.client()
                .readUntil(
                        "coordinate.events",
                        read -> finished(ns, read, new TreeMap<>(), new TreeMap<>()) == GROUPS.size() * PER_GROUP);
        Map<String, Integer> mostPending = new TreeMap<>();
        Map<String, Integer> finishedAtHalf = new TreeMap<>();
        assertThat(finished(ns, records, mostPending, finishedAtHalf)).isEqualTo(GROUPS.size() * PER_GROUP);
        assertThat(mostPending).isEqualTo(Map.of("acme", 1, "globex", 1, "initech", 1));
        assertThat(finishedAtHalf.keySet()).containsExactlyElementsOf(GROUPS);
        assertThat(finishedAtHalf.values())
                .as(
                        "finished units of each group when the first group had finished half of its units: %s",
                        finishedAtHalf)
                .allMatch(finished -> finished * 4 >= PER_GROUP);
    }

    @Test
    void noGroupStartsFasterThanItsRateLimit() {
        String ns = "group-rates";
        int perGroup = 12;
        int max = 5;
        int burst = 2;
        addSpecWithGroups(
                ns, "\"group_rate_limit\":{\"max\":" + max + ",\"per_seconds\":1,\"burst\":" + burst + "}", perGroup);

        assertThat(ShellWork.untilIdle(app, ns, "sleep 0.02", 8)).isEqualTo(ExitCodes.OK);

        Map<String, List<Long>> starts = new TreeMap<>();
        app.client().readUntil("coordinate.events", read -> {
            starts.clear();
            return starts(ns, read, starts) == GROUPS.size() * perGroup;
        });
        assertThat(starts.keySet()).containsExactlyElementsOf(GROUPS);
        long tokenMillis = 1000 / max;
        starts.forEach((group, times) -> {
            assertThat(times).as(group).hasSize(perGroup);
            for (int k = burst; k < times.size(); k++) {
                // a full bucket of `burst` tokens, then one every tokenMillis: start k waits for token k
                assertThat(times.get(k) - times.get(0))
                        .as("%s's start %d after its first, of %s", group, k, times)
                        .isGreaterThanOrEqualTo((k + 1 - burst) * tokenMillis);
            }
        });
    }

    /** Spec {@code s} of {@code ns} with these keys, and {@code perGroup} units {@code <group>-<i>} of each group. */
    private static void addSpecWithGroups(String ns, String specKeys, int perGroup) {
        app.call(
                ns,
                "{\"command\":\"set_work_spec\",\"namespace\":\"" + ns + "\",\"work_spec\":{\"name\":\"s\"," + specKeys
                        + "}}");
        StringBuilder units = new StringBuilder();
        for (String group : GROUPS) {
            for (int i = 0; i < perGroup; i++) {
                units.append(units.isEmpty() ? "" : ",")
                        .append(String.format("{\"name\":\"%s-%02d\",\"group\":\"%s\"}", group, i, group));
            }
        }
        app.call(
                ns,
                "{\"command\":\"add_work_units\",\"namespace\":\"" + ns + "\",\"work_spec_name\":\"s\","
                        + "\"work_units\":[" + units + "]}");
    }

    /** The times (epoch ms, the engine's) of the namespace's attempt starts, per group; returns how many in all. */
    private static int starts(String ns, List<ConsumerRecord<byte[], byte[]>> records, Map<String, List<Long>> starts) {
        int total = 0;
        for (ConsumerRecord<byte[], byte[]> record : records) {
            if (!ns.equals(KafkaTestClient.keyOf(record))) {
                continue;
            }
            JsonNode batch = io.coordinate.protocol.Json.parse(new String(record.value(), StandardCharsets.UTF_8));
            long time = Instant.parse(batch.get("time").asText()).toEpochMilli();
            for (JsonNode event : batch.get("events")) {
                if (event.get("type").asText().equals("unit_status_changed")
                        && event.get("status").asText().equals("pending")) {
                    starts.computeIfAbsent(event.get("group").asText(), g -> new ArrayList<>())
                            .add(time);
                    total++;
                }
            }
        }
        return total;
    }

    /**
     * Reads the namespace's unit events in order: how many units finished in all; per group, the most units pending at
     * once ({@code mostPending}), and how many had finished when a group first finished half of its units
     * ({@code finishedAtHalf}).
     */
    private static int finished(
            String ns,
            List<ConsumerRecord<byte[], byte[]>> records,
            Map<String, Integer> mostPending,
            Map<String, Integer> finishedAtHalf) {
        Map<String, Integer> pending = new TreeMap<>();
        Map<String, Integer> finished = new TreeMap<>();
        int total = 0;
        for (ConsumerRecord<byte[], byte[]> record : records) {
            if (!ns.equals(KafkaTestClient.keyOf(record))) {
                continue;
            }
            JsonNode batch = io.coordinate.protocol.Json.parse(new String(record.value(), StandardCharsets.UTF_8));
            for (JsonNode event : batch.get("events")) {
                if (!event.get("type").asText().equals("unit_status_changed")) {
                    continue;
                }
                String group = event.get("group").asText();
                if (event.get("previous_status").asText().equals("pending")) {
                    pending.merge(group, -1, Integer::sum);
                }
                String status = event.get("status").asText();
                if (status.equals("pending")) {
                    int now = pending.merge(group, 1, Integer::sum);
                    mostPending.merge(group, now, Math::max);
                } else if (status.equals("finished")) {
                    total++;
                    int done = finished.merge(group, 1, Integer::sum);
                    if (done * 2 >= PER_GROUP && finishedAtHalf.isEmpty()) {
                        for (String each : GROUPS) {
                            finishedAtHalf.put(each, finished.getOrDefault(each, 0));
                        }
                    }
                }
            }
        }
        return total;
    }
}
