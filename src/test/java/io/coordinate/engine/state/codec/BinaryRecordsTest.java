package io.coordinate.engine.state.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.BinaryNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.FloatNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.POJONode;
import com.fasterxml.jackson.databind.node.ShortNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.engine.state.model.AttemptStatus;
import io.coordinate.engine.state.model.ChildState;
import io.coordinate.engine.state.model.NamespaceRecord;
import io.coordinate.engine.state.model.Replica;
import io.coordinate.engine.state.model.ReplicaOutcome;
import io.coordinate.engine.state.model.ReplicationState;
import io.coordinate.engine.state.model.UnitFamily;
import io.coordinate.engine.state.model.UnitRef;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.engine.state.model.ValidateState;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.protocol.Json;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Units and attempts in the binary format: every field round-trips exactly, and a value reads back as the same
 * record whether it was stored in Smile (by an earlier version) or in binary. "Exactly" includes the JSON: same
 * node classes, decimals with their scale ({@code DecimalNode.equals} ignores the scale: 1.10 equals 1.1).
 */
class BinaryRecordsTest {

    private static final JsonNodeFactory NODES = JsonNodeFactory.withExactBigDecimals(true);

    private static final UnitFamily FULL_FAMILY = new UnitFamily(
            new UnitRef("jobs", "parent"),
            new UnitRef("etl", "q\u0000x"),
            ChildState.PARKED,
            42L,
            true,
            Json.parse("{\"traceback\":\"child failed\"}"));

    private static final ReplicationState FULL_REPLICATION = new ReplicationState(
            3,
            5,
            ReplicationState.TOO_MANY_ERRORS | ReplicationState.CANCELLED,
            7L,
            1_800_000_000_123L,
            List.of(
                    new Replica(5, "w1", "h1", 1_800_000_000_000L, null, null, null),
                    new Replica(6, "w2", "h2", 1L, ReplicaOutcome.SUCCESS, ValidateState.INIT, "ab12"),
                    new Replica(7, "w3", "h3", -1L, ReplicaOutcome.SUCCESS, ValidateState.VALID, ""),
                    new Replica(8, "", "", 0, ReplicaOutcome.SUCCESS, ValidateState.INVALID, "digest"),
                    new Replica(9, "w", "h", Long.MAX_VALUE, ReplicaOutcome.SUCCESS, ValidateState.INCONCLUSIVE, "d"),
                    new Replica(
                            10, "w", "h", Long.MIN_VALUE, ReplicaOutcome.CLIENT_ERROR, ValidateState.NO_CHECK, null),
                    new Replica(11, "w", "h", 2, ReplicaOutcome.NO_REPLY, ValidateState.TOO_LATE, null),
                    new Replica(Long.MAX_VALUE, null, null, 3, ReplicaOutcome.DIDNT_NEED, null, null)));

    private static final String DATA = "{\"d\":1.10,\"big\":12345678901234567890.5,\"e\":1E+3,\"z\":0.000,"
            + "\"neg\":-0.5,\"tiny\":1E-400,\"huge\":123456789012345678901234567890.123456789012345678901234567890,"
            + "\"i\":2147483647,\"l\":2147483648,\"nl\":-2147483649,\"min\":-9223372036854775808,"
            + "\"t\":true,\"f\":false,\"n\":null,\"\":\"\","
            + "\"s\":\"é名\\ud83d\\ude00\\u0000\",\"o\":{\"a\":[1,[2,[3,{}]],[],{\"x\":null}]},\"a\":[]}";

    @Test
    void aUnitWithEveryFieldSetRoundTrips() {
        roundTrips(WorkUnitRecord.builder("spec", "unit")
                .data(Json.parse(DATA))
                .priority(2.5)
                .notBefore(1_800_000_000_000L)
                .status(UnitStatus.BLOCKED)
                .activeAttempt(99L)
                .attemptCount(3)
                .family(FULL_FAMILY)
                .replication(FULL_REPLICATION)
                .purgeAt(1_900_000_000_000L)
                .build());
    }

