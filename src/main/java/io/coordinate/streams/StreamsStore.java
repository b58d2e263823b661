package io.coordinate.streams;

import io.coordinate.storage.KeyValueIterator;
import io.coordinate.storage.KeyValueStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The engine's {@link KeyValueStore} over a Kafka Streams store (RocksDB without Streams' cache: the engine buffers
 * a command's writes itself). Kafka's {@code range} includes its upper bound; the engine's excludes it, so the
 * bound is skipped here.
 */
final class StreamsStore implements KeyValueStore {

    private final ReadOnlyKeyValueStore<Bytes, byte[]> reader;
    private final org.apache.kafka.streams.state.KeyValueStore<Bytes, byte[]> writer;

    private StreamsStore(
            ReadOnlyKeyValueStore<Bytes, byte[]> reader,
            org.apache.kafka.streams.state.KeyValueStore<Bytes, byte[]> writer) {
        this.reader = reader;
        this.writer = writer;
    }

    /** The task's own store, read and written by the processor. */
    static StreamsStore writable(org.apache.kafka.streams.state.KeyValueStore<Bytes, byte[]> store) {
        return new StreamsStore(store, store);
    }

    /** A store as interactive queries see it: writes are refused. */
    static StreamsStore readOnly(ReadOnlyKeyValueStore<Bytes, byte[]> store) {
        return new StreamsStore(store, null);
    }

    @Override
    public byte[] get(byte[] key) {
        return reader.get(Bytes.wrap(key));
    }

    @Override
    public void put(byte[] key, byte[] value) {
        writer.put(Bytes.wrap(key), value);
    }

    @Override
    public void delete(byte[] key) {
        writer.delete(Bytes.wrap(key));
    }

    /** One RocksDB write batch (and one changelog record per write, for a logged store). */
    @Override
    public void putAll(List<KeyValueIterator.Entry> writes) {
        List<KeyValue<Bytes, byte[]>> batch = new ArrayList<>(writes.size());
        for (KeyValueIterator.Entry write : writes) {
            batch.add(KeyValue.pair(Bytes.wrap(write.key()), write.value()));
        }
        writer.putAll(batch);
    }

    @Override
    public KeyValueIterator range(byte[] from, byte[] to) {
        org.apache.kafka.streams.state.KeyValueIterator<Bytes, byte[]> it =
                reader.range(Bytes.wrap(from), Bytes.wrap(to));
        return new KeyValueIterator() {
            private Entry next = advance();

            private Entry advance() {
                while (it.hasNext()) {
                    org.apache.kafka.streams.KeyValue<Bytes, byte[]> kv = it.next();
                    byte[] key = kv.key.get();
                    if (Arrays.compareUnsigned(key, to) < 0) {
                        return new Entry(key, kv.value);
                    }
                }
                return null;
            }

            @Override
            public boolean hasNext() {
                return next != null;
            }

            @Override
            public Entry next() {
                if (next == null) {
                    throw new NoSuchElementException();
                }
                Entry current = next;
                next = advance();
                return current;
            }

            @Override
            public void close() {
                it.close();
            }
        };
    }
}
