package io.coordinate.engine.state.db;

import io.coordinate.engine.state.codec.KeySpace;
import io.coordinate.storage.KeyValueIterator;
import io.coordinate.storage.ReadableKeyValueStore;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** The values of {@link AttemptBlocks}' entries: their layouts, read and written (see the table there). */
final class AttemptBlockValues {

    private static final int SIZE = 1 << AttemptBlocks.SHIFT;

    private AttemptBlockValues() {}

    private static int offset(long seq) {
        return (int) (seq & (SIZE - 1));
    }

    static long decodeBits(byte[] value) {
        return value == null ? 0 : ByteBuffer.wrap(value).getLong();
    }

    static byte[] encodeBits(long bits) {
        return ByteBuffer.allocate(Long.BYTES).putLong(bits).array();
    }

    /** Adds the attempt numbers a bitmap entry of {@code block} lists to {@code out}, ascending. */
    static void addSeqs(long block, byte[] value, List<Long> out) {
        long bits = decodeBits(value);
        long first = block << AttemptBlocks.SHIFT;
        while (bits != 0) {
            out.add(first + Long.numberOfTrailingZeros(bits));
            bits &= bits - 1;
        }
    }

    /** Bit 7 of an entry's first byte: the unit's value follows its key. */
    private static final int CARRIES = 0x80;

    /**
     * The first byte of a units entry's value: its layout's version. An entry's own first byte is at most
     * {@code CARRIES | (SIZE - 1)} (0xBF), so a value without this byte, as the first layout wrote them, still reads.
     */
    static final byte UNITS_VERSION = (byte) 0xC1;

    /** A units entry's value, positioned after its version byte when it has one. */
    private static ByteBuffer unitsEntry(byte[] value) {
        ByteBuffer in = ByteBuffer.wrap(value);
        int first = value.length == 0 ? 0 : value[0] & 0xFF;
        if (first > (CARRIES | (SIZE - 1))) {
            if (value[0] != UNITS_VERSION) {
                throw new IllegalStateException("a units entry of an unknown layout version: " + first
                        + " (written by a later version of the app?)");
            }
            in.position(1);
        }
        return in;
    }

    /** The unit key a units entry holds for the attempt, or null; reads the value without decoding all of it. */
    static byte[] unitKeyIn(byte[] value, long seq) {
        if (value == null) {
            return null;
        }
        ByteBuffer in = unitsEntry(value);
        int wanted = offset(seq);
        while (in.hasRemaining()) {
            int head = in.get() & 0xFF;
            int offset = head & (SIZE - 1);
            int length = in.getInt();
            if (offset == wanted) {
                byte[] key = new byte[length];
                in.get(key);
                return key;
            }
            if (offset > wanted) {
                return null;
            }
            in.position(in.position() + length);
            if ((head & CARRIES) != 0) {
                int carried = in.getInt();
                in.position(in.position() + carried);
            }
        }
        return null;
    }

    /** Decodes a units entry into the keys and the values it carries, by offset in the block. */
    static void decodeUnits(byte[] value, byte[][] keys, byte[][] values) {
        if (value == null) {
            return;
        }
        ByteBuffer in = unitsEntry(value);
        while (in.hasRemaining()) {
            int head = in.get() & 0xFF;
            int offset = head & (SIZE - 1);
            byte[] key = new byte[in.getInt()];
            in.get(key);
            keys[offset] = key;
            if ((head & CARRIES) != 0) {
                byte[] carried = new byte[in.getInt()];
                in.get(carried);
                values[offset] = carried;
            }
        }
    }

    /** The units entry's value, or null when it lists nothing; a value is written only with its unit's key. */
    static byte[] encodeUnits(byte[][] keys, byte[][] values) {
        int size = 0;
        for (int offset = 0; offset < keys.length; offset++) {
            if (keys[offset] != null) {
                size += 1 + Integer.BYTES + keys[offset].length;
                size += values[offset] == null ? 0 : Integer.BYTES + values[offset].length;
            }
        }
        if (size == 0) {
            return null;
        }
        ByteBuffer out = ByteBuffer.allocate(1 + size).put(UNITS_VERSION);
        for (int offset = 0; offset < keys.length; offset++) {
            if (keys[offset] != null) {
                byte[] carried = values[offset];
                out.put((byte) (offset | (carried == null ? 0 : CARRIES)))
                        .putInt(keys[offset].length)
                        .put(keys[offset]);
                if (carried != null) {
                    out.putInt(carried.length).put(carried);
                }
            }
        }
        return out.array();
    }

    /** The attempt numbers listed under a prefix of bitmap entries whose keys end in their block. */
    static List<Long> seqsUnder(ReadableKeyValueStore store, byte[] prefix) {
        List<Long> seqs = new ArrayList<>();
        try (KeyValueIterator it = store.prefix(prefix)) {
            while (it.hasNext()) {
                KeyValueIterator.Entry entry = it.next();
                addSeqs(KeySpace.trailingSeq(entry.key()), entry.value(), seqs);
            }
        }
        return seqs;
    }
}
