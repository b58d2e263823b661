package io.coordinate.engine.state.db;

import io.coordinate.engine.state.StateListener;
import io.coordinate.engine.state.codec.KeySpace;
import io.coordinate.engine.state.codec.ValueCodec;
import io.coordinate.storage.ByteKey;
import io.coordinate.storage.KeyValueIterator;
import io.coordinate.storage.KeyValueStore;
import io.coordinate.storage.ReadableKeyValueStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What the modules of one {@link DbState} share: the store and, in the engine, its structures kept across commands.
 * A reader (a query's) has no writable store and no blocks.
 */
final class DbContext {

    final ReadableKeyValueStore store;
    /** null in a reader */
    final KeyValueStore writable;
    /** where index scans may start (the engine's); null = always from the start */
    final ScanHints hints;
    /** the attempt indexes kept by block, changed in memory until {@link #flushBlocks}; null in a reader */
    final AttemptBlocks blocks;
    /** specs decoded by earlier commands (the engine's), or null */
    final DecodedSpecs decodedSpecs;

    StateListener listener = StateListener.NONE;
    /**
     * The time of the command or time step these writes belong to (the engine's), which a unit that becomes available
     * takes as its {@code availableSince}; null where writes only derive (a rebuild) or no time is given (tests).
     */
    Long now;

    private DbContext(ReadableKeyValueStore store, KeyValueStore writable, ScanHints hints, DecodedSpecs decodedSpecs) {
        this.store = store;
        this.writable = writable;
        this.hints = hints;
        this.decodedSpecs = decodedSpecs;
        this.blocks = writable == null ? null : new AttemptBlocks(writable);
    }

    static DbContext reader(ReadableKeyValueStore store) {
        return new DbContext(store, null, null, null);
    }

    static DbContext writer(KeyValueStore store, ScanHints hints, DecodedSpecs decodedSpecs) {
        return new DbContext(store, store, hints, decodedSpecs);
    }

    /** Writes the attempt blocks' changes, so that a scan of the attempt indexes sees them. */
    void flushBlocks() {
        if (blocks != null) {
            blocks.flush();
        }
    }

    <T> List<T> collect(byte[] prefix, int limit, Function<KeyValueIterator.Entry, T> map) {
        return collect(prefix, KeySpace.prefixEnd(prefix), limit, map);
    }

    <T> List<T> collect(byte[] from, byte[] to, int limit, Function<KeyValueIterator.Entry, T> map) {
        List<T> out = new ArrayList<>();
        if (limit <= 0) {
            return out;
        }
        try (KeyValueIterator it = store.range(from, to)) {
            while (it.hasNext() && out.size() < limit) {
                out.add(map.apply(it.next()));
            }
        }
        return out;
    }

    void deleteRange(byte[] prefix) {
        for (byte[] key : collect(prefix, Integer.MAX_VALUE, KeyValueIterator.Entry::key)) {
            writable.delete(key);
        }
    }

    /** Adds to a stored counter; a counter at zero is deleted. */
    void addToCounter(byte[] key, long delta) {
        long value = ValueCodec.decodeLong(store.get(key)) + delta;
        if (value == 0) {
            writable.delete(key);
        } else {
            writable.put(key, ValueCodec.encodeLong(value));
        }
    }

    /** The smallest key strictly greater than {@code key}. */
    static byte[] successor(byte[] key) {
        return Arrays.copyOf(key, key.length + 1);
    }

    /**
     * Reads these keys in one range scan when they lie close together, telling the store what it found, so that the
     * reads that follow cost no lookup each; reads nothing when the range holds more than as many other keys again.
     */
    void prefetch(List<byte[]> keys) {
        keys.sort(Arrays::compareUnsigned);
        Map<ByteKey, byte[]> found = new HashMap<>();
        try (KeyValueIterator it = store.range(keys.get(0), successor(keys.get(keys.size() - 1)))) {
            for (int budget = 2 * keys.size(); it.hasNext(); budget--) {
                if (budget == 0) {
                    return; // the keys are spread among others: read each by key
                }
                KeyValueIterator.Entry entry = it.next();
                found.put(new ByteKey(entry.key()), entry.value());
            }
        }
        for (byte[] key : keys) {
            store.known(key, found.get(new ByteKey(key)));
        }
    }
}
