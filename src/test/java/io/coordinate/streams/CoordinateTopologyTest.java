package io.coordinate.streams;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.engine.state.codec.KeySpace;
import io.coordinate.engine.state.codec.ValueCodec;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.TopicNames;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The topology with a controlled wall clock: routing to every output topic, dead letters, the punctuator. */
class CoordinateTopologyTest {

    private static final Instant START = Instant.parse("2026-11-22T10:00:00Z");
    private static final TopicNames TOPICS = TopicNames.unprefixed();

    @TempDir
    Path stateDir;

    private TopologyTestDriver driver;
    private TestInputTopic<String, String> commands;
    private TestOutputTopic<String, String> assignments;
    private TestOutputTopic<String, String> replies;
    private TestOutputTopic<String, String> events;
    private TestOutputTopic<String, String> chained;
    private TestOutputTopic<byte[], byte[]> deadLetter;

    @BeforeEach
    void start() {
        driver = TopologyDrivers.start(stateDir, 1);
        var strings = Serdes.String();
        commands = driver.createInputTopic(
                TOPICS.commands(), strings.serializer(), strings.serializer(), START, Duration.ZERO);
        assignments = driver.createOutputTopic(TOPICS.assignments(), strings.deserializer(), strings.deserializer());
        replies = driver.createOutputTopic(TOPICS.replies(), strings.deserializer(), strings.deserializer());
        events = driver.createOutputTopic(TOPICS.events(), strings.deserializer(), strings.deserializer());
        chained = driver.createOutputTopic(TOPICS.chained(), strings.deserializer(), strings.deserializer());
        var bytes = Serdes.ByteArray();
        deadLetter = driver.createOutputTopic(TOPICS.deadLetter(), bytes.deserializer(), bytes.deserializer());
    }

    @AfterEach
    void stop() {
        driver.close();
    }

    private void send(String ns, String json) {
        commands.pipeInput(ns, json);
    }

    private void setUpSpecWithUnits() {
        send("n", "{\"command\":\"set_work_spec\",\"namespace\":\"n\",\"work_spec\":{\"name\":\"spec\"}}");
        send(
                "n",
                "{\"command\":\"add_work_units\",\"namespace\":\"n\",\"work_spec_name\":\"spec\",\"work_units\":"
                        + "[{\"name\":\"a\",\"priority\":0},{\"name\":\"b\",\"priority\":10},{\"name\":\"c\",\"priority\":0}]}");
    }

    @Test
    void requestGivesOneAssignmentKeyedByWorkerBestUnitsFirst() {
        setUpSpecWithUnits();
        send(
                "n",
                "{\"command\":\"request_attempts\",\"namespace\":\"n\",\"worker\":\"w1\",\"count\":2,"
                        + "\"request_id\":\"r1\"}");

        List<TestRecord<String, String>> out = assignments.readRecordsToList();
        assertThat(out).hasSize(1);
        assertThat(out.get(0).key()).isEqualTo("w1");
        JsonNode assignment = Json.parse(out.get(0).value());
        assertThat(assignment.get("namespace").asText()).isEqualTo("n");
        assertThat(assignment.get("request_id").asText()).isEqualTo("r1");
        assertThat(assignment.get("attempts")).hasSize(2);
        assertThat(assignment.get("attempts").get(0).get("work_unit_name").asText())
                .isEqualTo("b");
        assertThat(assignment.get("attempts").get(1).get("work_unit_name").asText())
                .isEqualTo("a");
        assertThat(assignment.get("attempts").get(0).get("start_time").asText()).isEqualTo("2026-11-22T10:00:00.000Z");
        assertThat(assignment.get("attempts").get(0).get("expiration_time").asText())
                .isEqualTo("2026-11-22T10:15:00.000Z");
        assertThat(replies.isEmpty()).isTrue(); // no reply_to, no reply
    }

