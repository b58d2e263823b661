package io.coordinate.streams;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.client.NamespacePartitioner;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.TopicNames;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Only the task that owns a namespace applies its commands, whatever the record's headers say; a record too large
 * to copy whole is dead-lettered in part. The driver reads every record from partition 0 of six.
 */
class CommandRoutingTest {

    private static final Instant START = Instant.parse("2026-11-22T10:00:00Z");
    private static final TopicNames TOPICS = TopicNames.unprefixed();
    private static final int PARTITIONS = 6;

    @TempDir
    Path stateDir;

    private TopologyTestDriver driver;
    private TestInputTopic<byte[], byte[]> commands;
    private TestInputTopic<byte[], byte[]> chainedIn;
    private TestOutputTopic<String, String> commandsOut;
    private TestOutputTopic<String, String> replies;
    private TestOutputTopic<byte[], byte[]> deadLetter;

    @BeforeEach
    void start() {
        driver = TopologyDrivers.start(stateDir, PARTITIONS);
        var bytes = Serdes.ByteArray();
        var strings = Serdes.String();
        commands = driver.createInputTopic(
                TOPICS.commands(), bytes.serializer(), bytes.serializer(), START, Duration.ZERO);
        chainedIn =
                driver.createInputTopic(TOPICS.chained(), bytes.serializer(), bytes.serializer(), START, Duration.ZERO);
        commandsOut = driver.createOutputTopic(TOPICS.commands(), strings.deserializer(), strings.deserializer());
        replies = driver.createOutputTopic(TOPICS.replies(), strings.deserializer(), strings.deserializer());
        deadLetter = driver.createOutputTopic(TOPICS.deadLetter(), bytes.deserializer(), bytes.deserializer());
    }

    @AfterEach
    void stop() {
        driver.close();
    }

    /** The first namespace name of the form {@code ns<i>} that Kafka's default partitioner puts where asked. */
    private static String namespaceOn(boolean partitionZero) {
        for (int i = 0; ; i++) {
            String ns = "ns" + i;
            boolean zero = NamespacePartitioner.partition(ns.getBytes(StandardCharsets.UTF_8), PARTITIONS) == 0;
            if (zero == partitionZero) {
                return ns;
            }
        }
    }

    private static byte[] setSpec(String ns) {
        return ("{\"command\":\"set_work_spec\",\"namespace\":\"" + ns + "\",\"work_spec\":{\"name\":\"s\"},"
                        + "\"reply_to\":\"c\",\"request_id\":\"r1\"}")
                .getBytes(StandardCharsets.UTF_8);
    }

    private long storedEntries() {
        KeyValueStore<Bytes, byte[]> store = driver.getKeyValueStore(StoreNames.STATE);
        long count = 0;
        try (KeyValueIterator<Bytes, byte[]> all = store.all()) {
            while (all.hasNext()) {
                all.next();
                count++;
            }
        }
        return count;
    }

