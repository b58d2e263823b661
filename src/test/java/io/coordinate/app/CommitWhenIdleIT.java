package io.coordinate.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.cli.DevEnvironment;
import io.coordinate.protocol.TopicNames;
import io.coordinate.testing.KafkaTestClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commit policy on a real broker: with a commit interval of 9 s (Kafka Streams allows up to the 10 s
 * transaction timeout), a worker's assignment is still visible as
 * soon as the app has answered and its input is idle, not 9 s later (streams.CommitPolicy). Under exactly-once
 * nothing the app writes is visible before its transaction commits, so the assignment arriving at all before the
 * interval shows the early commit.
 */
class CommitWhenIdleIT {

    private static final TopicNames TOPICS = TopicNames.unprefixed();
    private static final long INTERVAL_MS = 9_000;

    @TempDir
    static Path dataDir;

    private static DevEnvironment env;
    private static KafkaTestClient client;

    @BeforeAll
    static void start() throws Exception {
        env = DevEnvironment.start(0, 0, dataDir, c -> c.withCommitIntervalMs(INTERVAL_MS));
        client = new KafkaTestClient(env.bootstrapServers(), env.httpPort());
    }

    @AfterAll
    static void stop() {
        if (client != null) {
            client.close();
        }
        if (env != null) {
            env.close();
        }
    }

    @Test
    void anAssignmentIsVisibleLongBeforeTheCommitInterval() {
        client.send(
                TOPICS.commands(),
                "idle",
                "{\"command\":\"set_work_spec\",\"namespace\":\"idle\"," + "\"work_spec\":{\"name\":\"spec\"}}");
        client.send(
                TOPICS.commands(),
                "idle",
                "{\"command\":\"add_work_units\",\"namespace\":\"idle\","
                        + "\"work_spec_name\":\"spec\",\"work_units\":[{\"name\":\"u1\"}]}");
        long sent = System.nanoTime();
        client.send(
                TOPICS.commands(),
                "idle",
                "{\"command\":\"request_attempts\",\"namespace\":\"idle\","
                        + "\"worker\":\"w-idle\",\"request_id\":\"r1\"}");

        List<JsonNode> assignments = client.awaitValues(TOPICS.assignments(), "w-idle", 1);
        Duration waited = Duration.ofNanos(System.nanoTime() - sent);

        assertThat(assignments).hasSize(1);
        assertThat(assignments.get(0).get("request_id").asText()).isEqualTo("r1");
        assertThat(assignments
                        .get(0)
                        .get("attempts")
                        .get(0)
                        .get("work_unit_name")
                        .asText())
                .isEqualTo("u1");
        // Committed on the interval it would take 9 s; a third of it leaves room for a slow machine.
        assertThat(waited).isLessThan(Duration.ofMillis(INTERVAL_MS / 3));
    }
}
