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
    /** A hash map's capacity that holds a few hundred keys without growing. */
    private static final int INITIAL_CAPACITY = 512;

    private final KeyValueStore base;
    /**
     * The writes, deletions as {@link #TOMBSTONE}. Sized for a batch of a hundred units from the start: each command
     * has a buffer of its own, and growing the table step by step showed in the stream thread's profile.
     */
    private final Map<ByteKey, byte[]> writes = new HashMap<>(INITIAL_CAPACITY);
    /** What this command read from the store (up to {@link #MAX_READS_KEPT}), absent keys as {@link #TOMBSTONE}. */
    private final Map<ByteKey, byte[]> reads = new HashMap<>(INITIAL_CAPACITY);
    /**
     * The writes in key order, built by the first range scan that needs them and kept from then on: most commands
     * never scan after writing, and a hash map's put and lookup cost less than a tree's (docs/performance.md, History).
     */
    private NavigableMap<byte[], byte[]> sorted;

    public WriteBuffer(KeyValueStore base) {
        this.base = base;
    }

    @Override
    public byte[] get(byte[] key) {
        // A command reads some keys several times (a unit: by the handler, then to keep the attempt it holds, then by
        // the cascade); the store is asked once.
        ByteKey readKey = new ByteKey(key);
        byte[] value = writes.get(readKey);
        if (value == null) {
            value = reads.get(readKey);
        }
        if (value == null) {
            value = base.get(key);
            keepRead(readKey, value);
            return value;
        }
        return value == TOMBSTONE ? null : value;
    }

    @Override
    public void known(byte[] key, byte[] value) {
        keepRead(new ByteKey(key), value); // a write of the key, if any, is seen first
    }

    private void keepRead(ByteKey key, byte[] value) {
        if (reads.size() < MAX_READS_KEPT) {
            reads.putIfAbsent(key, value == null ? TOMBSTONE : value);
        }
    }

    @Override
    public void put(byte[] key, byte[] value) {
        write(key.clone(), value);
    }

    @Override
    public void delete(byte[] key) {
        write(key.clone(), TOMBSTONE);
    }

    private void write(byte[] key, byte[] value) {
        writes.put(new ByteKey(key), value);
        if (sorted != null) {
            sorted.put(key, value);
        }
    }

    /** Applies every buffered write to the underlying store, in one batch. */
    public void commit() {
        List<KeyValueIterator.Entry> entries = new ArrayList<>(writes.size());
        writes.forEach(
                (key, value) -> entries.add(new KeyValueIterator.Entry(key.bytes, value == TOMBSTONE ? null : value)));
        base.putAll(entries); // in no particular order: nothing below needs one, and a sort cost the stream thread
        discard();
    }

    /**
     * The largest key + value among the buffered writes whose key {@code counted} takes, counting only those over
     * {@code floor} (0 when none is).
     */
    public int largestWrite(int floor, Predicate<byte[]> counted) {
        int largest = 0;
        for (Map.Entry<ByteKey, byte[]> e : writes.entrySet()) {
            int size = e.getKey().bytes.length + e.getValue().length;
            if (size > floor && size > largest && counted.test(e.getKey().bytes)) {
                largest = size;
            }
        }
        return largest;
    }

    public void discard() {
        writes.clear();
        reads.clear();
        sorted = null;
    }

    public boolean isEmpty() {
        return writes.isEmpty();
    }

    @Override
    public KeyValueIterator range(byte[] from, byte[] to) {
        if (writes.isEmpty() || Arrays.compareUnsigned(from, to) >= 0) {
            return base.range(from, to);
        }
        if (sorted == null) {
            sorted = new TreeMap<>(Arrays::compareUnsigned);
            writes.forEach((key, value) -> sorted.put(key.bytes, value));
        }
        return new OverlaidEntries(
                base.range(from, to),
                sorted.subMap(from, true, to, false).entrySet().iterator(),
                TOMBSTONE);
    }
}
