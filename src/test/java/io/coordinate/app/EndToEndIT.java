package io.coordinate.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.cli.DevEnvironment;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.TopicNames;
import io.coordinate.testing.KafkaTestClient;
import io.coordinate.testing.MetricFamilies;
import io.coordinate.testing.Poll;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The product as a user meets it: a real KRaft broker, the app, commands from a plain Kafka producer,
 * answers read from the output topics and the HTTP API.
 */
class EndToEndIT {

    private static final TopicNames TOPICS = TopicNames.unprefixed();

    @TempDir
    static Path dataDir;

    private static DevEnvironment env;
    private static KafkaTestClient client;

    @BeforeAll
    static void start() throws Exception {
        env = DevEnvironment.start(0, 0, dataDir);
        client = new KafkaTestClient(env.bootstrapServers(), env.httpPort());
    }

    @AfterAll
    static void stop() {
        client.close();
        env.close();
    }

    private static void command(String ns, String json) {
        client.send(TOPICS.commands(), ns, json);
    }

    @Test
    void requestFinishAndQueryThroughTheBroker() {
        command("accept", "{\"command\":\"set_work_spec\",\"namespace\":\"accept\",\"work_spec\":{\"name\":\"spec\"}}");
        command(
                "accept",
                "{\"command\":\"add_work_units\",\"namespace\":\"accept\",\"work_spec_name\":\"spec\","
                        + "\"work_units\":[{\"name\":\"a\",\"priority\":0},{\"name\":\"b\",\"priority\":10},{\"name\":\"c\"}]}");
        command(
                "accept",
                "{\"command\":\"request_attempts\",\"namespace\":\"accept\",\"worker\":\"w-accept\","
                        + "\"count\":2,\"request_id\":\"r1\"}");

        List<JsonNode> assignments = client.awaitValues(TOPICS.assignments(), "w-accept", 1);
        assertThat(assignments).hasSize(1);
        JsonNode attempts = assignments.get(0).get("attempts");
        assertThat(attempts).hasSize(2);
        assertThat(attempts.get(0).get("work_unit_name").asText()).isEqualTo("b");
        assertThat(attempts.get(1).get("work_unit_name").asText()).isEqualTo("a");
        assertThat(assignments.get(0).get("request_id").asText()).isEqualTo("r1");

        String attemptB = attempts.get(0).get("attempt_id").asText();
        command(
                "accept",
                "{\"command\":\"finish_attempt\",\"namespace\":\"accept\",\"attempt_id\":\"" + attemptB
                        + "\",\"reply_to\":\"it-accept\",\"request_id\":\"r2\"}");
        JsonNode reply = client.awaitValues(TOPICS.replies(), "it-accept", 1).get(0);
        assertThat(reply.get("ok").asBoolean()).isTrue();
        assertThat(reply.get("request_id").asText()).isEqualTo("r2");

        assertThat(unitStatus("accept", "spec", "a")).isEqualTo("pending");
        assertThat(unitStatus("accept", "spec", "b")).isEqualTo("finished");
        assertThat(unitStatus("accept", "spec", "c")).isEqualTo("available");
        KafkaTestClient.HttpAnswer spec = client.get("/api/namespaces/accept/work-specs/spec");
        assertThat(spec.status()).isEqualTo(200);
        assertThat(spec.body().get("counts")).isEqualTo(Json.parse("{\"available\":1,\"pending\":1,\"finished\":1}"));
        assertThat(client.get("/health").status()).isEqualTo(200);
        KafkaTestClient.HttpAnswer ready = client.get("/health/ready");
        assertThat(ready.status()).isEqualTo(200);
        assertThat(ready.body()).isEqualTo(Json.parse("{\"status\":\"RUNNING\"}"));
        KafkaTestClient.HttpAnswer live = client.get("/health/live");
        assertThat(live.status()).isEqualTo(200);
        assertThat(live.body()).isEqualTo(Json.parse("{\"status\":\"UP\",\"streams\":\"RUNNING\"}"));
    }