    @Test
    void finishRepliesOkWhenReplyToIsSet() {
        setUpSpecWithUnits();
        send("n", "{\"command\":\"request_attempts\",\"namespace\":\"n\",\"worker\":\"w1\"}");
        String attemptId = Json.parse(assignments.readValue())
                .get("attempts")
                .get(0)
                .get("attempt_id")
                .asText();

        send(
                "n",
                "{\"command\":\"finish_attempt\",\"namespace\":\"n\",\"attempt_id\":\"" + attemptId
                        + "\",\"reply_to\":\"client-1\",\"request_id\":\"r2\"}");

        TestRecord<String, String> reply = replies.readRecord();
        assertThat(reply.key()).isEqualTo("client-1");
        JsonNode value = Json.parse(reply.value());
        assertThat(value.get("ok").asBoolean()).isTrue();
        assertThat(value.get("request_id").asText()).isEqualTo("r2");
        assertThat(value.get("result").get("status").asText()).isEqualTo("finished");
        assertThat(value.get("result").get("work_unit_name").asText()).isEqualTo("b");
    }

    @Test
    void malformedRecordsGoToTheDeadLetterTopicAndTheNextCommandIsProcessed() {
        send("n", "{oops");
        send("n", "{\"command\":\"no_such\",\"namespace\":\"n\",\"reply_to\":\"c\",\"correlation_id\":\"c-1\"}");
        send("other", "{\"command\":\"set_work_spec\",\"namespace\":\"n\",\"work_spec\":{\"name\":\"s\"}}");
        send(
                "n",
                "{\"command\":\"set_work_spec\",\"namespace\":\"n\",\"work_spec\":{\"name\":\"spec\"},"
                        + "\"reply_to\":\"c\"}");

        List<TestRecord<byte[], byte[]>> dead = deadLetter.readRecordsToList();
        assertThat(dead).hasSize(3);
        assertThat(new String(dead.get(0).key(), StandardCharsets.UTF_8)).isEqualTo("n");
        assertThat(new String(dead.get(0).value(), StandardCharsets.UTF_8)).isEqualTo("{oops");
        assertThat(header(dead.get(0), "error.code")).isEqualTo("malformed_json");
        assertThat(header(dead.get(0), "source.topic")).isEqualTo("coordinate.commands");
        assertThat(header(dead.get(0), "source.partition")).isEqualTo("0");
        assertThat(header(dead.get(0), "source.offset")).isEqualTo("0");
        assertThat(header(dead.get(0), "error.message")).startsWith("value is not JSON");
        assertThat(header(dead.get(1), "error.code")).isEqualTo("unknown_command");
        assertThat(header(dead.get(1), "source.offset")).isEqualTo("1");
        assertThat(header(dead.get(2), "error.code")).isEqualTo("namespace_mismatch");

        List<JsonNode> answers =
                replies.readValuesToList().stream().map(Json::parse).toList();
        assertThat(answers).hasSize(2);
        assertThat(answers.get(0).get("ok").asBoolean()).isFalse();
        assertThat(answers.get(0).get("error").get("code").asText()).isEqualTo("unknown_command");
        assertThat(answers.get(0).get("correlation_id").asText()).isEqualTo("c-1");
        assertThat(answers.get(1).get("ok").asBoolean()).isTrue();
        assertThat(answers.get(1).get("result").get("name").asText()).isEqualTo("spec");
    }

    @Test
    void stateErrorsGetAnErrorReplyButNoDeadLetter() {
        send("n", "{\"command\":\"finish_attempt\",\"namespace\":\"n\",\"attempt_id\":\"99\",\"reply_to\":\"c\"}");

        JsonNode reply = Json.parse(replies.readValue());
        assertThat(reply.get("error").get("code").asText()).isEqualTo("no_such_attempt");
        assertThat(deadLetter.isEmpty()).isTrue();
    }

