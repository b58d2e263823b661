package io.coordinate.storage;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The writes of one command, held in memory over the real store until {@link #commit()}: a rejected or
 * failed command is dropped with {@link #discard()} and leaves the store exactly as it was. Reads and range
 * scans see the buffered writes merged over the store. Repeated writes of one key (a spec's counters, say)
 * reach the store once.
 */
public final class WriteBuffer implements KeyValueStore {

    private static final byte[] TOMBSTONE = new byte[0];
    /** Reads kept per command: a batch touches a few hundred keys; a command that walks a whole spec keeps no more. */
    private static final int MAX_READS_KEPT = 10_000;

    private final KeyValueStore base;
    private final NavigableMap<byte[], byte[]> pending = new TreeMap<>(Arrays::compareUnsigned);
    /** What this command read from the store (absent keys as {@link #TOMBSTONE}). */
    private final Map<ByteKey, byte[]> reads = new HashMap<>();

    public WriteBuffer(KeyValueStore base) {
        this.base = base;
    }

    @Override
    public byte[] get(byte[] key) {
        byte[] value = pending.get(key);
        if (value != null) {
            return value == TOMBSTONE ? null : value;
        }
        // A command reads some keys several times (a unit: by the handler, then to keep the attempt it holds, then
        // by the cascade); the store is asked once. Writes go to pending, which is looked at first.
        ByteKey readKey = new ByteKey(key);
        byte[] read = reads.get(readKey);
        if (read == null) {
            read = base.get(key);
            if (reads.size() < MAX_READS_KEPT) {
                reads.put(readKey, read == null ? TOMBSTONE : read);
            }
        }
        return read == TOMBSTONE ? null : read;
    }

    @Override
    public void known(byte[] key, byte[] value) {
        if (reads.size() < MAX_READS_KEPT) {
            // a write of the key, if any, is in pending and is seen first
            reads.putIfAbsent(new ByteKey(key), value == null ? TOMBSTONE : value);
        }
    }

    @Override
    public void put(byte[] key, byte[] value) {
        pending.put(key.clone(), value);
    }

    @Override
    public void delete(byte[] key) {
        pending.put(key.clone(), TOMBSTONE);
    }

    /** Applies every buffered write to the underlying store. */
    public void commit() {
        List<KeyValueIterator.Entry> writes = new ArrayList<>(pending.size());
        for (Map.Entry<byte[], byte[]> e : pending.entrySet()) {
            writes.add(new KeyValueIterator.Entry(e.getKey(), e.getValue() == TOMBSTONE ? null : e.getValue()));
        }
        base.putAll(writes);
        discard();
    }

    /**
     * The largest key + value among the buffered writes whose key {@code counted} takes, counting only those over
     * {@code floor} (0 when none is).
     */
    public int largestWrite(int floor, Predicate<byte[]> counted) {
        int largest = 0;
        for (Map.Entry<byte[], byte[]> e : pending.entrySet()) {
            int size = e.getKey().length + e.getValue().length;
            if (size > floor && size > largest && counted.test(e.getKey())) {
                largest = size;
            }
        }
        return largest;
    }

    public void discard() {
        pending.clear();
        reads.clear();
    }

    public boolean isEmpty() {
        return pending.isEmpty();
    }

    @Override
    public KeyValueIterator range(byte[] from, byte[] to) {
        if (Arrays.compareUnsigned(from, to) >= 0) {
            return base.range(from, to);
        }
        return new OverlaidEntries(
                base.range(from, to),
                pending.subMap(from, true, to, false).entrySet().iterator(),
                TOMBSTONE);
    }
}