    /** The queue metrics move with the commands, and no metric name appears under two spellings. */
    @Test
    void metricsShowTheQueue() {
        command("metrics", "{\"command\":\"set_work_spec\",\"namespace\":\"metrics\",\"work_spec\":{\"name\":\"s\"}}");
        command(
                "metrics",
                "{\"command\":\"add_work_units\",\"namespace\":\"metrics\",\"work_spec_name\":\"s\","
                        + "\"work_units\":[{\"name\":\"a\"},{\"name\":\"b\"},{\"name\":\"c\"}]}");
        command(
                "metrics",
                "{\"command\":\"request_attempts\",\"namespace\":\"metrics\",\"worker\":\"w-metrics\","
                        + "\"count\":2}");
        JsonNode attempts =
                client.awaitValues(TOPICS.assignments(), "w-metrics", 1).get(0).get("attempts");
        command(
                "metrics",
                "{\"command\":\"finish_attempt\",\"namespace\":\"metrics\",\"attempt_id\":\""
                        + attempts.get(0).get("attempt_id").asText() + "\"}");

        String labels = "{namespace=\"metrics\",work_spec=\"s\"}";
        // A scrape reads the workers' attempts and the units' counts one after the other, not as one snapshot: a
        // commit between the two reads shows the finish in one and not yet in the other, until the next scrape.
        List<String> lines = Poll.until(
                "the finish in /metrics",
                Duration.ofSeconds(30),
                () -> client.getText("/metrics").lines().toList(),
                l -> l.contains("coordinate_units{namespace=\"metrics\",status=\"finished\",work_spec=\"s\"} 1.0")
                        && l.contains("coordinate_running_attempts" + labels + " 1.0"));
        assertThat(lines)
                .contains("coordinate_units{namespace=\"metrics\",status=\"available\",work_spec=\"s\"} 1.0")
                .contains("coordinate_units{namespace=\"metrics\",status=\"pending\",work_spec=\"s\"} 1.0")
                .contains("coordinate_running_attempts" + labels + " 1.0")
                .contains("coordinate_active_workers{namespace=\"metrics\"} 1.0")
                .contains("coordinate_units_added_total" + labels + " 3.0")
                .contains("coordinate_attempts_started_total" + labels + " 2.0")
                .contains("coordinate_units_finished_total" + labels + " 1.0");
        assertThat(MetricFamilies.sameNormalisedName(String.join("\n", lines))).isEmpty();
    }

    @Test
    void malformedRecordsAreDeadLetteredAndTheAppKeepsProcessing() {
        command("dlq", "{oops");
        command("dlq", "{\"command\":\"no_such\",\"namespace\":\"dlq\"}");
        command(
                "dlq",
                "{\"command\":\"set_work_spec\",\"namespace\":\"dlq\",\"work_spec\":{\"name\":\"after\"},"
                        + "\"reply_to\":\"it-dlq\"}");

        List<ConsumerRecord<byte[], byte[]>> dead = client
                .readUntil(
                        TOPICS.deadLetter(),
                        records -> records.stream()
                                        .filter(r -> "dlq".equals(KafkaTestClient.keyOf(r)))
                                        .count()
                                >= 2)
                .stream()
                .filter(r -> "dlq".equals(KafkaTestClient.keyOf(r)))
                .toList();
        assertThat(dead).hasSize(2);
        assertThat(new String(dead.get(0).value(), StandardCharsets.UTF_8)).isEqualTo("{oops");
        assertThat(header(dead.get(0), "error.code")).isEqualTo("malformed_json");
        assertThat(header(dead.get(0), "source.topic")).isEqualTo("coordinate.commands");
        assertThat(header(dead.get(0), "source.partition")).matches("[0-5]");
        assertThat(header(dead.get(0), "source.offset")).matches("[0-9]+");
        assertThat(header(dead.get(0), "error.message")).startsWith("value is not JSON");
        assertThat(header(dead.get(1), "error.code")).isEqualTo("unknown_command");

        JsonNode reply = client.awaitValues(TOPICS.replies(), "it-dlq", 1).get(0);
        assertThat(reply.get("ok").asBoolean()).isTrue();
        assertThat(client.get("/api/namespaces/dlq/work-specs/after").status()).isEqualTo(200);
        assertThat(env.application().isRunning()).isTrue();
    }