    @Test
    void aUnitWithEveryFieldUnsetRoundTrips() {
        roundTrips(WorkUnitRecord.builder(null, null).status(null).build());
        roundTrips(WorkUnitRecord.builder("", "")
                .family(UnitFamily.EMPTY)
                .replication(ReplicationState.first())
                .build());
    }

    @Test
    void everyStatusAndChildStateRoundTrips() {
        for (UnitStatus status : UnitStatus.values()) {
            for (ChildState childState : ChildState.values()) {
                roundTrips(WorkUnitRecord.builder("s", "u")
                        .status(status)
                        .family(FULL_FAMILY.toBuilder()
                                .childState(childState)
                                .parkedUnder(null)
                                .build())
                        .build());
            }
        }
        for (AttemptStatus status : AttemptStatus.values()) {
            roundTrips(new AttemptRecord(1, "s", "u", "w", status, null, 0, 0, null, false, null));
        }
    }

    @Test
    void familiesRoundTripWithEachFieldAlone() {
        UnitRef ref = new UnitRef("s", "名");
        List<UnitFamily> families = List.of(
                new UnitFamily(ref, null, null, null, false, null),
                new UnitFamily(null, ref, null, null, false, null),
                new UnitFamily(null, null, ChildState.OPEN, null, false, null),
                new UnitFamily(null, null, null, 0L, false, null),
                new UnitFamily(null, null, null, null, true, null),
                new UnitFamily(null, null, null, null, false, NullNode.getInstance()),
                new UnitFamily(null, null, null, null, false, Json.parse("{\"traceback\":\"\"}")));
        for (UnitFamily family : families) {
            roundTrips(WorkUnitRecord.builder("s", "u")
                    .status(UnitStatus.PENDING)
                    .activeAttempt(1L)
                    .attemptCount(1)
                    .family(family)
                    .build());
        }
    }

    @Test
    void replicationRoundTripsWithAndWithoutItsOptionalFields() {
        for (ReplicationState replication : List.of(
                FULL_REPLICATION,
                ReplicationState.first(),
                new ReplicationState(Integer.MAX_VALUE, Integer.MIN_VALUE, -1, null, 0L, List.of()),
                new ReplicationState(
                        0,
                        0,
                        0,
                        Long.MIN_VALUE,
                        null,
                        FULL_REPLICATION.replicas().subList(0, 1)))) {
            roundTrips(WorkUnitRecord.builder("s", "u")
                    .priority(1)
                    .status(UnitStatus.WAITING)
                    .attemptCount(2)
                    .replication(replication)
                    .build());
        }
    }

    @Test
    void doublesKeepTheirBitsAndLongsTheirExtremes() {
        for (double priority : new double[] {
            Double.NaN,
            -0.0,
            0.0,
            Double.POSITIVE_INFINITY,
            Double.NEGATIVE_INFINITY,
            Double.MIN_VALUE,
            -Double.MAX_VALUE,
            1e300,
            -7.25
        }) {
            roundTrips(WorkUnitRecord.builder("s", "u").priority(priority).build());
        }
        for (long value : new long[] {Long.MIN_VALUE, Long.MAX_VALUE, -1, 0, 1, 63, 64, -64, -65, 1L << 62}) {
            roundTrips(WorkUnitRecord.builder("s", "u")
                    .notBefore(value)
                    .status(UnitStatus.DELAYED)
                    .activeAttempt(value)
                    .attemptCount((int) value)
                    .purgeAt(value)
                    .build());
            roundTrips(new AttemptRecord(
                    value, "s", "u", "w", AttemptStatus.FINISHED, null, value, value, value, true, null));
        }
    }

