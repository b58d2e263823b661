package io.coordinate.storage;

import java.util.Arrays;

/** Key ranges over unsigned byte order, as RocksDB sorts keys. */
public final class KeyRanges {

    private KeyRanges() {}

    /** The smallest key greater than every key that starts with {@code prefix}: a range scan's exclusive end. */
    public static byte[] prefixEnd(byte[] prefix) {
        byte[] end = Arrays.copyOf(prefix, prefix.length);
        for (int i = end.length - 1; i >= 0; i--) {
            if (end[i] != (byte) 0xFF) {
                end[i]++;
                return Arrays.copyOf(end, i + 1);
            }
        }
        return new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF};
    }
}
