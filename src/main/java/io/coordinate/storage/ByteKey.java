package io.coordinate.storage;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/** A store key as a hash-map key: the bytes (not copied: the owner must not change them), hash computed once. */
public final class ByteKey {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long MULTIPLIER = 0x9E3779B97F4A7C15L;

    final byte[] bytes;
    private final int hash;

    public ByteKey(byte[] bytes) {
        this.bytes = bytes;
        this.hash = hash(bytes);
    }

    /**
     * A hash of the bytes, eight at a time. {@link Arrays#hashCode(byte[])} takes them one by one, each step waiting
     * for the last, which shows in the stream thread's profile for the engine's keys. Only maps in memory use it: it
     * can change from one version to the next.
     */
    public static int hash(byte[] bytes) {
        long h = bytes.length * MULTIPLIER;
        int i = 0;
        for (; i + Long.BYTES <= bytes.length; i += Long.BYTES) {
            h = Long.rotateLeft(h ^ (long) LONGS.get(bytes, i) * MULTIPLIER, 29) * MULTIPLIER;
        }
        long tail = 0;
        for (int shift = 0; i < bytes.length; i++, shift += 8) {
            tail |= (bytes[i] & 0xFFL) << shift;
        }
        h = Long.rotateLeft(h ^ tail * MULTIPLIER, 29) * MULTIPLIER;
        return (int) (h ^ h >>> 32);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ByteKey key && hash == key.hash && Arrays.equals(bytes, key.bytes);
    }

    @Override
    public int hashCode() {
        return hash;
    }
}
