package io.coordinate.engine.state.codec;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** Reads back the parts written by {@link KeyWriter}, in order. */
public final class KeyReader {

    private final byte[] bytes;
    private int position;

    public KeyReader(byte[] bytes, int offset) {
        this.bytes = bytes;
        this.position = offset;
    }

    public byte tag() {
        return bytes[position++];
    }

    public String string() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while (true) {
            byte b = bytes[position++];
            if (b == 0) {
                byte marker = bytes[position++];
                if (marker == 1) {
                    return out.toString(StandardCharsets.UTF_8);
                }
                out.write(0); // escaped 0x00
            } else {
                out.write(b);
            }
        }
    }

    public long int64() {
        return rawLong() ^ Long.MIN_VALUE;
    }

    public long int64Descending() {
        return ~rawLong() ^ Long.MIN_VALUE;
    }

    public double float64() {
        return KeyWriter.fromSortableBits(rawLong());
    }

    public double float64Descending() {
        return KeyWriter.fromSortableBits(~rawLong());
    }

    private long rawLong() {
        long value = 0;
        for (int i = 0; i < 8; i++) {
            value = (value << 8) | (bytes[position++] & 0xFF);
        }
        return value;
    }
}
