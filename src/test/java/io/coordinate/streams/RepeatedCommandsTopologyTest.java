package io.coordinate.streams;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.TopicNames;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A client's retries as they reach the topics: the same answer again, no second event. */
class RepeatedCommandsTopologyTest {

    private static final Instant START = Instant.parse("2026-11-22T10:00:00Z");
    private static final TopicNames TOPICS = TopicNames.unprefixed();

    @TempDir
    Path stateDir;

    private TopologyTestDriver driver;
    private TestInputTopic<String, String> commands;
    private TestOutputTopic<String, String> assignments;
    private TestOutputTopic<String, String> replies;
    private TestOutputTopic<String, String> events;

    @BeforeEach
    void start() {
        driver = TopologyDrivers.start(stateDir, 1);
        var strings = Serdes.String();
        commands = driver.createInputTopic(
                TOPICS.commands(), strings.serializer(), strings.serializer(), START, Duration.ZERO);
        assignments = driver.createOutputTopic(TOPICS.assignments(), strings.deserializer(), strings.deserializer());
        replies = driver.createOutputTopic(TOPICS.replies(), strings.deserializer(), strings.deserializer());
        events = driver.createOutputTopic(TOPICS.events(), strings.deserializer(), strings.deserializer());
        commands.pipeInput(
                "n", "{\"command\":\"set_work_spec\",\"namespace\":\"n\",\"work_spec\":{\"name\":\"spec\"}}");
        commands.pipeInput(
                "n",
                "{\"command\":\"add_work_units\",\"namespace\":\"n\",\"work_spec_name\":\"spec\","
                        + "\"work_units\":[{\"name\":\"a\"},{\"name\":\"b\"},{\"name\":\"c\"}]}");
        events.readRecordsToList();
    }

    @AfterEach
    void stop() {
        driver.close();
    }

    @Test
    void aRepeatedRequestIdGetsTheFirstAssignmentAndReplyAgain() {
        String request = "{\"command\":\"request_attempts\",\"namespace\":\"n\",\"worker\":\"w1\",\"count\":2,"
                + "\"request_id\":\"r1\",\"reply_to\":\"client\"}";
        commands.pipeInput("n", request);
        TestRecord<String, String> firstAssignment = assignments.readRecord();
        TestRecord<String, String> firstReply = replies.readRecord();
        assertThat(events.readRecordsToList()).hasSize(1);

        driver.advanceWallClockTime(Duration.ofSeconds(30));
        commands.pipeInput("n", request);

        List<TestRecord<String, String>> again = assignments.readRecordsToList();
        assertThat(again).hasSize(1);
        assertThat(again.get(0).key()).isEqualTo("w1");
        assertThat(again.get(0).value()).isEqualTo(firstAssignment.value());
        assertThat(Json.parse(firstAssignment.value()).get("attempts")).hasSize(2);
        TestRecord<String, String> reply = replies.readRecord();
        assertThat(reply.key()).isEqualTo("client");
        assertThat(Json.parse(reply.value())).isEqualTo(Json.parse(firstReply.value()));
        assertThat(events.isEmpty()).as("a repeat changes nothing").isTrue();

        commands.pipeInput("n", request.replace("r1", "r2"));
        assertThat(Json.parse(assignments.readValue()).get("attempts"))
                .as("a new id: the last unit")
                .hasSize(1);
    }

    @Test
    void aSecondFinishAnswersOkWithTheSameResultAndNoEvent() {
        commands.pipeInput("n", "{\"command\":\"request_attempts\",\"namespace\":\"n\",\"worker\":\"w1\"}");
        String attemptId = Json.parse(assignments.readValue())
                .get("attempts")
                .get(0)
                .get("attempt_id")
                .asText();
        events.readRecordsToList();
        String finish = "{\"command\":\"finish_attempt\",\"namespace\":\"n\",\"attempt_id\":\"" + attemptId
                + "\",\"reply_to\":\"client\",\"request_id\":\"%s\"}";
        commands.pipeInput("n", String.format(finish, "f1"));
        JsonNode first = Json.parse(replies.readValue());
        assertThat(events.readRecordsToList()).hasSize(1);

        commands.pipeInput("n", String.format(finish, "f2")); // a retry with an id of its own

        JsonNode second = Json.parse(replies.readValue());
        assertThat(second.get("ok").asBoolean()).isTrue();
        assertThat(second.get("request_id").asText()).isEqualTo("f2");
        assertThat(second.get("result")).isEqualTo(first.get("result"));
        assertThat(second.get("result").get("status").asText()).isEqualTo("finished");
        assertThat(events.isEmpty()).isTrue();
    }
}