    @Test
    void anAttemptWithEveryFieldSetOrUnsetRoundTrips() {
        roundTrips(new AttemptRecord(
                Long.MAX_VALUE,
                "spec",
                "unit",
                "worker/child",
                AttemptStatus.RETRYABLE,
                Json.parse(DATA),
                1_800_000_000_000L,
                1_800_000_900_000L,
                1_800_000_500_000L,
                true,
                null));
        roundTrips(new AttemptRecord(0, null, null, null, null, null, 0, 0, null, false, null));
        roundTrips(new AttemptRecord(
                -5, "", "", "", AttemptStatus.PENDING, NullNode.getInstance(), -1, -2, null, false, null));
    }

    @Test
    void aNullReplicaFlagReadsBackFalseAsItDidInSmile() {
        AttemptRecord ordinary =
                new AttemptRecord(1, "s", "u", "w", AttemptStatus.PENDING, null, 0, 0, null, null, null);
        AttemptRecord asRead =
                new AttemptRecord(1, "s", "u", "w", AttemptStatus.PENDING, null, 0, 0, null, false, null);

        // Jackson writes isReplica() as "replica", so the Smile form never had a null there
        assertThat(ValueCodec.decode(ValueCodec.encodeSmile(ordinary), AttemptRecord.class))
                .isEqualTo(asRead);
        assertThat(ValueCodec.decode(ValueCodec.encode(ordinary), AttemptRecord.class))
                .isEqualTo(asRead);
    }

    @Test
    void jsonDataKeepsItsNodeClassesAndDecimalScales() {
        WorkUnitRecord unit = roundTrips(unitWithData(Json.parse(DATA)));
        JsonNode data = unit.data();

        assertThat(data.get("d").decimalValue()).isEqualTo(new BigDecimal("1.10")); // BigDecimal.equals: scale too
        assertThat(data.get("big").decimalValue()).isEqualTo(new BigDecimal("12345678901234567890.5"));
        assertThat(data.get("e").decimalValue().scale()).isEqualTo(-3);
        assertThat(data.get("z").decimalValue().scale()).isEqualTo(3);
        assertThat(data.get("i")).isInstanceOf(IntNode.class);
        assertThat(data.get("l")).isInstanceOf(LongNode.class);
        assertThat(data.get("n")).isInstanceOf(NullNode.class);
        assertThat(data.get("s").textValue()).isEqualTo("é名\ud83d\ude00\u0000");
        // why the decimals are compared as BigDecimals: DecimalNode.equals ignores the scale
        assertThat(DecimalNode.valueOf(new BigDecimal("1.10"))).isEqualTo(DecimalNode.valueOf(new BigDecimal("1.1")));
    }

    @Test
    void jsonDataOfEveryShapeReadsBackAsFromSmile() {
        ObjectNode deep = NODES.objectNode();
        ObjectNode level = deep;
        for (int i = 0; i < BinaryRecords.MAX_DEPTH + 20; i++) {
            level = level.putObject("k");
        }
        List<JsonNode> datas = List.of(
                NullNode.getInstance(),
                MissingNode.getInstance(),
                TextNode.valueOf(""),
                TextNode.valueOf("root"),
                IntNode.valueOf(-3),
                LongNode.valueOf(7),
                LongNode.valueOf(1L << 40),
                new ShortNode((short) 12),
                new DoubleNode(0.1),
                new DoubleNode(Double.NaN),
                new FloatNode(1.5f),
                new BigIntegerNode(BigInteger.TEN),
                BinaryNode.valueOf(new byte[] {1, 2, 3}),
                new POJONode(List.of(1.5, "a")),
                NODES.arrayNode().add(new DoubleNode(2.5)).add(1),
                deep,
                Json.parse("[[[[[]]]]]"),
                DecimalNode.valueOf(new BigDecimal("-0.00")),
                DecimalNode.valueOf(new BigDecimal(BigInteger.ONE.shiftLeft(63), -5)),
                DecimalNode.valueOf(new BigDecimal(BigInteger.ONE.shiftLeft(63).negate(), 7)));
        for (JsonNode data : datas) {
            readsBackAsFromSmile(unitWithData(data));
            readsBackAsFromSmile(
                    new AttemptRecord(1, "s", "u", "w", AttemptStatus.FINISHED, data, 0, 0, 1L, false, null));
            readsBackAsFromSmile(WorkUnitRecord.builder("s", "u")
                    .status(UnitStatus.FAILED)
                    .family(UnitFamily.EMPTY.toBuilder().failure(data).build())
                    .build());
        }
        assertThat(ValueCodec.decode(ValueCodec.encode(unitWithData(new DoubleNode(0.1))), WorkUnitRecord.class)
                        .data())
                .isInstanceOf(DecimalNode.class);
        assertThat(ValueCodec.decode(ValueCodec.encode(unitWithData(MissingNode.getInstance())), WorkUnitRecord.class)
                        .data())
                .isSameAs(NullNode.getInstance());
    }

