package io.coordinate.engine.state.codec;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Builds order-preserving composite keys: the unsigned byte order of the result equals the logical order of
 * the parts. Strings are UTF-8 with 0x00 escaped as 0x00 0xFF and closed by 0x00 0x01 (a terminator, never a
 * length prefix, which would sort by length); longs are big-endian with the sign bit flipped; doubles are
 * mapped to such longs; "descending" parts invert every bit.
 */
public final class KeyWriter {

    private byte[] bytes;
    private int length;

    public KeyWriter() {
        bytes = new byte[64];
    }

    /** A key that starts with {@code prefix} (an encoded prefix kept for reuse: it is copied, not kept). */
    public KeyWriter(byte[] prefix) {
        bytes = Arrays.copyOf(prefix, prefix.length + 48);
        length = prefix.length;
    }

    public KeyWriter tag(byte tag) {
        ensure(1);
        bytes[length++] = tag;
        return this;
    }

    public KeyWriter string(String value) {
        // Names are nearly always ASCII without NUL: copy them char by char, with no UTF-8 array in between.
        int n = value.length();
        ensure(n + 2);
        int start = length;
        for (int i = 0; i < n; i++) {
            char c = value.charAt(i);
            if (c == 0 || c >= 0x80) {
                length = start;
                return escapedString(value);
            }
            bytes[length++] = (byte) c;
        }
        bytes[length++] = 0;
        bytes[length++] = 1;
        return this;
    }

    private KeyWriter escapedString(String value) {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        ensure(utf8.length * 2 + 2);
        for (byte b : utf8) {
            bytes[length++] = b;
            if (b == 0) {
                bytes[length++] = (byte) 0xFF;
            }
        }
        bytes[length++] = 0;
        bytes[length++] = 1;
        return this;
    }

    public KeyWriter int64(long value) {
        return rawLong(value ^ Long.MIN_VALUE);
    }

    public KeyWriter int64Descending(long value) {
        return rawLong(~(value ^ Long.MIN_VALUE));
    }

    public KeyWriter float64(double value) {
        return rawLong(sortableBits(value));
    }

    public KeyWriter float64Descending(double value) {
        return rawLong(~sortableBits(value));
    }

    public byte[] toBytes() {
        return Arrays.copyOf(bytes, length);
    }

    /** IEEE-754 bits rearranged so that unsigned order equals numeric order (NaN after +inf). */
    static long sortableBits(double value) {
        long bits = Double.doubleToLongBits(value == 0.0 ? 0.0 : value); // -0.0 sorts as 0.0
        return bits < 0 ? ~bits : bits ^ Long.MIN_VALUE;
    }

    static double fromSortableBits(long sortable) {
        long bits = sortable < 0 ? sortable ^ Long.MIN_VALUE : ~sortable;
        return Double.longBitsToDouble(bits);
    }

    private KeyWriter rawLong(long value) {
        ensure(8);
        for (int shift = 56; shift >= 0; shift -= 8) {
            bytes[length++] = (byte) (value >>> shift);
        }
        return this;
    }

    private void ensure(int extra) {
        if (length + extra > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + extra));
        }
    }
}