    /**
     * A unit's stored value holds its data and its attempt's: without a limit on data, a unit of 600 KB, once
     * requested, made a changelog record over Kafka's 1 MiB, and the task failed at every try.
     */
    @Test
    void dataUpToTheLimitRunsThroughAndLargerDataIsRefused() {
        String blob = "x".repeat(250_000);
        command("big", "{\"command\":\"set_work_spec\",\"namespace\":\"big\",\"work_spec\":{\"name\":\"s\"}}");
        command(
                "big",
                "{\"command\":\"add_work_units\",\"namespace\":\"big\",\"work_spec_name\":\"s\","
                        + "\"work_units\":[{\"name\":\"huge\",\"data\":{\"b\":\"" + "y".repeat(600_000) + "\"}}],"
                        + "\"reply_to\":\"it-big\",\"request_id\":\"huge\"}");
        command(
                "big",
                "{\"command\":\"add_work_units\",\"namespace\":\"big\",\"work_spec_name\":\"s\","
                        + "\"work_units\":[{\"name\":\"large\",\"data\":{\"b\":\"" + blob + "\"}}]}");
        command("big", "{\"command\":\"request_attempts\",\"namespace\":\"big\",\"worker\":\"w-big\",\"count\":5}");

        JsonNode refused = client.awaitValues(TOPICS.replies(), "it-big", 1).get(0);
        assertThat(refused.get("ok").asBoolean()).isFalse();
        assertThat(refused.get("error").get("code").asText()).isEqualTo("too_large");
        assertThat(refused.get("error").get("message").asText())
                .isEqualTo("\"work_units[0].data\" is 600008 bytes of JSON; at most 262144");
        JsonNode attempts =
                client.awaitValues(TOPICS.assignments(), "w-big", 1).get(0).get("attempts");
        assertThat(attempts).hasSize(1);
        assertThat(attempts.get(0).get("work_unit_name").asText()).isEqualTo("large");
        assertThat(attempts.get(0).get("data").get("b").asText()).isEqualTo(blob);

        command(
                "big",
                "{\"command\":\"finish_attempt\",\"namespace\":\"big\",\"attempt_id\":\""
                        + attempts.get(0).get("attempt_id").asText() + "\",\"data\":{\"result\":\"" + blob + "\"},"
                        + "\"reply_to\":\"it-big\",\"request_id\":\"finish\"}");
        JsonNode finished = client.awaitValues(TOPICS.replies(), "it-big", 2).get(1);
        assertThat(finished.get("request_id").asText()).isEqualTo("finish");
        assertThat(finished.get("ok").asBoolean()).isTrue();
        assertThat(unitStatus("big", "s", "large")).isEqualTo("finished");
        assertThat(client.get("/api/namespaces/big/work-specs/s/work-units/huge")
                        .status())
                .isEqualTo(404);
        assertThat(env.application().isRunning()).isTrue();
    }

    /**
     * An add of 11,000 units made an events record of 1.14 MB: Kafka refused it, the transaction aborted, and the task
     * replayed the command for ever, stopping every namespace. A 600 KB unit name made a changelog record of 1.2 MB.
     */
    @Test
    void commandsWhoseOutputsWouldBeOverKafkasLimitNeverStopTheApp() {
        StringBuilder units = new StringBuilder();
        for (int i = 0; i < 11_000; i++) {
            units.append(i == 0 ? "" : ",").append(String.format("{\"name\":\"v%06d\"}", i));
        }
        assertThat(client.post(
                                "/api/namespaces/many/commands",
                                "{\"command\":\"set_work_spec\",\"work_spec\":{\"name\":\"s\"}}")
                        .status())
                .isEqualTo(200);
        KafkaTestClient.HttpAnswer added = client.post(
                "/api/namespaces/many/commands",
                "{\"command\":\"add_work_units\",\"work_spec_name\":\"s\",\"work_units\":[" + units + "]}");
        assertThat(added.status()).isEqualTo(200);
        assertThat(added.body().get("result").get("added").asInt()).isEqualTo(11_000);

        KafkaTestClient.HttpAnswer longName = client.post(
                "/api/namespaces/many/commands",
                "{\"command\":\"add_work_units\",\"work_spec_name\":\"s\",\"work_units\":[{\"name\":\""
                        + "n".repeat(600_000) + "\"}]}");
        assertThat(longName.status()).isEqualTo(422);
        assertThat(longName.body().get("error").get("code").asText()).isEqualTo("too_large");

        // every namespace is still served, this one and another
        assertThat(unitStatus("many", "s", "v010999")).isEqualTo("available");
        assertThat(client.get("/api/namespaces/many/work-specs/s")
                        .body()
                        .get("counts")
                        .get("available")
                        .asInt())
                .isEqualTo(11_000);
        KafkaTestClient.HttpAnswer other = client.post(
                "/api/namespaces/after-many/commands",
                "{\"command\":\"set_work_spec\",\"work_spec\":{\"name\":\"s\"}}");
        assertThat(other.status()).isEqualTo(200);
        assertThat(env.application().isRunning()).isTrue();
    }

    @Test
    void theHttpGatewaySubmitsACommandAndAnswersWithItsReply() {
        KafkaTestClient.HttpAnswer answer = client.post(
                "/api/namespaces/gw/commands",
                "{\"command\":\"set_work_spec\",\"work_spec\":{\"name\":\"s\",\"priority\":3}}");
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.body().get("ok").asBoolean()).isTrue();
        assertThat(answer.body().get("result").get("meta").get("priority").asInt())
                .isEqualTo(3);

        KafkaTestClient.HttpAnswer missing = client.post(
                "/api/namespaces/gw/commands", "{\"command\":\"delete_work_spec\",\"work_spec_name\":\"nope\"}");
        assertThat(missing.status()).isEqualTo(422);
        assertThat(missing.body().get("error").get("code").asText()).isEqualTo("no_such_work_spec");
    }

    private static String unitStatus(String ns, String spec, String unit) {
        KafkaTestClient.HttpAnswer answer =
                client.get("/api/namespaces/" + ns + "/work-specs/" + spec + "/work-units/" + unit);
        assertThat(answer.status()).isEqualTo(200);
        return answer.body().get("status").asText();
    }

    private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        var header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
