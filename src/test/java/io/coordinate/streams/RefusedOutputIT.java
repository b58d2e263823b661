package io.coordinate.streams;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.cli.DevEnvironment;
import io.coordinate.protocol.TopicNames;
import io.coordinate.testing.KafkaTestClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A command whose output the producer refuses is skipped on its replay, not replayed for ever: the producer is given
 * a lower limit (200,000 bytes) than the engine's, so that a unit of 250 KB of data passes the engine and its changelog
 * record is refused by the producer, which aborts the transaction.
 */
class RefusedOutputIT {

    private static final TopicNames TOPICS = TopicNames.unprefixed();

    @TempDir
    Path dataDir;

    @Test
    void aCommandWhoseOutputTheProducerRefusesIsDeadLetteredAndSkippedAndTheNextOnesRun() throws Exception {
        try (DevEnvironment env = DevEnvironment.start(
                        0, 0, dataDir, c -> c.withKafkaProperties(Map.of("producer.max.request.size", "200000")));
                KafkaTestClient client = new KafkaTestClient(env.bootstrapServers(), env.httpPort())) {
            client.send(
                    TOPICS.commands(),
                    "ro",
                    "{\"command\":\"set_work_spec\",\"namespace\":\"ro\","
                            + "\"work_spec\":{\"name\":\"s\"},\"reply_to\":\"it-ro\",\"request_id\":\"spec\"}");
            client.send(
                    TOPICS.commands(),
                    "ro",
                    "{\"command\":\"add_work_units\",\"namespace\":\"ro\","
                            + "\"work_spec_name\":\"s\",\"work_units\":[{\"name\":\"big\",\"data\":{\"b\":\""
                            + "x".repeat(250_000)
                            + "\"}}],\"reply_to\":\"it-ro\",\"request_id\":\"big\"}");
            client.send(
                    TOPICS.commands(),
                    "ro",
                    "{\"command\":\"add_work_units\",\"namespace\":\"ro\","
                            + "\"work_spec_name\":\"s\",\"work_units\":[{\"name\":\"small\"}],\"reply_to\":\"it-ro\","
                            + "\"request_id\":\"small\"}");

            List<JsonNode> replies = client.awaitValues(TOPICS.replies(), "it-ro", 3);
            assertThat(replies).extracting(r -> r.get("request_id").asText()).containsExactly("spec", "big", "small");
            assertThat(replies.get(1).get("error").get("code").asText()).isEqualTo("too_large");
            assertThat(replies.get(1).get("error").get("message").asText())
                    .startsWith(
                            "Kafka refused an output of the command (a record for coordinate-coordinate-state-changelog): ")
                    .endsWith("; the command was skipped");
            assertThat(replies.get(2).get("ok").asBoolean()).isTrue();

            List<ConsumerRecord<byte[], byte[]>> dead = client.readUntil(TOPICS.deadLetter(), r -> !r.isEmpty());
            assertThat(dead).hasSize(1);
            assertThat(new String(dead.get(0).headers().lastHeader("error.code").value(), StandardCharsets.UTF_8))
                    .isEqualTo("too_large");
            assertThat(client.get("/api/namespaces/ro/work-specs/s/work-units/small")
                            .status())
                    .isEqualTo(200);
            assertThat(client.get("/api/namespaces/ro/work-specs/s/work-units/big")
                            .status())
                    .isEqualTo(404);
        }
    }
}
