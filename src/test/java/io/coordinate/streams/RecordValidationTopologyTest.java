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

/**
 * Records the processor must refuse without failing its task. A command's key must be valid UTF-8 and equal its {@code namespace} (issue 24, defect 2): keys \xff and \xfe with
 * {@code "namespace"} U+FFFD were both accepted, as the same namespace, on different partitions.
 */
class RecordValidationTopologyTest {

    private static final Instant START = Instant.parse("2026-11-22T10:00:00Z");
    private static final TopicNames TOPICS = TopicNames.unprefixed();

    @TempDir
    Path stateDir;

    private TopologyTestDriver driver;
    private TestInputTopic<byte[], byte[]> commands;
    private TestOutputTopic<String, String> replies;
    private TestOutputTopic<String, String> events;
    private TestOutputTopic<byte[], byte[]> deadLetter;

    @BeforeEach
    void start() {
        driver = TopologyDrivers.start(stateDir, 1);
        var bytes = Serdes.ByteArray();
        var strings = Serdes.String();
        commands = driver.createInputTopic(
                TOPICS.commands(), bytes.serializer(), bytes.serializer(), START, Duration.ZERO);
        replies = driver.createOutputTopic(TOPICS.replies(), strings.deserializer(), strings.deserializer());
        events = driver.createOutputTopic(TOPICS.events(), strings.deserializer(), strings.deserializer());
        deadLetter = driver.createOutputTopic(TOPICS.deadLetter(), bytes.deserializer(), bytes.deserializer());
    }

    @AfterEach
    void stop() {
        driver.close();
    }

    @Test
    void aKeyThatIsNotUtf8IsDeadLetteredAndAnsweredAndChangesNothing() {
        String value = "{\"command\":\"set_work_spec\",\"namespace\":\"\\ufffd\",\"work_spec\":{\"name\":\"s\"},"
                + "\"reply_to\":\"c\",\"request_id\":\"r1\"}";
        commands.pipeInput(new byte[] {(byte) 0xff}, value.getBytes(StandardCharsets.UTF_8));
        commands.pipeInput(new byte[] {(byte) 0xfe}, value.getBytes(StandardCharsets.UTF_8));

        List<TestRecord<byte[], byte[]>> dead = deadLetter.readRecordsToList();
        assertThat(dead).hasSize(2);
        assertThat(dead.get(0).key()).isEqualTo(new byte[] {(byte) 0xff});
        assertThat(dead.get(1).key()).isEqualTo(new byte[] {(byte) 0xfe});
        assertThat(header(dead.get(0), "error.code")).isEqualTo("namespace_mismatch");
        assertThat(header(dead.get(0), "error.message")).isEqualTo("the record key is not valid UTF-8");
        List<JsonNode> answers =
                replies.readValuesToList().stream().map(Json::parse).toList();
        assertThat(answers)
                .containsExactly(
                        Json.parse("{\"request_id\":\"r1\",\"ok\":false,\"error\":{\"code\":"
                                + "\"namespace_mismatch\",\"message\":\"the record key is not valid UTF-8\"}}"),
                        Json.parse("{\"request_id\":\"r1\",\"ok\":false,\"error\":{\"code\":"
                                + "\"namespace_mismatch\",\"message\":\"the record key is not valid UTF-8\"}}"));
        assertNothingChanged();
    }

    /** Found by {@code EngineFuzzTest}: Jackson threw NumberFormatException out of the parser, so out of the task. */
    @Test
    void aNumberWithAnExponentTooLargeForJacksonIsDeadLetteredAndTheNextCommandRuns() {
        commands.pipeInput(
                "ns".getBytes(StandardCharsets.UTF_8),
                ("{\"command\":\"deactivate_worker\",\"namespace\":"
                                + "\"ns\",\"worker\":1E+9999999997,\"reply_to\":\"c\"}")
                        .getBytes(StandardCharsets.UTF_8));
        commands.pipeInput(
                "ns".getBytes(StandardCharsets.UTF_8),
                ("{\"command\":\"worker_heartbeat\",\"namespace\":"
                                + "\"ns\",\"worker\":\"w\",\"reply_to\":\"c\",\"request_id\":\"r2\"}")
                        .getBytes(StandardCharsets.UTF_8));

        List<TestRecord<byte[], byte[]>> dead = deadLetter.readRecordsToList();
        assertThat(dead).hasSize(1);
        assertThat(header(dead.get(0), "error.code")).isEqualTo("malformed_json");
        assertThat(header(dead.get(0), "error.message"))
                .startsWith("value is not JSON: Value \"1E+9999999997\" can not be deserialized");
        List<JsonNode> answers =
                replies.readValuesToList().stream().map(Json::parse).toList();
        assertThat(answers).hasSize(1);
        assertThat(answers.get(0).get("request_id").asText()).isEqualTo("r2");
        assertThat(answers.get(0).get("ok").asBoolean()).isTrue();
    }

