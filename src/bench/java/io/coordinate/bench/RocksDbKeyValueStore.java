package io.coordinate.bench;

import io.coordinate.storage.KeyValueIterator;
import io.coordinate.storage.KeyValueStore;
import java.nio.file.Path;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Consumer;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompactionStyle;
import org.rocksdb.FlushOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * The engine's {@link KeyValueStore} directly on RocksDB, without Kafka: for benchmarks of the engine's own
 * cost and for the store contract test. The app itself uses the Kafka Streams RocksDB store.
 */
public final class RocksDbKeyValueStore implements KeyValueStore, AutoCloseable {

    static {
        RocksDB.loadLibrary();
    }

    private final Options options;
    private final RocksDB db;
    // As in Kafka Streams: no write-ahead log, the changelog (here: nothing; a benchmark store) is the log.
    private final WriteOptions writeOptions = new WriteOptions().setDisableWAL(true);

    public RocksDbKeyValueStore(Path dir) {
        this(dir, options -> {});
    }

    /** With {@code tune} applied to the options last: the app's own settings, say ({@code BoundedRocksDbMemory}). */
    public RocksDbKeyValueStore(Path dir, Consumer<Options> tune) {
        // The table settings Kafka Streams gives its RocksDB stores (block cache, 4 KiB blocks, bloom filters),
        // so that figures measured here transfer to the app.
        BlockBasedTableConfig table = new BlockBasedTableConfig()
                .setBlockCache(new LRUCache(50L * 1024 * 1024))
                .setBlockSize(4096L)
                .setFilterPolicy(new BloomFilter());
        options = new Options()
                .setCreateIfMissing(true)
                .setTableFormatConfig(table)
                .setWriteBufferSize(16L * 1024 * 1024)
                .setMaxWriteBufferNumber(3)
                .setCompactionStyle(CompactionStyle.UNIVERSAL)
                .setIncreaseParallelism(Math.max(Runtime.getRuntime().availableProcessors(), 2));
        tune.accept(options);
        try {
            db = RocksDB.open(options, dir.toAbsolutePath().toString());
        } catch (RocksDBException e) {
            options.close();
            throw new IllegalStateException("cannot open RocksDB at " + dir, e);
        }
    }

    @Override
    public byte[] get(byte[] key) {
        try {
            return db.get(key);
        } catch (RocksDBException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void put(byte[] key, byte[] value) {
        try {
            db.put(writeOptions, key, value);
        } catch (RocksDBException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void delete(byte[] key) {
        try {
            db.delete(writeOptions, key);
        } catch (RocksDBException e) {
            throw new IllegalStateException(e);
        }
    }

    /** One write batch, as the app's Kafka Streams store writes a command's changes. */
    @Override
    public void putAll(List<KeyValueIterator.Entry> writes) {
        try (WriteBatch batch = new WriteBatch()) {
            for (KeyValueIterator.Entry write : writes) {
                if (write.value() == null) {
                    batch.delete(write.key());
                } else {
                    batch.put(write.key(), write.value());
                }
            }
            db.write(writeOptions, batch);
        } catch (RocksDBException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public KeyValueIterator range(byte[] from, byte[] to) {
        Slice upper = new Slice(to);
        ReadOptions read = new ReadOptions().setIterateUpperBound(upper);
        RocksIterator it = db.newIterator(read);
        it.seek(from);
        return new KeyValueIterator() {
            @Override
            public boolean hasNext() {
                return it.isValid();
            }

            @Override
            public Entry next() {
                if (!it.isValid()) {
                    throw new NoSuchElementException();
                }
                Entry entry = new Entry(it.key(), it.value());
                it.next();
                return entry;
            }

            @Override
            public void close() {
                it.close();
                read.close();
                upper.close();
            }
        };
    }

    /** Flushes the memtables and compacts everything: the steady state after a bulk load. */
    public void compact() {
        try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
            db.flush(flush);
            db.compactRange();
        } catch (RocksDBException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        db.close();
        writeOptions.close();
        options.close();
    }
}