    @Test
    void jsonAsTheWireParsesItIsStoredAsATreeAndAnythingElseInSmile() {
        assertThat(storesSmile(unitWithData(Json.parse(DATA)))).isFalse();
        assertThat(storesSmile(WorkUnitRecord.builder("s", "u")
                        .status(UnitStatus.FAILED)
                        .family(FULL_FAMILY)
                        .build()))
                .isFalse();
        assertThat(storesSmile(unitWithData(Json.parse("{\"n\":123456789012345678901234567890}"))))
                .isTrue();
        assertThat(storesSmile(unitWithData(NODES.objectNode().put("d", 0.5)))).isTrue();
    }

    @Test
    void dataReadAgainIsTheSameInstanceAndWritesTheSameBytes() {
        JsonNode data = Json.parse("{\"i\":7,\"s\":\"text\",\"a\":[1,2.50]}");
        byte[] unitBytes = ValueCodec.encode(unitWithData(data));
        byte[] attemptBytes = ValueCodec.encode(
                new AttemptRecord(3, "s", "u", "w", AttemptStatus.PENDING, data, 1, 2, null, false, null));

        JsonNode fromAttempt =
                ValueCodec.decode(attemptBytes, AttemptRecord.class).data();
        JsonNode fromUnit = ValueCodec.decode(unitBytes, WorkUnitRecord.class).data();
        assertThat(fromUnit).isSameAs(fromAttempt).isEqualTo(data).isNotSameAs(data);
        assertThat(ValueCodec.encode(unitWithData(fromUnit))).isEqualTo(unitBytes);

        // a value that starts as the last one did but goes on reads as itself
        JsonNode longer = Json.parse("{\"i\":7,\"s\":\"text\",\"a\":[1,2.50],\"more\":true}");
        JsonNode shorter = Json.parse("{\"i\":7}");
        for (JsonNode next : List.of(longer, shorter, TextNode.valueOf("te"), TextNode.valueOf("text"), data)) {
            WorkUnitRecord read = ValueCodec.decode(ValueCodec.encode(unitWithData(next)), WorkUnitRecord.class);
            assertExactlyEqual(read, unitWithData(next));
        }

        // values in Smile are read afresh each time: they may not write back the same way
        JsonNode inSmile = Json.parse("{\"n\":123456789012345678901234567890}");
        byte[] smileBytes = ValueCodec.encode(unitWithData(inSmile));
        assertThat(ValueCodec.decode(smileBytes, WorkUnitRecord.class).data())
                .isNotSameAs(ValueCodec.decode(smileBytes, WorkUnitRecord.class).data());
    }

    @Test
    void aJsonNullIsNotAnAbsentValue() {
        assertThat(roundTrips(unitWithData(NullNode.getInstance())).data()).isSameAs(NullNode.getInstance());
        assertThat(roundTrips(unitWithData(null)).data()).isNull();
    }

