package io.coordinate.engine.state.codec;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The stored value of a unit: the unit record, and its latest attempt with it. A unit's life (add, request,
 * finish) then writes one record per step instead of two: the attempt started by a request and ended by a finish
 * travels inside its unit. When a unit starts another attempt, the one it held moves to an attempt record of its
 * own ({@code 10 [ns] 'A' [seq]}); an index ({@code 10 [ns] 'X' [seq]} → the unit's key) finds an attempt held by
 * its unit.
 *
 * <pre>
 * a unit alone:            the unit record's value (ValueCodec)
 * a unit with an attempt:  FD, 81 (the layout's version), int32 length of the unit's value, the unit's value,
 *                          int64 attempt seq, the attempt's value
 * </pre>
 *
 * {@code FD} is neither Smile's first byte nor {@link BinaryRecords}' format byte, so values written before the
 * attempt moved in still read. The first layout had no version byte: its int32 length follows {@code FD} directly
 * and, values being under 1 MiB, starts with 00; such values still read.
 */
public final class UnitValue {

    public static final byte WITH_ATTEMPT = (byte) 0xFD;
    static final byte VERSION = (byte) 0x81;

    private UnitValue() {}

    public static boolean hasAttempt(byte[] stored) {
        return stored != null && stored.length > 0 && stored[0] == WITH_ATTEMPT;
    }

    /** The unit record's own value. */
    public static byte[] unit(byte[] stored) {
        if (!hasAttempt(stored)) {
            return stored;
        }
        int at = lengthAt(stored);
        int length = ByteBuffer.wrap(stored, at, 4).getInt();
        return Arrays.copyOfRange(stored, at + 4, at + 4 + length);
    }

    /** The seq of the attempt held, or -1. */
    public static long attemptSeq(byte[] stored) {
        if (!hasAttempt(stored)) {
            return -1;
        }
        int at = lengthAt(stored);
        int length = ByteBuffer.wrap(stored, at, 4).getInt();
        return ByteBuffer.wrap(stored, at + 4 + length, 8).getLong();
    }

    /** The attempt's value, or null when the unit holds none. */
    public static byte[] attempt(byte[] stored) {
        if (!hasAttempt(stored)) {
            return null;
        }
        int at = lengthAt(stored);
        int length = ByteBuffer.wrap(stored, at, 4).getInt();
        return Arrays.copyOfRange(stored, at + 4 + length + 8, stored.length);
    }

    /** Where the unit's length is: after the version byte, or right after {@code FD} in the first layout. */
    private static int lengthAt(byte[] stored) {
        if (stored[1] == VERSION) {
            return 2;
        }
        if (stored[1] != 0) {
            throw new IllegalStateException("a unit's value of an unknown layout version: " + (stored[1] & 0xFF)
                    + " (written by a later version of the app?)");
        }
        return 1;
    }

    /**
     * {@code stored} with its unit record's value replaced by {@code unit}, keeping the attempt it holds (if any):
     * the attempt's bytes are copied as they are, not read.
     */
    public static byte[] withUnit(byte[] stored, byte[] unit) {
        if (!hasAttempt(stored)) {
            return unit;
        }
        int at = lengthAt(stored);
        int tail = at + 4 + ByteBuffer.wrap(stored, at, 4).getInt(); // the attempt's seq, then its value
        return ByteBuffer.allocate(2 + 4 + unit.length + stored.length - tail)
                .put(WITH_ATTEMPT)
                .put(VERSION)
                .putInt(unit.length)
                .put(unit)
                .put(stored, tail, stored.length - tail)
                .array();
    }

    /** {@code stored}, which holds an attempt, with that attempt replaced: the unit's bytes are copied as they are. */
    public static byte[] withAttempt(byte[] stored, long attemptSeq, byte[] attempt) {
        int at = lengthAt(stored);
        int length = ByteBuffer.wrap(stored, at, 4).getInt();
        return ByteBuffer.allocate(2 + 4 + length + 8 + attempt.length)
                .put(WITH_ATTEMPT)
                .put(VERSION)
                .putInt(length)
                .put(stored, at + 4, length)
                .putLong(attemptSeq)
                .put(attempt)
                .array();
    }

    public static byte[] of(byte[] unit, long attemptSeq, byte[] attempt) {
        if (attempt == null) {
            return unit;
        }
        return ByteBuffer.allocate(2 + 4 + unit.length + 8 + attempt.length)
                .put(WITH_ATTEMPT)
                .put(VERSION)
                .putInt(unit.length)
                .put(unit)
                .putLong(attemptSeq)
                .put(attempt)
                .array();
    }
}
