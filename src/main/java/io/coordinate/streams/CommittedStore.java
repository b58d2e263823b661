package io.coordinate.streams;

import java.io.File;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.internals.InternalProcessorContext;
import org.apache.kafka.streams.processor.internals.RecordBatchingStateRestoreCallback;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.internals.CacheFlushListener;
import org.apache.kafka.streams.state.internals.CachedStateStore;

/**
 * A RocksDB key-value store whose files never hold a write that Kafka has not committed, and that keeps the changelog
 * offset up to which it holds everything in the same RocksDB write as the data. After a {@code kill -9} under
 * exactly-once, Kafka Streams then finds the store usable ({@link #committedOffset}) and restores only the changelog's
 * tail, where with its own RocksDB store it finds the store possibly ahead of the changelog, wipes it and restores
 * everything (and the app rebuilds every index).
 *
 * <p>How: writes go to an in-memory sorted overlay, {@code current}. When the task prepares a commit, Kafka Streams
 * flushes the stores' caches ({@link #flushCache}, before the producer flushes and commits the transaction):
 * {@code current} becomes {@code pending}. As soon as the stream thread's producer has committed the transaction
 * ({@link SettlingClientSupplier}), and at the latest at the stream thread's next call to the store (a failed commit
 * closes the task dirty instead, which discards the overlays and wipes the task's state), the store settles: writes
 * {@code pending}, with the last changelog offset the task's producer had acknowledged, in one RocksDB write batch
 * with the write-ahead log on (so that a process crash keeps it). An enforced commit (close, suspend,
 * restoring) settles everything with the offset Kafka gives. Reads see {@code current}, then {@code pending}, then
 * RocksDB; queries from other threads see a whole batch of writes or none of it.
 *
 * <p>A restore from the changelog and an index rebuild ({@link #writeThrough}) write without the write-ahead log
 * ({@link CommittedDb}). The overlays are {@link WriteOverlays}.
 */
public final class CommittedStore implements KeyValueStore<Bytes, byte[]>, CachedStateStore<Bytes, byte[]> {

    /** The stores' directory under the task's: not Kafka's ({@code rocksdb}), whose stores hold another layout. */
    static final String DIR = "committed";
    /** Where Kafka Streams' own RocksDB stores keep their files under the task's directory. */
    static final String KAFKA_DIR = "rocksdb";

    private final String name;
    /** Queries (other threads) read under the read lock; writes to {@code current} and closing take the write lock. */
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();

    private final WriteOverlays overlays = new WriteOverlays();
    private volatile boolean open;
    private final Position position = Position.emptyPosition();

    private Supplier<Long> acknowledged;
    private Thread streamThread;
    private TopicPartition changelog;
    private boolean writeThrough;
    private CommittedDb db;

    CommittedStore(String name) {
        this.name = name;
    }

