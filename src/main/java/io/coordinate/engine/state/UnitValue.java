package io.coordinate.engine.state;

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
 * a unit with an attempt:  FD, int32 length of the unit's value, the unit's value, int64 attempt seq, the attempt's value
 * </pre>
 *
 * {@code FD} is neither Smile's first byte nor {@link BinaryRecords}' format byte, so values written before the
 * attempt moved in still read.
 */
final class UnitValue {

  static final byte WITH_ATTEMPT = (byte) 0xFD;

  private UnitValue() {}

  static boolean hasAttempt(byte[] stored) {
    return stored != null && stored.length > 0 && stored[0] == WITH_ATTEMPT;
  }

  /** The unit record's own value. */
  static byte[] unit(byte[] stored) {
    if (!hasAttempt(stored)) {
      return stored;
    }
    int length = ByteBuffer.wrap(stored, 1, 4).getInt();
    return Arrays.copyOfRange(stored, 5, 5 + length);
  }

  /** The seq of the attempt held, or -1. */
  static long attemptSeq(byte[] stored) {
    if (!hasAttempt(stored)) {
      return -1;
    }
    int length = ByteBuffer.wrap(stored, 1, 4).getInt();
    return ByteBuffer.wrap(stored, 5 + length, 8).getLong();
  }

  /** The attempt's value, or null when the unit holds none. */
  static byte[] attempt(byte[] stored) {
    if (!hasAttempt(stored)) {
      return null;
    }
    int length = ByteBuffer.wrap(stored, 1, 4).getInt();
    return Arrays.copyOfRange(stored, 5 + length + 8, stored.length);
  }

  static byte[] of(byte[] unit, long attemptSeq, byte[] attempt) {
    if (attempt == null) {
      return unit;
    }
    return ByteBuffer.allocate(1 + 4 + unit.length + 8 + attempt.length).put(WITH_ATTEMPT).putInt(unit.length)
        .put(unit).putLong(attemptSeq).put(attempt).array();
  }
}
