package io.coordinate.engine.state.db;

import io.coordinate.engine.state.codec.KeyFamily;
import io.coordinate.engine.state.codec.KeySpace;
import io.coordinate.storage.KeyValueIterator;
import io.coordinate.storage.KeyValueStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * One ordered key space over two stores: records in one, derived indexes in the other ({@link KeyFamily#isIndex}).
 * In production the records' store is changelogged and the indexes' store is local only, so an index write
 * costs a RocksDB put and nothing on Kafka; {@link IndexRebuild} recomputes the indexes when the two disagree.
 * A range inside one key group reads one store; a wider one (a whole namespace) merges both.
 */
public final class SplitStore implements KeyValueStore {

    private final KeyValueStore records;
    private final KeyValueStore indexes;

    public SplitStore(KeyValueStore records, KeyValueStore indexes) {
        this.records = records;
        this.indexes = indexes;
    }

    public KeyValueStore records() {
        return records;
    }

    public KeyValueStore indexes() {
        return indexes;
    }

    /** The {@code 10 [ns] 00 01} of the last namespace key routed: a command's keys nearly all share it. */
    private byte[] lastNamespacePrefix = new byte[0];

    private KeyValueStore storeOf(byte[] key) {
        byte[] prefix = lastNamespacePrefix;
        int length = prefix.length;
        if (length > 0 && key.length > length && Arrays.equals(key, 0, length, prefix, 0, length)) {
            return KeyFamily.isRecordTag(key[length]) ? records : indexes;
        }
        int tag = KeySpace.namespaceTagOffset(key);
        if (tag > 0) {
            lastNamespacePrefix = Arrays.copyOf(key, tag);
            return KeyFamily.isRecordTag(key[tag]) ? records : indexes;
        }
        return KeyFamily.isIndex(key) ? indexes : records;
    }

    @Override
    public byte[] get(byte[] key) {
        return storeOf(key).get(key);
    }

    @Override
    public void put(byte[] key, byte[] value) {
        storeOf(key).put(key, value);
    }

    @Override
    public void delete(byte[] key) {
        storeOf(key).delete(key);
    }

    @Override
    public void putAll(List<KeyValueIterator.Entry> writes) {
        List<KeyValueIterator.Entry> toRecords = new ArrayList<>();
        List<KeyValueIterator.Entry> toIndexes = new ArrayList<>(writes.size());
        for (KeyValueIterator.Entry write : writes) {
            (storeOf(write.key()) == records ? toRecords : toIndexes).add(write);
        }
        if (!toRecords.isEmpty()) {
            records.putAll(toRecords);
        }
        if (!toIndexes.isEmpty()) {
            indexes.putAll(toIndexes);
        }
    }

    @Override
    public KeyValueIterator range(byte[] from, byte[] to) {
        byte[] groupEnd = KeySpace.groupEnd(from);
        if (groupEnd != null && Arrays.compareUnsigned(to, groupEnd) <= 0) {
            return storeOf(from).range(from, to);
        }
        return new Merged(records.range(from, to), indexes.range(from, to));
    }

    /** The entries of two stores with disjoint keys, in key order. */
    private static final class Merged implements KeyValueIterator {
        private final KeyValueIterator left;
        private final KeyValueIterator right;
        private Entry nextLeft;
        private Entry nextRight;

        Merged(KeyValueIterator left, KeyValueIterator right) {
            this.left = left;
            this.right = right;
            this.nextLeft = left.hasNext() ? left.next() : null;
            this.nextRight = right.hasNext() ? right.next() : null;
        }

        @Override
        public boolean hasNext() {
            return nextLeft != null || nextRight != null;
        }

        @Override
        public Entry next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            boolean takeLeft = nextRight == null
                    || (nextLeft != null && Arrays.compareUnsigned(nextLeft.key(), nextRight.key()) < 0);
            Entry current;
            if (takeLeft) {
                current = nextLeft;
                nextLeft = left.hasNext() ? left.next() : null;
            } else {
                current = nextRight;
                nextRight = right.hasNext() ? right.next() : null;
            }
            return current;
        }

        @Override
        public void close() {
            try {
                left.close();
            } finally {
                right.close();
            }
        }
    }
}
