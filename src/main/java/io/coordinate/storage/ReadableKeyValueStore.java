package io.coordinate.storage;

/** The read side of {@link KeyValueStore}; interactive queries get only this. */
public interface ReadableKeyValueStore {

    /** The value, or null. */
    byte[] get(byte[] key);

    /** Entries with {@code from <= key < to} in unsigned byte order. The caller must close the iterator. */
    KeyValueIterator range(byte[] from, byte[] to);

    /**
     * The caller read {@code key}'s current value elsewhere (an index entry that carries it, a range scan): a store
     * that keeps what a command read may keep this too. The value must be exactly the stored one; null: the key is
     * absent.
     */
    default void known(byte[] key, byte[] value) {}

    /** Entries whose key starts with {@code prefix}. */
    default KeyValueIterator prefix(byte[] prefix) {
        return range(prefix, KeyRanges.prefixEnd(prefix));
    }
}
