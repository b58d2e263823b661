package io.coordinate.streams;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.protocol.ErrorCode;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.TopicNames;
import io.coordinate.testing.CommandFuzzer;
import io.coordinate.testing.CommandFuzzer.Input;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The share of the fuzzing that goes through the whole topology (issue 24, Deliver 3), so that keys and headers
 * reach the processor as Kafka gives them: {@link CommandFuzzer}'s records, some with forged headers
 * ({@code coordinate.rerouted}, {@code error.code}, binary junk). For every record: the processor throws nothing (a
 * throw would fail the task); a record dead-lettered or answered with an error leaves both stores exactly as they
 * were; a dead letter keeps the record's key and value byte for byte and carries a stable code.
 *
 * <p>The seed is printed; {@code -Dfuzz.seed=N} replays it, {@code -Dfuzz.topology.inputs=N} sets the count.
 */
class TopologyFuzzTest {

    private static final Instant START = Instant.parse("2026-11-22T10:00:00Z");
    private static final TopicNames TOPICS = TopicNames.unprefixed();
    /** A fresh topology (and seed state) every this many records. */
    private static final int EPOCH = 2_500;

    @TempDir
    Path stateDir;

    @Test
    void hostileRecordsNeverFailTheTaskAndChangeNothingWhenRefused() {
        long seed = Long.getLong("fuzz.seed", System.nanoTime());
        int inputs = Integer.getInteger("fuzz.topology.inputs", 10_000);
        System.out.printf("TopologyFuzzTest: %d inputs, seed %d (replay: -Dfuzz.seed=%d)%n", inputs, seed, seed);
        CommandFuzzer fuzzer = new CommandFuzzer(seed);
        SplittableRandom random = new SplittableRandom(seed);
        Map<String, Integer> outcomes = new TreeMap<>();
        for (int epoch = 0; epoch * EPOCH < inputs; epoch++) {
            try (Run run = new Run(stateDir.resolve("epoch-" + epoch))) {
                for (int i = epoch * EPOCH; i < Math.min(inputs, (epoch + 1) * EPOCH); i++) {
                    Input input = fuzzer.next();
                    Header[] headers = headers(random);
                    try {
                        outcomes.merge(run.apply(input, headers), 1, Integer::sum);
                    } catch (Throwable e) {
                        throw new AssertionError(
                                "seed " + seed + ", input " + i + ": " + input.describe() + " headers="
                                        + Arrays.toString(headers) + ": "
                                        + (e instanceof AssertionError ? "" : "threw ") + e,
                                e);
                    }
                }
            }
        }
        System.out.printf("TopologyFuzzTest: %d inputs done, seed %d: %s%n", inputs, seed, outcomes);
        assertThat(outcomes.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(inputs);
        assertThat(outcomes).containsKeys("ok", "dead-letter", "error reply");
    }

    private static Header[] headers(SplittableRandom random) {
        return switch (random.nextInt(10)) {
            case 0 -> new Header[] {new RecordHeader(CommandProcessor.REROUTED_HEADER, new byte[] {1})};
            case 1 ->
                new Header[] {
                    new RecordHeader(CommandProcessor.REROUTED_HEADER, null),
                    new RecordHeader("error.code", "ok".getBytes(StandardCharsets.UTF_8))
                };
            case 2 ->
                new Header[] {
                    new RecordHeader("source.topic", new byte[] {(byte) 0xff, 0}), new RecordHeader("", new byte[0])
                };
            default -> new Header[0];
        };
    }

    /** One topology with the seed state. */
    private static final class Run implements AutoCloseable {

        private final TopologyTestDriver driver;
        private final TestInputTopic<byte[], byte[]> commands;
        private final TestOutputTopic<String, String> replies;
        private final TestOutputTopic<byte[], byte[]> deadLetter;
        private final List<TestOutputTopic<byte[], byte[]>> others;
        private final KeyValueStore<Bytes, byte[]> state;
        private final KeyValueStore<Bytes, byte[]> indexes;

        Run(Path stateDir) {
            driver = TopologyDrivers.start(stateDir, 1);
            var bytes = Serdes.ByteArray();
            commands = driver.createInputTopic(
                    TOPICS.commands(), bytes.serializer(), bytes.serializer(), START, Duration.ZERO);
            replies = driver.createOutputTopic(
                    TOPICS.replies(),
                    Serdes.String().deserializer(),
                    Serdes.String().deserializer());
            deadLetter = driver.createOutputTopic(TOPICS.deadLetter(), bytes.deserializer(), bytes.deserializer());
            others = List.of(TOPICS.events(), TOPICS.assignments(), TOPICS.chained(), TOPICS.results()).stream()
                    .map(topic -> driver.createOutputTopic(topic, bytes.deserializer(), bytes.deserializer()))
                    .toList();
            state = driver.getKeyValueStore(StoreNames.STATE);
            indexes = driver.getKeyValueStore(StoreNames.INDEXES);
            for (String command : CommandFuzzer.seedCommands()) {
                commands.pipeInput(
                        CommandFuzzer.NAMESPACE.getBytes(StandardCharsets.UTF_8),
                        command.getBytes(StandardCharsets.UTF_8));
            }
            assertThat(deadLetter.isEmpty()).as("the seed commands are valid").isTrue();
            drain();
        }

        /** Pipes the record in and checks what came out; returns its outcome, for the counts. */
        String apply(Input input, Header[] headers) {
            long before = digest();
            commands.pipeInput(
                    new TestRecord<>(input.key(), input.value(), new RecordHeaders(headers), START.plusSeconds(1)));
            List<TestRecord<byte[], byte[]>> dead = deadLetter.readRecordsToList();
            List<JsonNode> answers =
                    replies.readValuesToList().stream().map(Json::parse).toList();
            drain();
            if (!dead.isEmpty()) {
                assertThat(dead).hasSize(1);
                TestRecord<byte[], byte[]> copy = dead.get(0);
                assertThat(copy.key()).as("the dead letter's key").isEqualTo(input.key());
                assertThat(copy.value()).as("the dead letter's value").isEqualTo(input.value());
                String code = new String(copy.headers().lastHeader("error.code").value(), StandardCharsets.UTF_8);
                assertThat(Arrays.stream(ErrorCode.values())
                                .filter(ErrorCode::deadLetter)
                                .map(ErrorCode::code))
                        .as("a dead-letter code")
                        .contains(code);
                assertThat(code).isNotEqualTo(ErrorCode.INTERNAL_ERROR.code());
                assertThat(answers.size()).as("at most one reply").isLessThanOrEqualTo(1);
                assertThat(digest())
                        .as("the stores after a dead-lettered record")
                        .isEqualTo(before);
                return "dead-letter";
            }
            if (answers.isEmpty()) {
                return "no reply"; // no reply_to: a refused command changed nothing too, as EngineFuzzTest checks
            }
            assertThat(answers).hasSize(1);
            JsonNode reply = answers.get(0);
            if (reply.get("ok").asBoolean()) {
                return "ok";
            }
            assertThat(reply.get("error").get("code").asText()).isNotEqualTo(ErrorCode.INTERNAL_ERROR.code());
            assertThat(digest()).as("the stores after an error reply %s", reply).isEqualTo(before);
            return "error reply";
        }

        /** Reads the other outputs, so that they do not pile up. */
        private void drain() {
            others.forEach(TestOutputTopic::readRecordsToList);
        }

        /** A digest of every entry of both stores. */
        private long digest() {
            return digest(state) * 31 + digest(indexes);
        }

        private static long digest(KeyValueStore<Bytes, byte[]> store) {
            long digest = 1;
            try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
                while (it.hasNext()) {
                    KeyValue<Bytes, byte[]> entry = it.next();
                    digest = digest * 1_000_003 + Arrays.hashCode(entry.key.get());
                    digest = digest * 1_000_003 + Arrays.hashCode(entry.value);
                }
            }
            return digest;
        }

        @Override
        public void close() {
            driver.close();
        }
    }
}
