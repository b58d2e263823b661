package io.coordinate.streams;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.Cache;
import org.rocksdb.CompactionStyle;
import org.rocksdb.CompressionType;
import org.rocksdb.FlushOptions;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The RocksDB database under a {@link CommittedStore}: its settings, the changelog offset it keeps with the data,
 * which writes go through the write-ahead log and which do not, and its open iterators.
 *
 * <p>A restore from the changelog writes each batch of records with its last offset, and an index rebuild writes
 * straight to RocksDB, both without the write-ahead log, as Kafka Streams does: a crash then loses their last
 * writes, offsets included, and the restart restores or rebuilds them again. The memtables are flushed before the
 * next logged write, so a crash can never replay a settled batch onto a store that lacks what was written before it.
 */
final class CommittedDb implements AutoCloseable {

    /** Where the changelog offset is kept: the empty key, which no engine key is and which reads never show. */
    private static final byte[] OFFSET_KEY = new byte[0];
    /** Kafka Streams' own RocksDB store's settings, which the app's config setter then changes. */
    private static final long BLOCK_CACHE_BYTES = 50L * 1024 * 1024;

    private static final long BLOCK_BYTES = 4096;
    private static final long MEMTABLE_BYTES = 16L * 1024 * 1024;
    private static final int MAX_MEMTABLES = 3;

    static {
        RocksDB.loadLibrary();
    }

    private static final Logger LOG = LoggerFactory.getLogger(CommittedDb.class);

    private final String name;
    private final Set<RocksSource> openIterators = ConcurrentHashMap.newKeySet();
    private RocksDB db;
    private Options options;
    private WriteOptions logged;
    private WriteOptions unlogged;
    /** Writes without the log that no memtable flush has persisted yet. */
    private boolean unflushed;

    private BloomFilter filter;
    private Cache ownCache;
    private RocksDBConfigSetter configSetter;

    /** Opens (or creates) the database of the store {@code name} in {@code dir}. */
    CommittedDb(String name, File dir, Map<String, Object> configs) {
        this.name = name;
        BlockBasedTableConfig table = new BlockBasedTableConfig();
        ownCache = new LRUCache(BLOCK_CACHE_BYTES);
        table.setBlockCache(ownCache);
        table.setBlockSize(BLOCK_BYTES);
        filter = new BloomFilter();
        table.setFilterPolicy(filter);
        options = new Options()
                .setCreateIfMissing(true)
                .setErrorIfExists(false)
                .setInfoLogLevel(InfoLogLevel.ERROR_LEVEL)
                .setIncreaseParallelism(Math.max(Runtime.getRuntime().availableProcessors(), 2))
                .setOptimizeFiltersForHits(true)
                .setWriteBufferSize(MEMTABLE_BYTES)
                .setMaxWriteBufferNumber(MAX_MEMTABLES)
                .setCompressionType(CompressionType.NO_COMPRESSION)
                .setCompactionStyle(CompactionStyle.UNIVERSAL)
                .setTableFormatConfig(table);
        Object setter = configs.get(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG);
        if (setter != null) {
            // Kafka Streams' parsed configs hold the class, as its own RocksDB store expects.
            configSetter = (RocksDBConfigSetter) Utils.newInstance((Class<?>) setter);
            configSetter.setConfig(name, options, configs);
        }
        // A settled batch goes through the write-ahead log (Kafka Streams turns it off): it must survive a process
        // crash, and the OS keeps what was written to the log when the process dies. Not synced: a machine crash may
        // lose the last batches, which then come back from the changelog. Restores and rebuilds, which a crash only
        // makes start again, skip the log (see writeUnlogged).
        logged = new WriteOptions();
        unlogged = new WriteOptions().setDisableWAL(true);
        try {
            Files.createDirectories(dir.toPath());
            db = RocksDB.open(options, dir.getAbsolutePath());
        } catch (IOException | RocksDBException e) {
            closeNative();
            throw new ProcessorStateException("cannot open the store " + name + " at " + dir, e);
        }
    }

    /**
     * The files of Kafka Streams' own store of this name, which versions before this store used: an upgraded task
     * starts from the changelog (this store is new, so empty), and they would take the disk for good.
     */
    static void deleteKafkasStore(File dir) {
        if (!dir.exists()) {
            return;
        }
        LOG.info("deleting {}: the store is kept in {} now", dir, CommittedStore.DIR);
        try {
            Utils.delete(dir);
            String[] left = dir.getParentFile().list();
            if (left != null && left.length == 0) {
                Files.delete(dir.getParentFile().toPath());
            }
        } catch (IOException e) {
            throw new ProcessorStateException("cannot delete " + dir, e);
        }
    }

    byte[] get(byte[] key) {
        try {
            return db.get(key);
        } catch (RocksDBException e) {
            throw new ProcessorStateException("cannot read from " + name, e);
        }
    }

    /** The changelog offset written with the data, or null when none was. */
    Long offset() {
        try {
            byte[] value = db.get(OFFSET_KEY);
            return value == null ? null : ByteBuffer.wrap(value).getLong();
        } catch (RocksDBException e) {
            throw new ProcessorStateException("cannot read the offset of " + name, e);
        }
    }

    boolean isEmpty() {
        try (RocksIterator it = db.newIterator()) {
            it.seekToFirst();
            return !it.isValid();
        }
    }

