package io.coordinate.storage;

import java.util.List;

/** A store whose unit of writing is the batch ({@link #putAll}): a single put or delete is a batch of one. */
public interface BatchWrites extends KeyValueStore {

    @Override
    default void put(byte[] key, byte[] value) {
        putAll(List.of(new KeyValueIterator.Entry(key, value)));
    }

    @Override
    default void delete(byte[] key) {
        putAll(List.of(new KeyValueIterator.Entry(key, null)));
    }

    @Override
    void putAll(List<KeyValueIterator.Entry> writes);
}
