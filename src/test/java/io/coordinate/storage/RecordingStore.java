package io.coordinate.storage;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Function;

/** A store over another that records the keys read by key (scans are not recorded) and the writes. */
public final class RecordingStore implements KeyValueStore {

    private final KeyValueStore delegate;
    private final Function<byte[], String> format;
    private final boolean writesPass;
    public final List<String> reads = new ArrayList<>();
    public final List<String> writes = new ArrayList<>();
    /** Each batch written ({@link #putAll}), as its keys. */
    public final List<List<String>> batches = new ArrayList<>();

    /** @param writesPass false: writes are recorded but do not reach {@code delegate} */
    public RecordingStore(KeyValueStore delegate, Function<byte[], String> format, boolean writesPass) {
        this.delegate = delegate;
        this.format = format;
        this.writesPass = writesPass;
    }

    /** Keys in hex; writes reach {@code delegate}. */
    public RecordingStore(KeyValueStore delegate) {
        this(delegate, HexFormat.of()::formatHex, true);
    }

    @Override
    public byte[] get(byte[] key) {
        reads.add(format.apply(key));
        return delegate.get(key);
    }

    @Override
    public KeyValueIterator range(byte[] from, byte[] to) {
        return delegate.range(from, to);
    }

    @Override
    public void put(byte[] key, byte[] value) {
        writes.add("put " + format.apply(key));
        if (writesPass) {
            delegate.put(key, value);
        }
    }

    @Override
    public void delete(byte[] key) {
        writes.add("delete " + format.apply(key));
        if (writesPass) {
            delegate.delete(key);
        }
    }

    @Override
    public void putAll(List<KeyValueIterator.Entry> writes) {
        batches.add(writes.stream().map(write -> format.apply(write.key())).toList());
        KeyValueStore.super.putAll(writes);
    }
}
