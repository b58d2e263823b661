package io.coordinate.engine.state.codec;

import static io.coordinate.engine.state.codec.FamilyCodec.readFamily;
import static io.coordinate.engine.state.codec.FamilyCodec.writeFamily;
import static io.coordinate.engine.state.codec.FieldMask.bit;
import static io.coordinate.engine.state.codec.FieldMask.has;
import static io.coordinate.engine.state.codec.ReplicationCodec.readReplication;
import static io.coordinate.engine.state.codec.ReplicationCodec.writeReplication;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.engine.state.model.AttemptProgress;
import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.engine.state.model.AttemptStatus;
import io.coordinate.engine.state.model.ChildState;
import io.coordinate.engine.state.model.ReplicationState;
import io.coordinate.engine.state.model.UnitFamily;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.engine.state.model.WorkUnitRecord;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The stored form of the two records on the hot path, {@link WorkUnitRecord} and {@link AttemptRecord}, written
 * field by field: in Smile, Jackson's databind (its record creator above all) was a large share of the stream thread.
 *
 * <p>A value starts with {@link #FORMAT} (never the first byte of a Smile value, which starts with its header
 * {@code :)\n}, 0x3A), then {@link #VERSION}; the rest is the record:
 *
 * <pre>
 * WorkUnitRecord: mask (2 bytes, big-endian), spec?, name?, data?, priority, notBefore?, status?,
 *                 activeAttempt?, attemptCount, family?, replication?, purgeAt?, availableSince?, group?
 *     mask bits:  0 spec, 1 name, 2 data, 3 notBefore, 4 status, 5 activeAttempt, 6 family, 7 replication,
 *                 8 purgeAt, 9 availableSince (version 2; a version 1 value has none), 10 group (version 4)
 * AttemptRecord:  mask (1 byte), seq, spec?, unit?, worker?, status?, data?, startTime, expirationTime, endTime?,
 *                 progress?
 *     mask bits:  0 spec, 1 unit, 2 worker, 3 status, 4 data, 5 endTime, 6 replica ({@code isReplica()}),
 *                 7 progress (version 3; older values have none)
 * AttemptProgress: mask (1 byte), fraction?, message?, time
 *     mask bits:  0 fraction (its 8 raw IEEE-754 bits, big-endian), 1 message
 * UnitFamily:     mask (1 byte), parent?, predecessor?, childState?, parkedUnder?, failure?
 *     mask bits:  0 parent, 1 predecessor, 2 childState, 3 parkedUnder, 4 awaitingPredecessor (its value),
 *                 5 failure
 * UnitRef:        spec, name
 * ReplicationState: mask (1 byte), round, target, errorMask, canonical?, assimilatedAt?, replica count, replicas
 *     mask bits:  0 canonical, 1 assimilatedAt
 * Replica:        mask (1 byte), seq, worker?, host?, deadline, outcome?, validateState?, digest?
 *     mask bits:  0 worker, 1 host, 2 outcome, 3 validateState, 4 digest
 * </pre>
 *
 * A field marked {@code ?} is written only when its mask bit is set (its value is not null). Integer fields
 * ({@code int} and {@code long}) are zigzag varints (LEB128), counts and lengths plain varints; {@code priority}
 * is its 8 raw IEEE-754 bits, big-endian; strings are a varint byte length then UTF-8; enums are one byte:
 * {@link UnitStatus#code()} and {@link ChildState#code()} (the codes of the keys), the codes of
 * {@link #attemptStatusCode}, {@link ReplicationCodec#outcomeCode} and {@link ReplicationCodec#validateStateCode}
 * for the others. {@code replica} is {@code isReplica()} because Jackson wrote that getter over the field: a null
 * read back false, and still does.
 *
 * <p>JSON ({@code data}, {@code failure}) is one tagged value:
 *
 * <pre>
 * '{'  field count, then the name (a string) and value of each field     ObjectNode
 * '['  element count, then each element                                   ArrayNode
 * '"'  a string                                                           TextNode
 * 't' 'f' 'n'                                                             BooleanNode, NullNode
 * 'i'  zigzag varint: an IntNode in the int range, else a LongNode
 * 'd'  scale, unscaled value (zigzag varints)                             DecimalNode
 * 'D'  scale, then the unscaled value's two's-complement bytes with their varint length (beyond 63 bits)
 * 'S'  varint length, then a Smile document of {@link ValueCodec#SMILE}: any other value, whole
 * </pre>
 *
 * Values must decode exactly as in the records of the Smile format (same node classes, decimals with their scale,
 * a JSON null a {@code NullNode}). So only the node classes above (exactly those classes) and trees at most
 * {@link #MAX_DEPTH} deep are written as trees, for which Jackson's Smile round trip is known: a {@code LongNode}
 * in the int range comes back an {@code IntNode} (Smile writes it as an int), a {@code DecimalNode} keeps its
 * unscaled value and scale (the mapper's node factory keeps trailing zeros), strings are kept when they are valid
 * UTF-16 (both formats refuse the others). Nodes are made by the mapper's node factory, as Jackson makes them. Any
 * other value (a {@code DoubleNode}, which comes back a {@code DecimalNode}; a {@code POJONode}...) is stored
 * whole in Smile and read by the same mapper, as before.
 *
 * <p>A change of this layout takes a new {@link #VERSION}; values of older versions must still be read. Version 2
 * added {@code availableSince}; a version 1 value reads as a version 2 value without it. Version 3 added an
 * attempt's {@code progress} (and the {@code cancelled} statuses' codes), which older values do not have. Version 4
 * added a unit's {@code group}.
 */
public final class BinaryRecords {

    static final byte FORMAT = (byte) 0xFE; // reserved in Smile: not a token either, should a header be omitted
    static final byte VERSION = 4;
    /** The oldest version still read. */
    private static final byte FIRST_VERSION = 1;

    /** Deeper JSON goes whole to Smile, whose nesting limits apply to it as before; it bounds the recursion here. */
    static final int MAX_DEPTH = 100;

    // values() copies the array on every call
    private static final UnitStatus[] UNIT_STATUSES = UnitStatus.values();

    private static final int U_SPEC = 1;
    private static final int U_NAME = 1 << 1;
    private static final int U_DATA = 1 << 2;
    private static final int U_NOT_BEFORE = 1 << 3;
    private static final int U_STATUS = 1 << 4;
    private static final int U_ACTIVE_ATTEMPT = 1 << 5;
    private static final int U_FAMILY = 1 << 6;
    private static final int U_REPLICATION = 1 << 7;
    private static final int U_PURGE_AT = 1 << 8;
    private static final int U_AVAILABLE_SINCE = 1 << 9;
    private static final int U_GROUP = 1 << 10;

    private static final int A_SPEC = 1;
    private static final int A_UNIT = 1 << 1;
    private static final int A_WORKER = 1 << 2;
    private static final int A_STATUS = 1 << 3;
    private static final int A_DATA = 1 << 4;
    private static final int A_END_TIME = 1 << 5;
    private static final int A_REPLICA = 1 << 6;
    private static final int A_PROGRESS = 1 << 7;

    private static final int P_FRACTION = 1;
    private static final int P_MESSAGE = 1 << 1;

    static final int J_OBJECT = '{';
    static final int J_ARRAY = '[';
    static final int J_TEXT = '"';
    static final int J_TRUE = 't';
    static final int J_FALSE = 'f';
    static final int J_NULL = 'n';
    static final int J_INTEGER = 'i';
    static final int J_DECIMAL = 'd';
    static final int J_BIG_DECIMAL = 'D';
    static final int J_SMILE = 'S';

    private BinaryRecords() {}

    static boolean isBinary(byte[] value) {
        return value.length > 0 && value[0] == FORMAT;
    }

    static byte[] encode(WorkUnitRecord unit) {
        try {
            return writeUnit(unit);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] encode(AttemptRecord attempt) {
        try {
            return writeAttempt(attempt);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads a value that {@link #isBinary} as {@code type}: one of the two records this class writes. */
    static <T> T decode(byte[] value, Class<T> type) {
        if (type != WorkUnitRecord.class && type != AttemptRecord.class) {
            throw new IllegalArgumentException("no binary format for " + type.getSimpleName());
        }
        BinaryIn in = new BinaryIn(value);
        try {
            in.byte8(); // FORMAT
            int version = in.byte8();
            if (version < FIRST_VERSION || version > VERSION) {
                throw new IOException("unknown version " + version);
            }
            Object record = type == WorkUnitRecord.class ? readUnit(in) : readAttempt(in);
            if (in.remaining() != 0) {
                throw new IOException(in.remaining() + " bytes after the record");
            }
            return type.cast(record);
        } catch (IOException | IndexOutOfBoundsException | NumberFormatException e) { // past the end, empty BigInteger
            throw new UncheckedIOException(
                    "corrupt " + type.getSimpleName() + " value",
                    e instanceof IOException io ? io : new IOException(e));
        }
    }

    private static byte[] writeUnit(WorkUnitRecord unit) throws IOException {
        BinaryOut out = new BinaryOut();
        int mask = bit(unit.spec(), U_SPEC)
                | bit(unit.name(), U_NAME)
                | bit(unit.data(), U_DATA)
                | bit(unit.notBefore(), U_NOT_BEFORE)
                | bit(unit.status(), U_STATUS)
                | bit(unit.activeAttempt(), U_ACTIVE_ATTEMPT)
                | bit(unit.family(), U_FAMILY)
                | bit(unit.replication(), U_REPLICATION)
                | bit(unit.purgeAt(), U_PURGE_AT)
                | bit(unit.availableSince(), U_AVAILABLE_SINCE)
                | bit(unit.group(), U_GROUP);
        out.header();
        out.byte8(mask >>> 8);
        out.byte8(mask);
        out.string(unit.spec());
        out.string(unit.name());
        out.json(unit.data());
        out.fixed64(Double.doubleToRawLongBits(unit.priority()));
        out.varlong(unit.notBefore());
        if (unit.status() != null) {
            out.byte8(unit.status().code());
        }
        out.varlong(unit.activeAttempt());
        out.varlong(unit.attemptCount());
        if (unit.family() != null) {
            writeFamily(out, unit.family());
        }
        if (unit.replication() != null) {
            writeReplication(out, unit.replication());
        }
        out.varlong(unit.purgeAt());
        out.varlong(unit.availableSince());
        out.string(unit.group());
        return out.toBytes();
    }

    private static byte[] writeAttempt(AttemptRecord attempt) throws IOException {
        BinaryOut out = new BinaryOut();
        int mask = bit(attempt.spec(), A_SPEC)
                | bit(attempt.unit(), A_UNIT)
                | bit(attempt.worker(), A_WORKER)
                | bit(attempt.status(), A_STATUS)
                | bit(attempt.data(), A_DATA)
                | bit(attempt.endTime(), A_END_TIME)
                | (attempt.isReplica() ? A_REPLICA : 0)
                | bit(attempt.progress(), A_PROGRESS);
        out.header();
        out.byte8(mask);
        out.varlong(attempt.seq());
        out.string(attempt.spec());
        out.string(attempt.unit());
        out.string(attempt.worker());
        if (attempt.status() != null) {
            out.byte8(attemptStatusCode(attempt.status()));
        }
        out.json(attempt.data());
        out.varlong(attempt.startTime());
        out.varlong(attempt.expirationTime());
        out.varlong(attempt.endTime());
        if (attempt.progress() != null) {
            writeProgress(out, attempt.progress());
        }
        return out.toBytes();
    }

    private static void writeProgress(BinaryOut out, AttemptProgress progress) throws IOException {
        out.byte8(bit(progress.fraction(), P_FRACTION) | bit(progress.message(), P_MESSAGE));
        if (progress.fraction() != null) {
            out.fixed64(Double.doubleToRawLongBits(progress.fraction()));
        }
        out.string(progress.message());
        out.varlong(progress.time());
    }

    private static AttemptProgress readProgress(BinaryIn in) throws IOException {
        int mask = in.byte8();
        Double fraction = has(mask, P_FRACTION) ? Double.longBitsToDouble(in.fixed64()) : null;
        String message = has(mask, P_MESSAGE) ? in.string() : null;
        return new AttemptProgress(fraction, message, in.varlong());
    }

    private static WorkUnitRecord readUnit(BinaryIn in) throws IOException {
        int mask = in.byte8() << 8 | in.byte8();
        String spec = has(mask, U_SPEC) ? in.string() : null;
        String name = has(mask, U_NAME) ? in.string() : null;
        JsonNode data = has(mask, U_DATA) ? in.json() : null;
        double priority = Double.longBitsToDouble(in.fixed64());
        Long notBefore = has(mask, U_NOT_BEFORE) ? in.varlong() : null;
        UnitStatus status = has(mask, U_STATUS) ? unitStatus(in.byte8()) : null;
        Long activeAttempt = has(mask, U_ACTIVE_ATTEMPT) ? in.varlong() : null;
        int attemptCount = in.varint();
        UnitFamily family = has(mask, U_FAMILY) ? readFamily(in) : null;
        ReplicationState replication = has(mask, U_REPLICATION) ? readReplication(in) : null;
        Long purgeAt = has(mask, U_PURGE_AT) ? in.varlong() : null;
        Long availableSince = has(mask, U_AVAILABLE_SINCE) ? in.varlong() : null;
        String group = has(mask, U_GROUP) ? in.string() : null;
        return new WorkUnitRecord(
                spec,
                name,
                data,
                priority,
                notBefore,
                status,
                activeAttempt,
                attemptCount,
                family,
                replication,
                purgeAt,
                availableSince,
                group);
    }

    private static AttemptRecord readAttempt(BinaryIn in) throws IOException {
        int mask = in.byte8();
        long seq = in.varlong();
        String spec = has(mask, A_SPEC) ? in.string() : null;
        String unit = has(mask, A_UNIT) ? in.string() : null;
        String worker = has(mask, A_WORKER) ? in.string() : null;
        AttemptStatus status = has(mask, A_STATUS) ? attemptStatus(in.byte8()) : null;
        JsonNode data = has(mask, A_DATA) ? in.json() : null;
        long startTime = in.varlong();
        long expirationTime = in.varlong();
        Long endTime = has(mask, A_END_TIME) ? in.varlong() : null;
        AttemptProgress progress = has(mask, A_PROGRESS) ? readProgress(in) : null;
        return new AttemptRecord(
                seq,
                spec,
                unit,
                worker,
                status,
                data,
                startTime,
                expirationTime,
                endTime,
                has(mask, A_REPLICA),
                progress);
    }

    // AttemptStatus has no stored code of its own: these are its. Never reuse one.

    private static int attemptStatusCode(AttemptStatus status) {
        return switch (status) {
            case PENDING -> 'p';
            case FINISHED -> 'f';
            case FAILED -> 'x';
            case EXPIRED -> 'e';
            case RETRYABLE -> 'r';
            case CANCELLED -> 'c';
        };
    }

    private static AttemptStatus attemptStatus(int code) throws IOException {
        return switch (code) {
            case 'p' -> AttemptStatus.PENDING;
            case 'f' -> AttemptStatus.FINISHED;
            case 'x' -> AttemptStatus.FAILED;
            case 'e' -> AttemptStatus.EXPIRED;
            case 'r' -> AttemptStatus.RETRYABLE;
            case 'c' -> AttemptStatus.CANCELLED;
            default -> throw new IOException("unknown attempt status code " + code);
        };
    }

    private static UnitStatus unitStatus(int code) throws IOException {
        for (UnitStatus status : UNIT_STATUSES) {
            if (status.code() == code) {
                return status;
            }
        }
        throw new IOException("unknown unit status code " + code);
    }
}
