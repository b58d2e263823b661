package io.coordinate.streams;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;

/**
 * The writes of a {@link CommittedStore} that its files do not hold yet: {@code current}, written since the task
 * last prepared a commit, and {@code pending}, sealed for the commit under way until it settles. Only the stream
 * thread changes them; the store's lock keeps other threads' reads of {@code current} whole.
 */
final class WriteOverlays {

    /** A deletion in an overlay: compared by identity, never a stored value. */
    static final byte[] TOMBSTONE = new byte[0];

    private static final NavigableMap<byte[], byte[]> NONE = Collections.unmodifiableNavigableMap(newOverlay());

    // Keyed by the raw bytes in RocksDB's order: Arrays.compareUnsigned is an intrinsic, Bytes' comparator a loop.
    private volatile NavigableMap<byte[], byte[]> current = newOverlay();
    private volatile NavigableMap<byte[], byte[]> pending = NONE;

    /** Whether a value written to the files deletes its key: a deletion marker or null. */
    static boolean isDeletion(byte[] value) {
        return value == TOMBSTONE || value == null;
    }

    /** A null value deletes the key. */
    void put(byte[] key, byte[] value) {
        current.put(key, value == null ? TOMBSTONE : value);
    }

    void putAll(List<KeyValue<Bytes, byte[]>> entries) {
        NavigableMap<byte[], byte[]> into = current;
        for (KeyValue<Bytes, byte[]> entry : entries) {
            into.put(entry.key.get(), entry.value == null ? TOMBSTONE : entry.value);
        }
    }

    /**
     * The latest write of {@code key}, current before pending: read in this order, the overlays' changes can never
     * hide a write. {@link #TOMBSTONE} for a deletion, null when neither holds the key.
     */
    byte[] get(byte[] key) {
        byte[] value = current.get(key);
        return value == null ? pending.get(key) : value;
    }

    /** The task prepares a commit: what was written so far goes into the transaction that follows. */
    void seal() {
        NavigableMap<byte[], byte[]> written = current;
        if (written.isEmpty()) {
            return;
        }
        NavigableMap<byte[], byte[]> sealed = written;
        if (!pending.isEmpty()) {
            // The last commit's writes are not settled yet (nothing called the store since): both wait for this one.
            sealed = newOverlay();
            sealed.putAll(pending);
            sealed.putAll(written);
        }
        pending = sealed; // before current moves on: a reader that sees the new current finds these in pending
        current = newOverlay();
    }

    /** The sealed writes that wait for their commit to settle. */
    NavigableMap<byte[], byte[]> pending() {
        return pending;
    }

    /** The files hold the pending writes now. */
    void settled() {
        pending = NONE; // after RocksDB holds them: a reader that still sees them finds the same values there
    }

    /** Drops both overlays. */
    void clear() {
        current = newOverlay();
        pending = NONE;
    }

    /**
     * Iterators over both overlays' entries from {@code from} to {@code to} (both included, null for no bound), current
     * first. {@code copyCurrent}: for a query from another thread, which takes a copy of current's part under the
     * store's lock, since the stream thread may write it while the query reads.
     */
    List<Iterator<Map.Entry<byte[], byte[]>>> slices(Bytes from, Bytes to, boolean copyCurrent) {
        Iterator<Map.Entry<byte[], byte[]>> written = copyCurrent
                ? new ArrayList<>(slice(current, from, to).entrySet()).iterator()
                : slice(current, from, to).entrySet().iterator();
        return List.of(written, slice(pending, from, to).entrySet().iterator());
    }

    private static NavigableMap<byte[], byte[]> slice(NavigableMap<byte[], byte[]> map, Bytes from, Bytes to) {
        if (map.isEmpty()) {
            return map;
        }
        if (from == null && to == null) {
            return map;
        }
        if (from == null) {
            return map.headMap(to.get(), true);
        }
        return to == null ? map.tailMap(from.get(), true) : map.subMap(from.get(), true, to.get(), true);
    }

    /**
     * A plain sorted map: only the stream thread writes it, under the store's write lock, and other threads read it
     * under the read lock. Once it is {@code pending} nothing writes it any more.
     */
    private static NavigableMap<byte[], byte[]> newOverlay() {
        return new TreeMap<>(Arrays::compareUnsigned);
    }
}