    @Test
    void valuesStoredInSmileStillRead() {
        WorkUnitRecord unit = WorkUnitRecord.builder("spec", "unit")
                .data(Json.parse(DATA))
                .priority(-0.0)
                .notBefore(1L)
                .status(UnitStatus.PENDING)
                .activeAttempt(2L)
                .attemptCount(3)
                .family(FULL_FAMILY)
                .replication(FULL_REPLICATION)
                .purgeAt(4L)
                .build();
        AttemptRecord attempt = new AttemptRecord(
                9, "spec", "unit", "w", AttemptStatus.EXPIRED, Json.parse(DATA), 1, 2, 3L, true, null);
        byte[] smileUnit = ValueCodec.encodeSmile(unit);
        byte[] smileAttempt = ValueCodec.encodeSmile(attempt);

        assertThat(smileUnit[0]).isEqualTo((byte) ':').isNotEqualTo(BinaryRecords.FORMAT);
        assertExactlyEqual(ValueCodec.decode(smileUnit, WorkUnitRecord.class), unit);
        assertExactlyEqual(ValueCodec.decode(smileAttempt, AttemptRecord.class), attempt);
    }

    @Test
    void otherRecordsStayInSmile() {
        NamespaceRecord namespace = new NamespaceRecord("ns", 5);

        assertThat(ValueCodec.encode(namespace)).isEqualTo(ValueCodec.encodeSmile(namespace));
        assertThat(ValueCodec.decode(ValueCodec.encode(namespace), NamespaceRecord.class))
                .isEqualTo(namespace);
    }

    @Test
    void namesAroundTheOneByteLengthAndWithNonAsciiCharsAreStoredAsUtf8() {
        // a string is its UTF-8 length as a varint (one byte below 128, two from there), then its UTF-8 bytes
        for (String name : new String[] {
            "",
            "u",
            "a".repeat(127),
            "a".repeat(128),
            "a".repeat(300),
            "a".repeat(126) + "é",
            "é",
            "名",
            "\ud83d\ude00",
            "\u007f",
            "\u0080",
            "?",
            "a?b",
            "?é",
            "?\ud83d\ude00"
        }) {
            WorkUnitRecord unit = WorkUnitRecord.builder("s", name).build();
            byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
            byte[] value = ValueCodec.encode(unit);
            // format, version, the mask's two bytes, the spec (length 1, 's'), then the name's varint length and bytes
            int lengthBytes = utf8.length < 0x80 ? 1 : 2;
            assertThat(Arrays.copyOfRange(value, 6, 6 + lengthBytes))
                    .isEqualTo(
                            lengthBytes == 1
                                    ? new byte[] {(byte) utf8.length}
                                    : new byte[] {(byte) (utf8.length | 0x80), (byte) (utf8.length >>> 7)});
            assertThat(Arrays.copyOfRange(value, 6 + lengthBytes, 6 + lengthBytes + utf8.length))
                    .isEqualTo(utf8);
            assertThat(ValueCodec.decode(value, WorkUnitRecord.class)).isEqualTo(unit);
        }
    }

    @Test
    void anUnpairedSurrogateIsRefusedAsSmileRefusedIt() {
        WorkUnitRecord unit = WorkUnitRecord.builder("s\ud800", "u").build();
        WorkUnitRecord inData = unitWithData(TextNode.valueOf("x\udc00"));
        // as many UTF-8 bytes as chars once the JDK made the surrogate a '?': still refused
        WorkUnitRecord withQuestionMark = WorkUnitRecord.builder("s", "?\udc00").build();
        assertThatThrownBy(() -> ValueCodec.encode(withQuestionMark)).isInstanceOf(UncheckedIOException.class);

        assertThatThrownBy(() -> ValueCodec.encodeSmile(unit)).isInstanceOf(UncheckedIOException.class);
        assertThatThrownBy(() -> ValueCodec.encode(unit)).isInstanceOf(UncheckedIOException.class);
        assertThatThrownBy(() -> ValueCodec.encodeSmile(inData)).isInstanceOf(UncheckedIOException.class);
        assertThatThrownBy(() -> ValueCodec.encode(inData)).isInstanceOf(UncheckedIOException.class);
    }