    @Test
    void thePunctuatorExpiresAttemptsOnTheWallClock() {
        setUpSpecWithUnits();
        send("n", "{\"command\":\"request_attempts\",\"namespace\":\"n\",\"worker\":\"w1\",\"lifetime\":10}");
        events.readRecordsToList();

        driver.advanceWallClockTime(Duration.ofSeconds(11));

        List<String> types = events.readValuesToList().stream()
                .flatMap(batch -> stream(Json.parse(batch).get("events")))
                .map(e ->
                        e.get("type").asText() + ":" + e.path("work_unit_name").asText())
                .collect(Collectors.toList());
        assertThat(types).containsExactly("attempt_expired:b", "unit_status_changed:b");
    }

    @Test
    void theStateVersionMovesWithWritesOnlyNotWithIdlePunctuations() {
        setUpSpecWithUnits();
        assertThat(version(StoreNames.STATE, KeySpace.stateVersion())).isEqualTo(2); // set_work_spec, add_work_units

        driver.advanceWallClockTime(Duration.ofSeconds(5)); // five time steps with nothing due: nothing to write

        assertThat(version(StoreNames.STATE, KeySpace.stateVersion())).isEqualTo(2);
        send("n", "{\"command\":\"request_attempts\",\"namespace\":\"n\",\"worker\":\"w1\",\"lifetime\":10}");
        assertThat(version(StoreNames.STATE, KeySpace.stateVersion())).isEqualTo(3);
        driver.advanceWallClockTime(Duration.ofSeconds(11)); // the attempt expires
        assertThat(version(StoreNames.STATE, KeySpace.stateVersion())).isEqualTo(4);
        assertThat(version(StoreNames.INDEXES, KeySpace.indexVersion())).isEqualTo(4);
    }

    private long version(String store, byte[] key) {
        KeyValueStore<Bytes, byte[]> kv = driver.getKeyValueStore(store);
        return ValueCodec.decodeLong(kv.get(Bytes.wrap(key)));
    }

    @Test
    void thenChainingGoesThroughTheChainedTopic() {
        send(
                "n",
                "{\"command\":\"set_work_spec\",\"namespace\":\"n\",\"work_spec\":{\"name\":\"one\",\"then\":\"two\"}}");
        send("n", "{\"command\":\"set_work_spec\",\"namespace\":\"n\",\"work_spec\":{\"name\":\"two\"}}");
        send(
                "n",
                "{\"command\":\"add_work_units\",\"namespace\":\"n\",\"work_spec_name\":\"one\",\"work_units\":"
                        + "[{\"name\":\"u\"}]}");
        send("n", "{\"command\":\"request_attempts\",\"namespace\":\"n\",\"worker\":\"w1\"}");
        String attemptId = Json.parse(assignments.readValue())
                .get("attempts")
                .get(0)
                .get("attempt_id")
                .asText();
        send(
                "n",
                "{\"command\":\"finish_attempt\",\"namespace\":\"n\",\"attempt_id\":\"" + attemptId
                        + "\",\"data\":{\"output\":{\"u2\":{\"k\":\"v\"}}}}");

        TestRecord<String, String> chainedCommand = chained.readRecord();
        assertThat(chainedCommand.key()).isEqualTo("n");
        assertThat(Json.parse(chainedCommand.value()))
                .isEqualTo(Json.parse("{\"command\":\"add_work_units\",\"namespace\":\"n\",\"work_spec_name\":\"two\","
                        + "\"work_units\":[{\"name\":\"u2\",\"data\":{\"k\":\"v\"},\"priority\":0}]}"));
        // The driver feeds the chained topic back in; the new unit is then available to a request.
        send("n", "{\"command\":\"request_attempts\",\"namespace\":\"n\",\"worker\":\"w1\",\"work_specs\":[\"two\"]}");
        JsonNode attempt = Json.parse(assignments.readValue()).get("attempts").get(0);
        assertThat(attempt.get("work_unit_name").asText()).isEqualTo("u2");
        assertThat(attempt.get("data")).isEqualTo(Json.parse("{\"k\":\"v\"}"));
    }

    private static java.util.stream.Stream<JsonNode> stream(JsonNode array) {
        return java.util.stream.StreamSupport.stream(array.spliterator(), false);
    }

    private static String header(TestRecord<byte[], byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
