package io.coordinate.storage;

import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/** A {@link KeyValueStore} on a {@link TreeMap}, ordered like RocksDB: for engine tests and write buffers. */
public final class InMemoryKeyValueStore implements KeyValueStore {

    private final NavigableMap<byte[], byte[]> map = new TreeMap<>(Arrays::compareUnsigned);

    @Override
    public byte[] get(byte[] key) {
        return map.get(key);
    }

    @Override
    public void put(byte[] key, byte[] value) {
        map.put(key.clone(), value);
    }

    @Override
    public void delete(byte[] key) {
        map.remove(key);
    }

    @Override
    public KeyValueIterator range(byte[] from, byte[] to) {
        if (Arrays.compareUnsigned(from, to) >= 0) {
            return iterator(java.util.Collections.emptyIterator());
        }
        return iterator(map.subMap(from, true, to, false).entrySet().iterator());
    }

    public int size() {
        return map.size();
    }

    private static KeyValueIterator iterator(Iterator<Map.Entry<byte[], byte[]>> entries) {
        return new KeyValueIterator() {
            @Override
            public boolean hasNext() {
                return entries.hasNext();
            }

            @Override
            public Entry next() {
                Map.Entry<byte[], byte[]> e = entries.next();
                return new Entry(e.getKey(), e.getValue());
            }

            @Override
            public void close() {}
        };
    }
}