    @Test
    void aDamagedValueIsReportedCorrupt() {
        byte[] value = ValueCodec.encode(WorkUnitRecord.builder("spec", "unit")
                .data(Json.parse(DATA))
                .priority(2.5)
                .notBefore(1L)
                .status(UnitStatus.PENDING)
                .activeAttempt(2L)
                .attemptCount(3)
                .family(FULL_FAMILY)
                .replication(FULL_REPLICATION)
                .purgeAt(4L)
                .build());
        byte[] newerVersion = value.clone();
        newerVersion[1] = BinaryRecords.VERSION + 1;
        byte[] longer = Arrays.copyOf(value, value.length + 1);

        for (int length = 2; length < value.length; length++) {
            byte[] truncated = Arrays.copyOf(value, length);
            assertThatThrownBy(() -> ValueCodec.decode(truncated, WorkUnitRecord.class))
                    .isInstanceOf(UncheckedIOException.class)
                    .hasMessage("corrupt WorkUnitRecord value");
        }
        assertThatThrownBy(() -> ValueCodec.decode(newerVersion, WorkUnitRecord.class))
                .isInstanceOf(UncheckedIOException.class)
                .hasRootCauseMessage("unknown version " + (BinaryRecords.VERSION + 1));
        assertThatThrownBy(() -> ValueCodec.decode(longer, WorkUnitRecord.class))
                .isInstanceOf(UncheckedIOException.class)
                .hasRootCauseMessage("1 bytes after the record");
    }

    @Test
    void randomRecordsRoundTripAndReadAsTheirSmileForm() {
        SplittableRandom random = new SplittableRandom(20261122);
        for (int i = 0; i < 2_500; i++) {
            WorkUnitRecord unit = randomUnit(random);
            AttemptRecord attempt = randomAttempt(random);
            // Smile changes some JSON (a double becomes a decimal...): once read, a record round-trips unchanged
            WorkUnitRecord unitAsRead = readsBackAsFromSmile(unit);
            AttemptRecord attemptAsRead = readsBackAsFromSmile(attempt);
            roundTrips(unitAsRead);
            roundTrips(attemptAsRead);
        }
    }

    // --- helpers ---

    private static boolean storesSmile(Object record) {
        byte[] value = ValueCodec.encode(record);
        for (int i = 0; i + 2 < value.length; i++) {
            if (value[i] == ':' && value[i + 1] == ')' && value[i + 2] == '\n') { // a Smile header
                return true;
            }
        }
        return false;
    }

    private static WorkUnitRecord unitWithData(JsonNode data) {
        return WorkUnitRecord.builder("s", "u").data(data).build();
    }

    /** Binary encode then decode gives the record back, exactly, and so does its Smile form. */
    private static <T> T roundTrips(T record) {
        byte[] binary = ValueCodec.encode(record);
        assertThat(binary[0]).isEqualTo(BinaryRecords.FORMAT);
        @SuppressWarnings("unchecked")
        T decoded = (T) ValueCodec.decode(binary, record.getClass());
        assertExactlyEqual(decoded, record);
        assertExactlyEqual(ValueCodec.decode(ValueCodec.encodeSmile(record), record.getClass()), record);
        return decoded;
    }

    /** Its binary and Smile forms read back as the same record (not always itself, see callers). */
    private static <T> T readsBackAsFromSmile(T record) {
        @SuppressWarnings("unchecked")
        T fromSmile = (T) ValueCodec.decode(ValueCodec.encodeSmile(record), record.getClass());
        assertExactlyEqual(ValueCodec.decode(ValueCodec.encode(record), record.getClass()), fromSmile);
        return fromSmile;
    }