    /** The supplier for {@code Stores.keyValueStoreBuilder}: Kafka's logging and metering wrappers go around it. */
    public static KeyValueBytesStoreSupplier supplier(String name) {
        return new KeyValueBytesStoreSupplier() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public KeyValueStore<Bytes, byte[]> get() {
                return new CommittedStore(name);
            }

            @Override
            public String metricsScope() {
                return "rocksdb";
            }
        };
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        String topic = context instanceof InternalProcessorContext<?, ?> internal ? internal.changelogFor(name) : null;
        TopicPartition partition = topic == null
                ? null
                : new TopicPartition(topic, context.taskId().partition());
        CommittedDb.deleteKafkasStore(new File(new File(context.stateDir(), KAFKA_DIR), name));
        open(
                new File(new File(context.stateDir(), DIR), name),
                context.appConfigs(),
                partition,
                () -> ChangelogOffsets.acknowledged(context, partition));
        context.register(root, (RecordBatchingStateRestoreCallback) this::restoreBatch);
    }

    /**
     * Opens the files in {@code dir} for the calling thread, the stream thread (tests give the rest by hand).
     *
     * @param changelog the store's changelog partition, or null for a store without one
     * @param acknowledged the last offset of {@code changelog} that the task's producer had acknowledged, or null
     */
    void open(File dir, Map<String, Object> configs, TopicPartition changelog, Supplier<Long> acknowledged) {
        this.streamThread = Thread.currentThread();
        this.changelog = changelog;
        this.acknowledged = acknowledged;
        db = new CommittedDb(name, dir, configs);
        open = true;
        StreamThreadStores.add(streamThread, this);
    }

    boolean hasChangelog() {
        return changelog != null;
    }

    @Override
    public boolean persistent() {
        return true;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    /**
     * Kafka Streams 4.3 still asks (deprecated because every store is to keep its offsets), and wraps a store that
     * says no in a checkpoint file of its own.
     */
    @Override
    @SuppressWarnings("deprecation")
    public boolean managesOffsets() {
        return true;
    }

    @Override
    public Long committedOffset(TopicPartition partition) {
        if (!partition.equals(changelog)) {
            return null;
        }
        lock.readLock().lock();
        try {
            requireOpen();
            return ChangelogOffsets.committed(db);
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * An enforced commit (the task closes, is suspended or restores), after the transaction committed: everything
     * written is committed, up to the offset given.
     */
    @Override
    public void commit(Map<TopicPartition, Long> changelogOffsets) {
        if (!open) {
            return;
        }
        flushCache();
        settle(changelog == null ? null : changelogOffsets.get(changelog));
    }

    /** The task prepares a commit: what was written so far goes into the transaction that follows. */
    @Override
    public void flushCache() {
        overlays.seal();
    }

    /** Dropped overlays (a recycled task's); settled writes stay. */
    @Override
    public void clearCache() {
        overlays.clear();
    }

    @Override
    public boolean setFlushListener(CacheFlushListener<Bytes, byte[]> listener, boolean sendOldValues) {
        return false;
    }

    /**
     * Writes the commit's writes to RocksDB on the stream thread's first call after it: the transaction has
     * committed by then. The stream threads' processors also call it when a record or a punctuation starts.
     */
    void settleIfCommitted() {
        if (Thread.currentThread() == streamThread && !overlays.pending().isEmpty()) {
            settle(changelog == null ? null : acknowledged.get());
        }
    }

    /**
     * While on, writes go straight to RocksDB: for a store without changelog written outside any transaction (an
     * index rebuild when the task opens), whose overlay would otherwise hold the whole rebuild in memory.
     */
    void writeThrough(boolean on) {
        if (on && changelog != null) {
            throw new IllegalStateException(name + " has a changelog: its writes must wait for their commit");
        }
        if (on) {
            flushCache();
            settle(null);
        }
        writeThrough = on;
    }

    private void settle(Long offset) {
        NavigableMap<byte[], byte[]> settling = overlays.pending();
        if (settling.isEmpty() && offset == null) {
            return;
        }
        db.writeCommitted(settling, offset);
        overlays.settled();
    }

    /** A batch of the changelog, with its last offset, in one write: the store never holds half a batch. */
    void restoreBatch(Collection<ConsumerRecord<byte[], byte[]>> records) {
        db.restore(records);
    }

    // --- writes: the stream thread's only ---

    @Override
    public void put(Bytes key, byte[] value) {
        settleIfCommitted();
        if (writeThrough) {
            db.writeThrough(List.of(KeyValue.pair(key, value)));
        } else {
            lock.writeLock().lock();
            try {
                overlays.put(key.get(), value);
            } finally {
                lock.writeLock().unlock();
            }
        }
    }

    @Override
    public byte[] putIfAbsent(Bytes key, byte[] value) {
        byte[] previous = get(key);
        if (previous == null) {
            put(key, value);
        }
        return previous;
    }

    @Override
    public void putAll(List<KeyValue<Bytes, byte[]>> entries) {
        settleIfCommitted();
        if (writeThrough) {
            db.writeThrough(entries);
            return;
        }
        lock.writeLock().lock(); // a query sees the batch whole or not at all
        try {
            overlays.putAll(entries);
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public byte[] delete(Bytes key) {
        byte[] previous = get(key);
        put(key, null);
        return previous;
    }

    // --- reads ---

    @Override
    public byte[] get(Bytes key) {
        if (Thread.currentThread() == streamThread) {
            settleIfCommitted();
            return read(key);
        }
        lock.readLock().lock();
        try {
            requireOpen();
            return read(key);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Current, then pending, then RocksDB: read in this order, the overlays' changes can never hide a write. */
    private byte[] read(Bytes key) {
        if (key.get().length == 0) {
            return null;
        }
        byte[] value = overlays.get(key.get());
        if (value != null) {
            return value == WriteOverlays.TOMBSTONE ? null : value;
        }
        return db.get(key.get());
    }

    /** Both bounds included, as Kafka's stores do. */
    @Override
    public KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to) {
        if (from != null && to != null && from.compareTo(to) > 0) {
            return OverlayIterator.EMPTY;
        }
        return scan(from, to, null);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> all() {
        return scan(null, null, null);
    }

    @Override
    public <PS extends Serializer<P>, P> KeyValueIterator<Bytes, byte[]> prefixScan(P prefix, PS prefixKeySerializer) {
        Bytes from = Bytes.wrap(prefixKeySerializer.serialize(null, prefix));
        return scan(from, null, from);
    }

    private KeyValueIterator<Bytes, byte[]> scan(Bytes from, Bytes to, Bytes prefix) {
        if (Thread.currentThread() == streamThread) {
            settleIfCommitted();
            return new OverlayIterator(
                    overlays.slices(from, to, false), db.iterator(from), to, prefix, WriteOverlays.TOMBSTONE);
        }
        lock.readLock().lock();
        try {
            requireOpen();
            return new OverlayIterator(
                    overlays.slices(from, to, true), db.iterator(from), to, prefix, WriteOverlays.TOMBSTONE);
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public long approximateNumEntries() {
        lock.readLock().lock();
        try {
            requireOpen();
            return db.approximateNumEntries();
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public Position getPosition() {
        return position;
    }

    /** Drops the overlays: an enforced commit settled them before a clean close, a dirty close must lose them. */
    @Override
    public void close() {
        lock.writeLock().lock();
        try {
            if (!open) {
                return;
            }
            open = false;
            StreamThreadStores.remove(streamThread, this);
            overlays.clear();
            db.close();
        } finally {
            lock.writeLock().unlock();
        }
    }

    private void requireOpen() {
        if (!open) {
            throw new InvalidStateStoreException("the store " + name + " is closed");
        }
    }
}
