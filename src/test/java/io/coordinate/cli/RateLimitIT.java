package io.coordinate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.Times;
import io.coordinate.testing.KafkaTestClient;
import io.coordinate.testing.RunningApp;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A spec's rate limit with the shell worker, as a new user tries it (docs/reference.md#rate-limits): 8 workers over
 * 200 units of a spec that allows 20 starts a second. The starts are read from the events, on the engine's clock.
 */
class RateLimitIT {

    private static final int UNITS = 200;
    private static final int MAX = 20;
    private static final int BURST = MAX;

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
    void eightWorkersStartNoMoreThanTheLimitAllowsInAnySecond() {
        String ns = "rate-limited";
        app.call(
                ns,
                "{\"command\":\"set_work_spec\",\"namespace\":\"" + ns + "\",\"work_spec\":{\"name\":\"s\","
                        + "\"rate_limit\":{\"max\":" + MAX + ",\"per_seconds\":1}}}");
        StringBuilder list = new StringBuilder();
        for (int i = 0; i < UNITS; i++) {
            list.append(i == 0 ? "" : ",").append("{\"name\":\"u").append(i).append("\"}");
        }
        app.call(
                ns,
                "{\"command\":\"add_work_units\",\"namespace\":\"" + ns + "\",\"work_spec_name\":\"s\","
                        + "\"work_units\":[" + list + "]}");

        assertThat(ShellWork.untilIdle(app, ns, "true", 8)).isEqualTo(ExitCodes.OK);

        List<Long> starts = starts(ns);
        assertThat(starts).hasSize(UNITS);
        for (int i = 0; i < starts.size(); i++) {
            long from = starts.get(i);
            long inWindow =
                    starts.stream().filter(t -> t >= from && t < from + 1000).count();
            assertThat(inWindow)
                    .as("starts in the second from %s", Times.format(from))
                    .isLessThanOrEqualTo(MAX + BURST);
        }
        // the first 20 start at once, each of the other 180 waits for its token: one every 50 ms
        assertThat(starts.get(UNITS - 1) - starts.get(0)).isGreaterThanOrEqualTo((UNITS - BURST) * 1000L / MAX);
    }

    /** The times of the namespace's attempt starts, read until every unit finished, in order. */
    private static List<Long> starts(String ns) {
        List<ConsumerRecord<byte[], byte[]>> records =
                app.client().readUntil("coordinate.events", read -> finished(ns, read) == UNITS);
        List<Long> starts = new ArrayList<>();
        forEachEvent(ns, records, (time, event) -> {
            if (event.get("type").asText().equals("attempt_started")) {
                starts.add(time);
            }
        });
        starts.sort(null);
        return starts;
    }

    private static long finished(String ns, List<ConsumerRecord<byte[], byte[]>> records) {
        long[] count = {0};
        forEachEvent(ns, records, (time, event) -> {
            if (event.get("type").asText().equals("attempt_finished")) {
                count[0]++;
            }
        });
        return count[0];
    }

    private interface EventVisitor {
        void visit(long time, JsonNode event);
    }

    private static void forEachEvent(String ns, List<ConsumerRecord<byte[], byte[]>> records, EventVisitor visitor) {
        for (ConsumerRecord<byte[], byte[]> record : records) {
            if (!ns.equals(KafkaTestClient.keyOf(record))) {
                continue;
            }
            JsonNode batch = Json.parse(new String(record.value(), StandardCharsets.UTF_8));
            long time = Times.parse(batch.get("time").asText());
            for (JsonNode event : batch.get("events")) {
                visitor.visit(time, event);
            }
        }
    }
}
