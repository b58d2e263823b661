package io.coordinate.engine.state.db;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.state.codec.BinaryRecords;
import io.coordinate.engine.state.codec.UnitKeys;
import io.coordinate.engine.state.codec.UnitValue;
import io.coordinate.engine.state.codec.ValueCodec;
import io.coordinate.engine.state.model.Answer;
import io.coordinate.engine.state.model.AttemptProgress;
import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.engine.state.model.AttemptStatus;
import io.coordinate.engine.state.model.ChildState;
import io.coordinate.engine.state.model.NamespaceRecord;
import io.coordinate.engine.state.model.Replica;
import io.coordinate.engine.state.model.ReplicaOutcome;
import io.coordinate.engine.state.model.ReplicationConfig;
import io.coordinate.engine.state.model.ReplicationState;
import io.coordinate.engine.state.model.UnitFamily;
import io.coordinate.engine.state.model.UnitRef;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.engine.state.model.ValidateState;
import io.coordinate.engine.state.model.WorkSpecMeta;
import io.coordinate.engine.state.model.WorkSpecRecord;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.engine.state.model.WorkerRecord;
import io.coordinate.engine.state.model.WorkerReliability;
import io.coordinate.protocol.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Stored values as bytes written by an earlier version of the code, checked in under
 * {@code src/test/resources/golden/}: the code of today must read each back as the record it was, so a running
 * deployment's state store and changelog stay readable after an upgrade. And today's code must still write those
 * bytes: a test that fails here means the layout changed. Then give the layout a new version (as
 * {@link BinaryRecords#VERSION}), keep reading the values of the old one (or migrate them), add a new file to
 * {@link #FIXTURES} and write it with {@code mvn test -Dtest=StoredValuesGoldenTest -Dgolden.write=true}; the old
 * files stay, read-only.
 */
class StoredValuesGoldenTest {

    /**
     * The fixtures, oldest first; the last is what this version writes. v1: before units entries had a version
     * byte ({@link AttemptBlockValues#UNITS_VERSION}); v2: before a unit's value with its attempt had one
     * ({@link UnitValue#VERSION}); v3: before units and attempts took {@link BinaryRecords} version 2 (a unit's
     * {@code availableSince}); v4: before they took version 3 (an attempt's {@code progress}, the {@code cancelled}
     * statuses); v5: before they took version 4 (a unit's {@code group}).
     */
    private static final List<String> FIXTURES = List.of(
            "golden/stored-values-v1.txt",
            "golden/stored-values-v2.txt",
            "golden/stored-values-v3.txt",
            "golden/stored-values-v4.txt",
            "golden/stored-values-v5.txt",
            "golden/stored-values-v6.txt");

    private static final String CURRENT = FIXTURES.get(FIXTURES.size() - 1);
    private static final HexFormat HEX = HexFormat.of();
    private static final byte[] UNIT_KEY = UnitKeys.unit("ns", "spec", "plain");

    private static final UnitFamily FAMILY = new UnitFamily(
            new UnitRef("jobs", "parent"),
            new UnitRef("etl", "before"),
            ChildState.PARKED,
            42L,
            true,
            Json.parse("{\"traceback\":\"child failed\"}"));

    private static final ReplicationState REPLICATION = new ReplicationState(
            3,
            5,
            ReplicationState.CANCELLED,
            7L,
            1_800_000_000_123L,
            List.of(
                    new Replica(5, "w1", "h1", 1_800_000_000_000L, null, null, null),
                    new Replica(6, "w2", "h2", 1L, ReplicaOutcome.SUCCESS, ValidateState.VALID, "ab12")));

    private static final WorkUnitRecord UNIT = WorkUnitRecord.builder("spec", "unit")
            .data(Json.parse("{\"d\":1.10,\"i\":2147483648,\"s\":\"é名\",\"o\":{\"a\":[1,[true,null]]}}"))
            .priority(2.5)
            .notBefore(1_800_000_000_000L)
            .status(UnitStatus.BLOCKED)
            .activeAttempt(99L)
            .attemptCount(3)
            .family(FAMILY)
            .replication(REPLICATION)
            .purgeAt(1_900_000_000_000L)
            .build();

    private static final WorkUnitRecord PLAIN_UNIT = WorkUnitRecord.builder("spec", "plain")
            .data(Json.parse("{\"n\":1}"))
            .build();

    /** A unit that waits since a known time (the units of the older fixtures read back without one). */
    private static final WorkUnitRecord WAITING_UNIT =
            PLAIN_UNIT.toBuilder().availableSince(1_800_000_000_456L).build();

    private static final AttemptRecord ATTEMPT = new AttemptRecord(
            99,
            "spec",
            "unit",
            "worker-1",
            AttemptStatus.FINISHED,
            Json.parse("{\"result\":[1,2.50]}"),
            1_800_000_000_000L,
            1_800_000_900_000L,
            1_800_000_100_000L,
            false,
            null);

    /** As a request starts it: the unit's data is the attempt's. */
    private static final AttemptRecord STARTED = new AttemptRecord(
            7,
            "spec",
            "plain",
            "worker-2",
            AttemptStatus.PENDING,
            PLAIN_UNIT.data(),
            1_800_000_000_000L,
            1_800_000_900_000L,
            null,
            false,
            null);

    private static final WorkSpecRecord SPEC = new WorkSpecRecord(
            "spec",
            (ObjectNode) Json.parse("{\"name\":\"spec\",\"priority\":2}"),
            new WorkSpecMeta(
                    2,
                    20,
                    false,
                    true,
                    true,
                    300,
                    1_800_000_000_000L,
                    10,
                    100,
                    3,
                    "next",
                    "go",
                    1.5,
                    new ReplicationConfig(2, 3, 4, 5, 6, 86_400.0, "digest"),
                    3_600.0,
                    null,
                    null,
                    null));

    private static final WorkerRecord WORKER = new WorkerRecord(
            "worker-1",
            "parent",
            true,
            "run",
            Json.parse("{\"host\":\"h\",\"pid\":42}"),
            1_800_000_090_000L,
            1_800_000_000_000L,
            new WorkerReliability(1, 2, 3, 4, 5));

    /** One sample of each kind of stored value, with what writes it and what it reads back as. */
    private record Sample(Object expected, Function<Object, byte[]> write, Function<byte[], Object> read) {}

    private static Sample record(Object value) {
        Class<?> type = value.getClass();
        return new Sample(value, ValueCodec::encode, bytes -> ValueCodec.decode(bytes, type));
    }

    private static Sample smile(Object value) {
        Class<?> type = value.getClass();
        return new Sample(value, ValueCodec::encodeSmile, bytes -> ValueCodec.decode(bytes, type));
    }

    private static Sample answer(Answer answer) {
        return new Sample(describe(answer), value -> answer.encode(), bytes -> describe(Answer.decode(bytes)));
    }

    private static String describe(Answer answer) {
        return answer.kind() + " until " + answer.expiresAt() + ": "
                + switch (answer.kind()) {
                    case RESULT -> new String(answer.resultJson(), StandardCharsets.UTF_8);
                    case ATTEMPT -> Long.toString(answer.attemptSeq());
                    case ATTEMPTS -> Arrays.toString(answer.attemptSeqs());
                };
    }

    /** What a started-units entry of index layout 3 held for a started unit: the worker, the start, the expiration. */
    static byte[] legacyDelta(AttemptRecord attempt) {
        byte[] worker = attempt.worker().getBytes(StandardCharsets.UTF_8);
        return java.nio.ByteBuffer.allocate(Integer.BYTES + worker.length + 2 * Long.BYTES)
                .putInt(worker.length)
                .put(worker)
                .putLong(attempt.startTime())
                .putLong(attempt.expirationTime())
                .array();
    }

    private static Map<String, Sample> samples() {
        Map<String, Sample> samples = new LinkedHashMap<>();
        samples.put("unit", record(UNIT));
        samples.put("unit-plain", record(PLAIN_UNIT));
        samples.put("unit-available-since", record(WAITING_UNIT));
        samples.put(
                "unit-group", record(PLAIN_UNIT.toBuilder().group("customer-7").build()));
        samples.put("attempt", record(ATTEMPT));
        samples.put(
                "attempt-progress",
                record(ATTEMPT.withRenewal(
                        ATTEMPT.expirationTime(),
                        ATTEMPT.data(),
                        new AttemptProgress(0.25, "a quarter é", 1_800_000_050_000L))));
        samples.put(
                "attempt-progress-message",
                record(STARTED.withRenewal(
                        STARTED.expirationTime(), STARTED.data(), new AttemptProgress(null, "", 1_800_000_060_000L))));
        samples.put(
                "attempt-cancelled",
                record(STARTED.withStatus(AttemptStatus.CANCELLED, STARTED.data(), 1_800_000_070_000L)));
        samples.put(
                "unit-cancelled",
                record(PLAIN_UNIT.toBuilder().status(UnitStatus.CANCELLED).build()));
        samples.put("spec", record(SPEC));
        samples.put("worker", record(WORKER));
        samples.put("namespace", record(new NamespaceRecord("ns", 1_800_000_000_000L)));
        // Units and attempts as versions before the binary layout stored them: still read.
        samples.put("unit-smile", smile(UNIT));
        samples.put("attempt-smile", smile(ATTEMPT));
        // A unit's value with its latest attempt inside (UnitValue): read back as both.
        samples.put(
                "unit-with-attempt",
                new Sample(
                        List.of(UNIT, ATTEMPT),
                        value -> UnitValue.of(ValueCodec.encode(UNIT), ATTEMPT.seq(), ValueCodec.encode(ATTEMPT)),
                        bytes -> List.of(
                                ValueCodec.decode(bytes, WorkUnitRecord.class),
                                ValueCodec.decode(UnitValue.attempt(bytes), AttemptRecord.class))));
        // A started unit's entry in its block (index layout 3 and before): only what the start added, the rest follows
        // from the unit's record. Today's code only reads it, to fold it into the record (StartEntriesMigration).
        samples.put(
                "started-unit-delta",
                new Sample(
                        List.of(PLAIN_UNIT.startedOn(STARTED.seq()), STARTED), value -> legacyDelta(STARTED), bytes -> {
                            byte[] stored =
                                    StartEntriesMigration.value(ValueCodec.encode(PLAIN_UNIT), STARTED.seq(), bytes);
                            return List.of(
                                    ValueCodec.decode(stored, WorkUnitRecord.class),
                                    ValueCodec.decode(UnitValue.attempt(stored), AttemptRecord.class));
                        }));
        // A block's units entry ('X' and the started units' 'O'): by offset in the block, a unit's key, and for a
        // started unit what its start added.
        samples.put(
                "started-units-entry",
                new Sample(
                        List.of(
                                "7 " + HEX.formatHex(UNIT_KEY) + " " + HEX.formatHex(legacyDelta(STARTED)),
                                "9 " + HEX.formatHex(UNIT_KEY) + " -"),
                        value -> {
                            byte[][] keys = new byte[64][];
                            byte[][] values = new byte[64][];
                            keys[7] = UNIT_KEY;
                            values[7] = legacyDelta(STARTED);
                            keys[9] = UNIT_KEY;
                            return AttemptBlockValues.encodeUnits(keys, values);
                        },
                        bytes -> {
                            byte[][] keys = new byte[64][];
                            byte[][] values = new byte[64][];
                            AttemptBlockValues.decodeUnits(bytes, keys, values);
                            List<String> listed = new ArrayList<>();
                            for (int offset = 0; offset < keys.length; offset++) {
                                if (keys[offset] != null) {
                                    listed.add(offset + " " + HEX.formatHex(keys[offset]) + " "
                                            + (values[offset] == null ? "-" : HEX.formatHex(values[offset])));
                                }
                            }
                            assertThat(AttemptBlockValues.unitKeyIn(bytes, 9)).isEqualTo(UNIT_KEY);
                            return listed;
                        }));
        // Kept answers of commands with a request_id: their kind byte tells the layout, so a new one takes a new kind.
        samples.put(
                "answer-result",
                answer(Answer.result(1_800_000_000_000L, "{\"ok\":1}".getBytes(StandardCharsets.UTF_8))));
        samples.put("answer-attempt", answer(Answer.attempt(1_800_000_000_000L, 99)));
        samples.put("answer-attempts", answer(Answer.attempts(1_800_000_000_000L, new long[] {5, 6, 7, 10, 12, 13})));
        samples.put("counter", new Sample(42L, value -> ValueCodec.encodeLong(42L), ValueCodec::decodeLong));
        samples.put(
                "attempt-block-bits",
                new Sample(
                        0x8000_0000_0000_0005L,
                        value -> AttemptBlockValues.encodeBits(0x8000_0000_0000_0005L),
                        AttemptBlockValues::decodeBits));
        return samples;
    }

    @Test
    void valuesWrittenByEveryVersionReadBackAsTheirRecords() throws IOException {
        Map<String, Sample> samples = samples();
        assertThat(fixture(CURRENT).keySet()).containsExactlyElementsOf(samples.keySet());
        for (String file : FIXTURES) {
            fixture(file)
                    .forEach(
                            (name, bytes) -> assertThat(samples.get(name).read().apply(bytes))
                                    .as("%s of %s", name, file)
                                    .isEqualTo(samples.get(name).expected()));
        }
    }

    @Test
    void todaysCodeWritesTheSameBytes() throws IOException {
        if (Boolean.getBoolean("golden.write")) {
            write(); // into the source tree: the copy on the classpath is the build's, compared on the next run
            return;
        }
        Map<String, byte[]> fixture = fixture(CURRENT);
        samples()
                .forEach((name, sample) -> assertThat(
                                HexFormat.of().formatHex(sample.write().apply(sample.expected())))
                        .as("%s: the layout changed; see this class's comment", name)
                        .isEqualTo(HexFormat.of().formatHex(fixture.get(name))));
    }

    private static Map<String, byte[]> fixture(String file) throws IOException {
        Map<String, byte[]> values = new LinkedHashMap<>();
        try (InputStream in = StoredValuesGoldenTest.class.getClassLoader().getResourceAsStream(file)) {
            assertThat(in).as(file).isNotNull();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    String[] parts = line.split(" ", 2);
                    values.put(parts[0], HexFormat.of().parseHex(parts[1].strip()));
                }
            }
        }
        return values;
    }

    /**
     * Writes the fixture from today's code, into the source tree (run from the project's directory), or under
     * {@code golden.dir} ({@code FieldChecklistTest} writes the fixture of a field it adds there).
     */
    private static void write() throws IOException {
        StringBuilder text =
                new StringBuilder("# Stored values as this version writes them: name, then the bytes in hex.\n"
                        + "# Written by StoredValuesGoldenTest with -Dgolden.write=true; never edit by hand.\n");
        samples()
                .forEach((name, sample) -> text.append(name)
                        .append(' ')
                        .append(HexFormat.of().formatHex(sample.write().apply(sample.expected())))
                        .append('\n'));
        Path file =
                Path.of(System.getProperty("golden.dir", "src/test/resources")).resolve(CURRENT);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }
}
