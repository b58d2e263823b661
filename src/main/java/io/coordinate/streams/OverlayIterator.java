package io.coordinate.streams;

import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;

/**
 * The entries of sorted sources merged in key order, the first source that holds a key giving its value (the
 * overlays before RocksDB, the latest overlay first); a deletion marker hides the key. Stops after {@code to} or at
 * the first key without {@code prefix}.
 */
final class OverlayIterator implements KeyValueIterator<Bytes, byte[]> {

    static final KeyValueIterator<Bytes, byte[]> EMPTY = new KeyValueIterator<>() {
        @Override
        public void close() {}

        @Override
        public Bytes peekNextKey() {
            throw new NoSuchElementException();
        }

        @Override
        public boolean hasNext() {
            return false;
        }

        @Override
        public KeyValue<Bytes, byte[]> next() {
            throw new NoSuchElementException();
        }
    };

    private final Iterator<Map.Entry<byte[], byte[]>>[] sources;
    private final Map.Entry<byte[], byte[]>[] heads;
    private final AutoCloseable closeable;
    private final byte[] to;
    private final byte[] prefix;
    private final byte[] tombstone;
    private KeyValue<Bytes, byte[]> next;

    /**
     * @param overlays in order of precedence
     * @param base the stored entries, below every overlay; closed with this iterator
     * @param to the last key (included), or null
     * @param prefix the keys' common prefix, or null
     * @param tombstone the overlays' deletion marker (compared by identity)
     */
    @SuppressWarnings("unchecked")
    <B extends Iterator<Map.Entry<byte[], byte[]>> & AutoCloseable> OverlayIterator(
            List<Iterator<Map.Entry<byte[], byte[]>>> overlays, B base, Bytes to, Bytes prefix, byte[] tombstone) {
        this.sources = new Iterator[overlays.size() + 1];
        for (int i = 0; i < overlays.size(); i++) {
            sources[i] = overlays.get(i);
        }
        sources[overlays.size()] = base;
        this.heads = new Map.Entry[sources.length];
        this.closeable = base;
        this.to = to == null ? null : to.get();
        this.prefix = prefix == null ? null : prefix.get();
        this.tombstone = tombstone;
        for (int i = 0; i < sources.length; i++) {
            heads[i] = sources[i].hasNext() ? sources[i].next() : null;
        }
        next = advance();
    }

    private KeyValue<Bytes, byte[]> advance() {
        while (true) {
            byte[] smallest = null;
            for (Map.Entry<byte[], byte[]> head : heads) {
                if (head != null && (smallest == null || Arrays.compareUnsigned(head.getKey(), smallest) < 0)) {
                    smallest = head.getKey();
                }
            }
            if (smallest == null || !within(smallest)) {
                return null;
            }
            byte[] value = null;
            for (int i = 0; i < heads.length; i++) {
                if (heads[i] != null && Arrays.equals(heads[i].getKey(), smallest)) {
                    if (value == null) {
                        value = heads[i].getValue();
                    }
                    heads[i] = sources[i].hasNext() ? sources[i].next() : null;
                }
            }
            if (value != tombstone) {
                return KeyValue.pair(Bytes.wrap(smallest), value);
            }
        }
    }

    private boolean within(byte[] key) {
        if (to != null && Arrays.compareUnsigned(key, to) > 0) {
            return false;
        }
        return prefix == null
                || key.length >= prefix.length && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
    }

    @Override
    public boolean hasNext() {
        return next != null;
    }

    @Override
    public KeyValue<Bytes, byte[]> next() {
        if (next == null) {
            throw new NoSuchElementException();
        }
        KeyValue<Bytes, byte[]> result = next;
        next = advance();
        return result;
    }

    @Override
    public Bytes peekNextKey() {
        if (next == null) {
            throw new NoSuchElementException();
        }
        return next.key;
    }

    @Override
    public void close() {
        try {
            closeable.close();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