    long approximateNumEntries() {
        try {
            return db.getLongProperty("rocksdb.estimate-num-keys");
        } catch (RocksDBException e) {
            throw new ProcessorStateException("cannot estimate the entries of " + name, e);
        }
    }

    /**
     * A commit's writes, with its changelog offset when the store has a changelog ({@code offset} null otherwise), in
     * one write through the log. An offset alone (a restoring task's checkpoint) is the restore's own kind of write.
     */
    void writeCommitted(Map<byte[], byte[]> writes, Long offset) {
        try (WriteBatch batch = new WriteBatch()) {
            for (Map.Entry<byte[], byte[]> entry : writes.entrySet()) {
                add(batch, entry.getKey(), entry.getValue());
            }
            if (offset != null) {
                putOffset(batch, offset);
            }
            if (writes.isEmpty()) {
                writeUnlogged(batch);
            } else {
                writeLogged(batch);
            }
        } catch (RocksDBException e) {
            throw new ProcessorStateException("cannot write the committed batch of " + name, e);
        }
    }

    /** A batch of the changelog, with its last offset, in one write: the store never holds half a batch. */
    void restore(Collection<ConsumerRecord<byte[], byte[]>> records) {
        if (records.isEmpty()) {
            return;
        }
        long last = -1;
        try (WriteBatch batch = new WriteBatch()) {
            for (ConsumerRecord<byte[], byte[]> record : records) {
                add(batch, record.key(), record.value());
                last = record.offset();
            }
            putOffset(batch, last);
            writeUnlogged(batch);
        } catch (RocksDBException e) {
            throw new ProcessorStateException("cannot restore a batch into " + name, e);
        }
    }

    /** Writes outside any commit (a store written through), without the log: a crash makes them start again. */
    void writeThrough(List<KeyValue<Bytes, byte[]>> entries) {
        try (WriteBatch batch = new WriteBatch()) {
            for (KeyValue<Bytes, byte[]> entry : entries) {
                add(batch, entry.key.get(), entry.value);
            }
            writeUnlogged(batch);
        } catch (RocksDBException e) {
            throw new ProcessorStateException("cannot write to " + name, e);
        }
    }

    private static void putOffset(WriteBatch batch, long offset) throws RocksDBException {
        batch.put(OFFSET_KEY, ByteBuffer.allocate(Long.BYTES).putLong(offset).array());
    }

    private static void add(WriteBatch batch, byte[] key, byte[] value) throws RocksDBException {
        if (WriteOverlays.isDeletion(value)) {
            batch.delete(key);
        } else {
            batch.put(key, value);
        }
    }

    private void writeLogged(WriteBatch batch) throws RocksDBException {
        if (unflushed) {
            // A crash replays the log on top of the files: writes made without the log must be in the files first, or
            // the replayed batch would land on a store that lacks what came before it.
            try (FlushOptions wait = new FlushOptions().setWaitForFlush(true)) {
                db.flush(wait);
            }
            unflushed = false;
        }
        db.write(logged, batch);
    }

    /**
     * A write that a crash may lose with everything after it: the store then holds the writes up to an earlier one,
     * with that one's offset, and a restart restores or rebuilds the rest again.
     */
    private void writeUnlogged(WriteBatch batch) throws RocksDBException {
        db.write(unlogged, batch);
        unflushed = true;
    }

    /** The entries from {@code from} on (from the first when null); closed with the database at the latest. */
    RocksSource iterator(Bytes from) {
        RocksSource source = new RocksSource(db.newIterator(), from);
        openIterators.add(source);
        return source;
    }

    /** Closes the open iterators, then the database and its settings. */
    @Override
    public void close() {
        for (RocksSource source : List.copyOf(openIterators)) {
            source.close();
        }
        if (configSetter != null) {
            configSetter.close(name, options);
        }
        closeNative();
    }

    private void closeNative() {
        if (db != null) {
            db.close();
            db = null;
        }
        for (AutoCloseable resource : new AutoCloseable[] {logged, unlogged, options, filter, ownCache}) {
            if (resource != null) {
                try {
                    resource.close();
                } catch (Exception e) {
                    throw new ProcessorStateException("cannot close " + name, e);
                }
            }
        }
    }

    /** RocksDB's entries from a key on, without the offset's key. */
    final class RocksSource implements Iterator<Map.Entry<byte[], byte[]>>, AutoCloseable {
        private final RocksIterator iterator;
        private boolean closed;

        RocksSource(RocksIterator iterator, Bytes from) {
            this.iterator = iterator;
            if (from == null) {
                iterator.seekToFirst();
            } else {
                iterator.seek(from.get());
            }
            skipOffset();
        }

        private void skipOffset() {
            if (iterator.isValid() && iterator.key().length == 0) {
                iterator.next();
            }
        }

        @Override
        public synchronized boolean hasNext() {
            if (closed) {
                throw new InvalidStateStoreException("the store " + name + " is closed");
            }
            return iterator.isValid();
        }

        @Override
        public synchronized Map.Entry<byte[], byte[]> next() {
            if (!hasNext()) {
                throw new java.util.NoSuchElementException();
            }
            Map.Entry<byte[], byte[]> entry = Map.entry(iterator.key(), iterator.value());
            iterator.next();
            return entry;
        }

        @Override
        public synchronized void close() {
            if (!closed) {
                closed = true;
                iterator.close();
                openIterators.remove(this);
            }
        }
    }
}
