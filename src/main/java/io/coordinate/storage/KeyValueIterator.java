package io.coordinate.storage;

import java.util.Iterator;

/** An iterator over store entries that holds native resources until closed. */
public interface KeyValueIterator extends Iterator<KeyValueIterator.Entry>, AutoCloseable {

    @Override
    void close();

    /** One stored key and value. */
    record Entry(byte[] key, byte[] value) {}
}
