package io.coordinate.bench;

import io.coordinate.engine.state.codec.KeyFamily;
import io.coordinate.storage.KeyValueIterator;
import io.coordinate.storage.KeyValueStore;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * A store that times its calls, for {@link EngineLifecycleBenchmark}: all of them (the iterators' steps included),
 * and the reads by key and the write batches apart; the reads also by the command that made them and by what they
 * read (a record or an index entry, found or not), so that the costliest reads can be named.
 */
final class TimedStore implements KeyValueStore {

    /** How many calls, and their time. */
    static final class Tally {
        long calls;
        long nanos;

        void add(long took) {
            calls++;
            nanos += took;
        }
    }

    private final KeyValueStore store;
    /** The command being applied: reads are tallied under it. */
    String command = "";

    long nanos;
    /** The time of the last call. */
    private long lastNanos;

    final Tally reads = new Tally();
    /** Keys written, and the time of the batches that wrote them. */
    final Tally writes = new Tally();

    final Map<String, Tally> readsByKind = new TreeMap<>();
    /** Per kind of key ({@link KeyFamily#kind}): keys written in batches (deletes too), and their keys' and values' bytes. */
    final Map<String, Written> bytesWrittenByKind = new TreeMap<>();

    static final class Written {
        long keys;
        long bytes;
    }

    TimedStore(KeyValueStore store) {
        this.store = store;
    }

    void reset() {
        nanos = 0;
        reads.calls = reads.nanos = writes.calls = writes.nanos = 0;
        readsByKind.clear();
        bytesWrittenByKind.clear();
    }

    @Override
    public byte[] get(byte[] key) {
        byte[] value = timed(() -> store.get(key));
        reads.add(lastNanos);
        String kind =
                command + " " + (KeyFamily.isIndex(key) ? "index entry" : "record") + (value == null ? " absent" : "");
        readsByKind.computeIfAbsent(kind, k -> new Tally()).add(lastNanos);
        return value;
    }

    @Override
    public void put(byte[] key, byte[] value) {
        timedRun(() -> store.put(key, value));
    }

    @Override
    public void delete(byte[] key) {
        timedRun(() -> store.delete(key));
    }

    @Override
    public void putAll(List<KeyValueIterator.Entry> batch) {
        timedRun(() -> store.putAll(batch));
        writes.calls += batch.size();
        writes.nanos += lastNanos;
        for (KeyValueIterator.Entry entry : batch) {
            Written written = bytesWrittenByKind.computeIfAbsent(KeyFamily.kind(entry.key()), k -> new Written());
            written.keys++;
            written.bytes += entry.key().length + (entry.value() == null ? 0 : entry.value().length);
        }
    }

    @Override
    public KeyValueIterator range(byte[] from, byte[] to) {
        KeyValueIterator it = timed(() -> store.range(from, to));
        return new KeyValueIterator() {
            @Override
            public boolean hasNext() {
                return timed(it::hasNext);
            }

            @Override
            public Entry next() {
                return timed(it::next);
            }

            @Override
            public void close() {
                it.close();
            }
        };
    }

    /** Makes the call and adds its time to {@link #nanos}; {@link #lastNanos} is that time. */
    private <T> T timed(Supplier<T> call) {
        long started = System.nanoTime();
        T result = call.get();
        lastNanos = System.nanoTime() - started;
        nanos += lastNanos;
        return result;
    }

    private void timedRun(Runnable call) {
        timed(() -> {
            call.run();
            return null;
        });
    }
}