    private static String header(TestRecord<byte[], byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    @Test
    void aCommandOnItsOwnPartitionIsApplied() {
        String ns = namespaceOn(true);
        commands.pipeInput(ns.getBytes(StandardCharsets.UTF_8), setSpec(ns));

        assertThat(Json.parse(replies.readValue()).get("ok").asBoolean()).isTrue();
        assertThat(deadLetter.isEmpty()).isTrue();
    }

    @Test
    void aForgedReroutedHeaderDoesNotGetACommandAppliedOnAnotherNamespacesPartition() {
        String ns = namespaceOn(false);
        long before = storedEntries();
        RecordHeaders forged = new RecordHeaders();
        forged.add(CommandProcessor.REROUTED_HEADER, new byte[] {1});
        commands.pipeInput(new TestRecord<>(ns.getBytes(StandardCharsets.UTF_8), setSpec(ns), forged, START));

        List<TestRecord<byte[], byte[]>> dead = deadLetter.readRecordsToList();
        assertThat(dead).hasSize(1);
        assertThat(header(dead.get(0), "error.code")).isEqualTo("wrong_partition");
        assertThat(header(dead.get(0), "error.message"))
                .isEqualTo("the key belongs to partition "
                        + NamespacePartitioner.partition(ns.getBytes(StandardCharsets.UTF_8), PARTITIONS)
                        + " of 6, not 0");
        JsonNode reply = Json.parse(replies.readValue());
        assertThat(reply.get("ok").asBoolean()).isFalse();
        assertThat(reply.get("error").get("code").asText()).isEqualTo("wrong_partition");
        assertThat(storedEntries()).isEqualTo(before);
    }

    @Test
    void aCommandOnAnotherPartitionIsMovedOnceThenRefusedNeverAppliedHere() {
        String ns = namespaceOn(false);
        long before = storedEntries();
        commands.pipeInput(ns.getBytes(StandardCharsets.UTF_8), setSpec(ns));

        List<TestRecord<String, String>> moved = commandsOut.readRecordsToList();
        assertThat(moved).hasSize(1);
        assertThat(moved.get(0).key()).isEqualTo(ns);
        assertThat(moved.get(0)
                        .headers()
                        .lastHeader(CommandProcessor.REROUTED_HEADER)
                        .value())
                .containsExactly(1);
        // The driver reads the moved record back from partition 0 again, as after a change of the partition count:
        // it is refused, not moved again
        List<TestRecord<byte[], byte[]>> dead = deadLetter.readRecordsToList();
        assertThat(dead).hasSize(1);
        assertThat(header(dead.get(0), "error.code")).isEqualTo("wrong_partition");
        assertThat(header(dead.get(0), CommandProcessor.REROUTED_HEADER)).isEqualTo("\u0001");
        assertThat(Json.parse(replies.readValue()).get("error").get("code").asText())
                .isEqualTo("wrong_partition");
        assertThat(replies.isEmpty()).isTrue();
        assertThat(storedEntries()).isEqualTo(before);
    }

    @Test
    void aChainedCommandOnAnotherNamespacesPartitionIsDeadLettered() {
        String ns = namespaceOn(false);
        long before = storedEntries();
        chainedIn.pipeInput(ns.getBytes(StandardCharsets.UTF_8), setSpec(ns));

        List<TestRecord<byte[], byte[]>> dead = deadLetter.readRecordsToList();
        assertThat(dead).hasSize(1);
        assertThat(header(dead.get(0), "error.code")).isEqualTo("wrong_partition");
        assertThat(header(dead.get(0), "source.topic")).isEqualTo(TOPICS.chained());
        assertThat(commandsOut.isEmpty()).isTrue();
        assertThat(storedEntries()).isEqualTo(before);
    }

    @Test
    void aRecordOverTheLimitIsRefusedAndItsDeadLetterKeepsItsFirst64KiB() {
        String ns = namespaceOn(true);
        String data = "d".repeat(1_100_000);
        byte[] value = ("{\"command\":\"set_work_spec\",\"namespace\":\"" + ns
                        + "\",\"work_spec\":{\"name\":\"s\",\"x\":\"" + data
                        + "\"},\"reply_to\":\"c\",\"request_id\":\"big\"}")
                .getBytes(StandardCharsets.UTF_8);
        long before = storedEntries();
        commands.pipeInput(ns.getBytes(StandardCharsets.UTF_8), value);

        List<TestRecord<byte[], byte[]>> dead = deadLetter.readRecordsToList();
        assertThat(dead).hasSize(1);
        assertThat(header(dead.get(0), "error.code")).isEqualTo("too_large");
        assertThat(header(dead.get(0), "error.message"))
                .isEqualTo("the record is " + (value.length + ns.length()) + " bytes; at most 1000000");
        assertThat(header(dead.get(0), "error.original.value.bytes")).isEqualTo(Integer.toString(value.length));
        assertThat(header(dead.get(0), "error.original.key.bytes")).isEqualTo(Integer.toString(ns.length()));
        assertThat(dead.get(0).value()).hasSize(CommandProcessor.DEAD_LETTER_VALUE_BYTES);
        assertThat(new String(dead.get(0).key(), StandardCharsets.UTF_8)).isEqualTo(ns);
        JsonNode reply = Json.parse(replies.readValue());
        assertThat(reply.get("request_id").asText()).isEqualTo("big");
        assertThat(reply.get("error").get("code").asText()).isEqualTo("too_large");
        assertThat(storedEntries()).isEqualTo(before);
    }
}