    @Test
    void aNewNamespaceNamedDotDotOrWithNulIsDeadLetteredAndAnsweredAndChangesNothing() {
        String[] names = {"..", "a\u0000b"};
        for (String ns : names) {
            commands.pipeInput(
                    ns.getBytes(StandardCharsets.UTF_8),
                    Json.bytes(Json.object()
                            .put("command", "set_work_spec")
                            .put("namespace", ns)
                            .put("reply_to", "c")
                            .put("request_id", "r1")
                            .set("work_spec", Json.object().put("name", "s"))));
        }

        List<TestRecord<byte[], byte[]>> dead = deadLetter.readRecordsToList();
        assertThat(dead).hasSize(2);
        assertThat(dead.get(0).key()).isEqualTo(new byte[] {'.', '.'});
        assertThat(header(dead.get(0), "error.code")).isEqualTo("bad_command");
        assertThat(header(dead.get(0), "error.message")).isEqualTo("\"namespace\" must not be \".\" or \"..\"");
        assertThat(dead.get(1).key()).isEqualTo(new byte[] {'a', 0, 'b'});
        assertThat(header(dead.get(1), "error.message")).isEqualTo("\"namespace\" must not hold the character U+0000");
        assertThat(replies.readValuesToList().stream().map(Json::parse).toList())
                .containsExactly(
                        Json.parse("{\"request_id\":\"r1\",\"ok\":false,\"error\":{\"code\":\"bad_command\","
                                + "\"message\":\"\\\"namespace\\\" must not be \\\".\\\" or \\\"..\\\"\"}}"),
                        Json.parse("{\"request_id\":\"r1\",\"ok\":false,\"error\":{\"code\":\"bad_command\","
                                + "\"message\":\"\\\"namespace\\\" must not hold the character U+0000\"}}"));
        assertNothingChanged();
    }

    /** Jackson alone reads UTF-16 and UTF-32, and skips a UTF-8 byte order mark: only UTF-8 is accepted. */
    @Test
    void aValueInUtf16IsDeadLetteredAsMalformedJsonAndGetsNoReply() {
        String value = "{\"command\":\"worker_heartbeat\",\"namespace\":\"ns\",\"worker\":\"w\",\"reply_to\":\"c\"}";
        commands.pipeInput("ns".getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_16LE));

        List<TestRecord<byte[], byte[]>> dead = deadLetter.readRecordsToList();
        assertThat(dead).hasSize(1);
        assertThat(dead.get(0).value()).isEqualTo(value.getBytes(StandardCharsets.UTF_16LE));
        assertThat(header(dead.get(0), "error.code")).isEqualTo("malformed_json");
        assertThat(header(dead.get(0), "error.message"))
                .isEqualTo("value is not JSON: a zero byte in its first four "
                        + "bytes (UTF-16 or UTF-32?): the value must be UTF-8");
        assertThat(replies.isEmpty())
                .as("nothing can be read from it, reply_to neither")
                .isTrue();
        assertNothingChanged();
    }

    /** No event, and no write at all to the state store. */
    private void assertNothingChanged() {
        assertThat(events.isEmpty()).isTrue();
        KeyValueStore<Bytes, byte[]> state = driver.getKeyValueStore(StoreNames.STATE);
        byte[] version = state.get(Bytes.wrap(KeySpace.stateVersion()));
        assertThat(version == null ? 0 : ValueCodec.decodeLong(version))
                .as("no write at all")
                .isZero();
    }

    private static String header(TestRecord<byte[], byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
