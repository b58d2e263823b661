package io.coordinate.streams;

import java.util.Map;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.Env;
import org.rocksdb.IndexType;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.Priority;
import org.rocksdb.RocksDB;
import org.rocksdb.WriteBufferManager;

/**
 * Bounds the off-heap memory of every RocksDB store of the process (Kafka Streams' "Bounding RocksDB memory"
 * recipe): one {@link LRUCache} shared by all stores holds their data blocks, their index and filter blocks and —
 * through a {@link WriteBufferManager} charged to it — their memtables.
 *
 * <p>Why: by default Kafka Streams gives each store its own block cache and up to {@link #MAX_MEMTABLES} memtables,
 * with index and filter blocks outside any cache (they grow with the data). The app has two stores per task (records
 * and indexes) and a task per partition of {@code coordinate.commands}, so its off-heap memory grew with the number
 * of tasks and with the number of units stored (docs/operations.md, "Memory"). With one shared cache it stays near
 * {@link #TOTAL_BYTES} whatever the number of stores, tasks or stored units; what does not fit is read from disk
 * (the OS page cache, which is not the process's RSS).
 *
 * <p>Sizes: {@link #TOTAL_BYTES} = 256 MiB in all, which memtables may fill ({@link #MEMTABLE_BYTES}: the cache
 * then evicts blocks to make room). Not less: once the memtables of all stores near the write buffer manager's
 * limit, RocksDB makes the store <i>being written</i> flush early, never an idle one, and Kafka Streams does not
 * flush idle stores under exactly-once; so the memtables that idle stores keep (up to 16 MiB each) count against the
 * limit for good. A smaller total left the busy store so little that it switched memtables early and often, stacked
 * up unflushed ones and stopped writes, and a load after warm-ups spread over every task slowed down
 * (docs/performance.md, History). With 6 partitions
 * (12 stores) idle memtables take at most 192 MiB of 256, and the busy store still flushes full ones. The cache
 * keeps the recently read blocks, with index and filter blocks preferred (a high-priority pool of up to half the
 * cache). Partitioned index and filter blocks, with their small top-level blocks pinned, keep a lookup from having to
 * load a whole file's index or filter (which grows with the store) into the cache.
 *
 * <p>RocksDB's background threads, which flush the memtables and compact the files of every store of the process, run
 * at the lowest CPU priority ({@link Env#lowerThreadPoolCPUPriority}, nice 19 on Linux). Their work can wait; a
 * stream thread's cannot: a namespace is one task, worked by one thread, so its throughput is that thread's time on a
 * core. On a small machine the stream thread waits, runnable, for a core behind the broker and these threads; at
 * nice 19 they take the cores that are idle and yield the others, so the stream thread waits less
 * (docs/performance.md, History). Should they fall behind under sustained writes, RocksDB slows the writes down
 * (its write stalls), the stream thread waits, and the cores it leaves go to the flushes.
 *
 * <p>The cache and the write buffer manager are static: they are shared by every store of every Kafka Streams
 * instance in the JVM and live as long as it. {@link #close} therefore leaves them open.
 */
public final class BoundedRocksDbMemory implements RocksDBConfigSetter {

    /** Block cache + index and filter blocks + memtables of all stores of the process. */
    public static final long TOTAL_BYTES = 256L * 1024 * 1024;
    /** What the memtables of all stores may take of {@link #TOTAL_BYTES}, charged to the same cache: all of it. */
    public static final long MEMTABLE_BYTES = TOTAL_BYTES;
    /** Share of the cache reserved for index and filter blocks (cached with high priority). */
    static final double INDEX_FILTER_RATIO = 0.5;
    /** Kafka Streams' own defaults, kept: the write buffer manager bounds their total. */
    static final long MEMTABLE_SIZE = 16L * 1024 * 1024;

    static final int MAX_MEMTABLES = 3;

    static {
        RocksDB.loadLibrary();
        // Flushes (the high-priority pool) and compactions (the low one) run at the lowest CPU priority: each thread of
        // the pools lowers its own (nice 19) when it next takes a job. See the class comment.
        Env env = Env.getDefault();
        env.lowerThreadPoolCPUPriority(Priority.HIGH);
        env.lowerThreadPoolCPUPriority(Priority.LOW);
    }

    // numShardBits -1: RocksDB's default sharding; strictCapacityLimit false: an insert never fails, at worst the
    // cache briefly holds more than its capacity while blocks in use (pinned) exceed it.
    private static final Cache CACHE = new LRUCache(TOTAL_BYTES, -1, false, INDEX_FILTER_RATIO);
    private static final WriteBufferManager WRITE_BUFFER_MANAGER = new WriteBufferManager(MEMTABLE_BYTES, CACHE);

    @Override
    public void setConfig(String storeName, Options options, Map<String, Object> configs) {
        // The store's own table config (CommittedStore's, or Kafka Streams' for the bench's baseline): changed in
        // place,
        // not replaced, so that its other settings (4 KiB blocks, bloom filter) stay.
        BlockBasedTableConfig table = (BlockBasedTableConfig) options.tableFormatConfig();
        table.setBlockCache(CACHE);
        table.setCacheIndexAndFilterBlocks(true);
        table.setCacheIndexAndFilterBlocksWithHighPriority(true);
        table.setIndexType(IndexType.kTwoLevelIndexSearch);
        table.setPartitionFilters(true);
        table.setPinTopLevelIndexAndFilter(true);
        options.setWriteBufferManager(WRITE_BUFFER_MANAGER);
        options.setWriteBufferSize(MEMTABLE_SIZE);
        options.setMaxWriteBufferNumber(MAX_MEMTABLES);
        options.setTableFormatConfig(table);
    }

    @Override
    public void close(String storeName, Options options) {
        // Nothing: the cache and the write buffer manager are shared by every store and must outlive each of them.
    }
}
