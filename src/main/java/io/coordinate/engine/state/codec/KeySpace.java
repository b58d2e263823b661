package io.coordinate.engine.state.codec;

import io.coordinate.storage.KeyRanges;
import java.util.Arrays;

/**
 * The one ordered key space of the state, across its families ({@link KeyFamily}): where a namespace's data starts,
 * the groups a range may read from one store, the versions of the whole space, and the parts every module's keys
 * end with. Keys order as unsigned bytes; their parts are written by {@link KeyWriter}.
 */
public final class KeySpace {

    /** The first byte of a namespace's data: {@code 10 [ns] tag ...}, the tag naming the family. */
    public static final byte NAMESPACE_DATA = 0x10;

    private KeySpace() {}

    /** {@code 06}: the records' version, one step per command. */
    public static byte[] stateVersion() {
        return new byte[] {KeyFamily.STATE_VERSION.tag()};
    }

    /** {@code 07}: the version the indexes were derived at. */
    public static byte[] indexVersion() {
        return new byte[] {KeyFamily.INDEX_VERSION.tag()};
    }

    /** {@code 08}: the layout of the indexes. */
    public static byte[] indexLayout() {
        return new byte[] {KeyFamily.INDEX_LAYOUT.tag()};
    }

    /**
     * The end of the group of keys that {@code from} starts in (one top-level space, or one tag of a namespace's
     * data), all of one family; null when {@code from} is too short to name its group.
     */
    public static byte[] groupEnd(byte[] from) {
        if (from.length == 0) {
            return null;
        }
        if (from[0] != NAMESPACE_DATA) {
            return new byte[] {(byte) (from[0] + 1)};
        }
        int tag = dataTagOffset(from);
        return tag < 0 ? null : prefixEnd(Arrays.copyOf(from, tag + 1));
    }

    /** Where the tag of a {@code 10 [ns] tag ...} key is; -1 for any other key. */
    public static int namespaceTagOffset(byte[] key) {
        return key.length > 0 && key[0] == NAMESPACE_DATA ? dataTagOffset(key) : -1;
    }

    /** Where the tag after {@code 10 [ns]} is, or -1 when the key ends before it. */
    private static int dataTagOffset(byte[] key) {
        for (int i = 1; i + 1 < key.length; i++) {
            if (key[i] == 0) {
                if (key[i + 1] == 1) {
                    return i + 2 < key.length ? i + 2 : -1;
                }
                i++; // 0x00 0xFF: an escaped zero byte of the name
            }
        }
        return -1;
    }

    /** The string that follows {@code prefix} in {@code key}: a child name, a unit name, ... */
    public static String stringAfter(byte[] key, byte[] prefix) {
        return new KeyReader(key, prefix.length).string();
    }

    /** The attempt sequence number (or block number) at the end of a key. */
    public static long trailingSeq(byte[] key) {
        return new KeyReader(key, key.length - 8).int64();
    }

    /** The smallest key greater than every key starting with {@code prefix}. */
    public static byte[] prefixEnd(byte[] prefix) {
        return KeyRanges.prefixEnd(prefix);
    }
}
