package io.coordinate.storage;

import java.util.List;

/**
 * An ordered byte-keyed store: the one storage abstraction of the engine. Keys order as unsigned bytes (as
 * RocksDB orders them), so composite keys give ordered range scans. Implemented over a
 * Kafka Streams RocksDB store in production and over a {@code TreeMap} in engine tests.
 */
public interface KeyValueStore extends ReadableKeyValueStore {

    void put(byte[] key, byte[] value);

    void delete(byte[] key);

    /**
     * Applies writes in order; a null value deletes its key. Stores that can write a batch at once (RocksDB: one
     * write batch) override it; a command's writes reach the store through here ({@link WriteBuffer#commit}).
     */
    default void putAll(List<KeyValueIterator.Entry> writes) {
        for (KeyValueIterator.Entry write : writes) {
            if (write.value() == null) {
                delete(write.key());
            } else {
                put(write.key(), write.value());
            }
        }
    }
}