    private static void assertExactlyEqual(Object actual, Object expected) {
        assertThat(actual).isEqualTo(expected);
        if (expected instanceof WorkUnitRecord unit) {
            WorkUnitRecord actualUnit = (WorkUnitRecord) actual;
            assertThat(exact(actualUnit.data())).isEqualTo(exact(unit.data()));
            if (unit.family() != null) {
                assertThat(exact(actualUnit.family().failure()))
                        .isEqualTo(exact(unit.family().failure()));
            }
        } else if (expected instanceof AttemptRecord attempt) {
            assertThat(exact(((AttemptRecord) actual).data())).isEqualTo(exact(attempt.data()));
        }
    }

    /** A JSON value with every node's class and a decimal's scale spelled out: equal forms, equal nodes. */
    private static String exact(JsonNode node) {
        if (node == null) {
            return "absent";
        }
        StringBuilder out = new StringBuilder(node.getClass().getSimpleName());
        if (node.isObject()) {
            out.append('{');
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                out.append(TextNode.valueOf(field.getKey()))
                        .append(':')
                        .append(exact(field.getValue()))
                        .append(',');
            }
            out.append('}');
        } else if (node.isArray()) {
            out.append('[');
            node.forEach(element -> out.append(exact(element)).append(','));
            out.append(']');
        } else if (node instanceof DecimalNode) {
            BigDecimal value = node.decimalValue();
            out.append('(')
                    .append(value.unscaledValue())
                    .append(" scale ")
                    .append(value.scale())
                    .append(')');
        } else {
            out.append('(').append(node).append(')'); // a TextNode quotes and escapes its text
        }
        return out.toString();
    }

    private static WorkUnitRecord randomUnit(SplittableRandom random) {
        UnitFamily family = null;
        if (random.nextBoolean()) {
            family = new UnitFamily(
                    orNull(random, randomRef(random)),
                    orNull(random, randomRef(random)),
                    orNull(random, pick(random, ChildState.values())),
                    orNull(random, randomLong(random)),
                    random.nextBoolean(),
                    orNull(random, randomJson(random, 2)));
        }
        ReplicationState replication = null;
        if (random.nextBoolean()) {
            List<Replica> replicas = new ArrayList<>();
            for (int i = random.nextInt(5); i > 0; i--) {
                replicas.add(new Replica(
                        randomLong(random),
                        orNull(random, randomString(random)),
                        orNull(random, randomString(random)),
                        randomLong(random),
                        orNull(random, pick(random, ReplicaOutcome.values())),
                        orNull(random, pick(random, ValidateState.values())),
                        orNull(random, randomString(random))));
            }
            replication = new ReplicationState(
                    (int) randomLong(random),
                    (int) randomLong(random),
                    (int) randomLong(random),
                    orNull(random, randomLong(random)),
                    orNull(random, randomLong(random)),
                    replicas);
        }
        return WorkUnitRecord.builder(orNull(random, randomString(random)), orNull(random, randomString(random)))
                .data(orNull(random, randomJson(random, 4)))
                .priority(randomDouble(random))
                .notBefore(orNull(random, randomLong(random)))
                .status(orNull(random, pick(random, UnitStatus.values())))
                .activeAttempt(orNull(random, randomLong(random)))
                .attemptCount((int) randomLong(random))
                .family(family)
                .replication(replication)
                .purgeAt(orNull(random, randomLong(random)))
                .build();
    }

    private static AttemptRecord randomAttempt(SplittableRandom random) {
        return new AttemptRecord(
                randomLong(random),
                orNull(random, randomString(random)),
                orNull(random, randomString(random)),
                orNull(random, randomString(random)),
                orNull(random, pick(random, AttemptStatus.values())),
                orNull(random, randomJson(random, 4)),
                randomLong(random),
                randomLong(random),
                orNull(random, randomLong(random)),
                orNull(random, random.nextBoolean()),
                null);
    }

    private static JsonNode randomJson(SplittableRandom random, int depth) {
        int kind = random.nextInt(depth > 0 ? 16 : 13);
        return switch (kind) {
            case 0 -> NullNode.getInstance();
            case 1 -> NODES.booleanNode(random.nextBoolean());
            case 2 -> TextNode.valueOf(randomString(random));
            case 3 -> IntNode.valueOf((int) randomLong(random));
            case 4 -> LongNode.valueOf(randomLong(random));
            case 5 ->
                DecimalNode.valueOf(new BigDecimal(BigInteger.valueOf(randomLong(random)), random.nextInt(-20, 20)));
            case 6 ->
                DecimalNode.valueOf(new BigDecimal(
                        new BigInteger(random.nextInt(1, 200), new java.util.Random(random.nextLong()))
                                .subtract(BigInteger.ONE.shiftLeft(100)),
                        random.nextInt(-50, 50)));
            case 7 -> new BigIntegerNode(BigInteger.valueOf(randomLong(random)).shiftLeft(random.nextInt(70)));
            case 8 -> new DoubleNode(randomDouble(random));
            case 9 -> new FloatNode((float) randomDouble(random));
            case 10 -> new ShortNode((short) randomLong(random));
            case 11 -> BinaryNode.valueOf(new byte[random.nextInt(4)]);
            case 12 ->
                Json.parse(String.valueOf(randomDouble(random))
                        .replace("Infinity", "1")
                        .replace("NaN", "2"));
            case 13, 14 -> {
                ObjectNode object = NODES.objectNode();
                for (int i = random.nextInt(6); i > 0; i--) {
                    object.set(randomString(random), randomJson(random, depth - 1));
                }
                yield object;
            }
            default -> {
                ArrayNode array = NODES.arrayNode();
                for (int i = random.nextInt(6); i > 0; i--) {
                    array.add(randomJson(random, depth - 1));
                }
                yield array;
            }
        };
    }

    private static UnitRef randomRef(SplittableRandom random) {
        return new UnitRef(randomString(random), randomString(random));
    }

    private static String randomString(SplittableRandom random) {
        StringBuilder out = new StringBuilder();
        int length = random.nextInt(4) == 0 ? random.nextInt(300) : random.nextInt(12);
        for (int i = 0; i < length; i++) {
            switch (random.nextInt(6)) {
                case 0 -> out.append((char) random.nextInt(0x80, 0x800));
                case 1 -> out.append((char) random.nextInt(0x800, 0xD800));
                case 2 -> out.appendCodePoint(random.nextInt(0x10000, 0x110000));
                case 3 -> out.append((char) random.nextInt(0xE000, 0x10000));
                default -> out.append((char) random.nextInt(0x80));
            }
        }
        return out.toString();
    }

    private static long randomLong(SplittableRandom random) {
        return switch (random.nextInt(4)) {
            case 0 -> random.nextLong();
            case 1 -> random.nextLong(-100, 100);
            case 2 -> random.nextLong(1_700_000_000_000L, 1_900_000_000_000L);
            default -> random.nextLong() >> random.nextInt(64);
        };
    }

    private static double randomDouble(SplittableRandom random) {
        return switch (random.nextInt(4)) {
            case 0 -> Double.longBitsToDouble(random.nextLong());
            case 1 -> random.nextInt(-10, 10) / 4.0;
            case 2 -> pick(random, new Double[] {Double.NaN, -0.0, Double.NEGATIVE_INFINITY, Double.MIN_VALUE});
            default -> random.nextDouble(-1e6, 1e6);
        };
    }

    private static <T> T pick(SplittableRandom random, T[] values) {
        return values[random.nextInt(values.length)];
    }

    private static <T> T orNull(SplittableRandom random, T value) {
        return random.nextInt(3) == 0 ? null : value;
    }
}
