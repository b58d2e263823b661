package io.coordinate.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.config.AppConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.state.internals.BlockBasedTableConfigWithAccessibleCache;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.FlushOptions;
import org.rocksdb.IndexType;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;

class BoundedRocksDbMemoryTest {

    /** What Kafka Streams hands the setter: its own table config, whose cache it can read back. */
    private static BlockBasedTableConfigWithAccessibleCache configure(String store, Options options) {
        BlockBasedTableConfigWithAccessibleCache table = new BlockBasedTableConfigWithAccessibleCache();
        options.setTableFormatConfig(table);
        new BoundedRocksDbMemory().setConfig(store, options, Map.of());
        return (BlockBasedTableConfigWithAccessibleCache) options.tableFormatConfig();
    }

    @Test
    void everyStoreSharesOneCacheWithIndexAndFilterBlocksInIt() {
        try (Options records = new Options();
                Options indexes = new Options()) {
            BlockBasedTableConfigWithAccessibleCache a = configure(StoreNames.STATE, records);
            BlockBasedTableConfigWithAccessibleCache b = configure(StoreNames.INDEXES, indexes);
            assertThat(a.blockCache()).isNotNull().isSameAs(b.blockCache());
            assertThat(a.cacheIndexAndFilterBlocks()).isTrue();
            assertThat(a.cacheIndexAndFilterBlocksWithHighPriority()).isTrue();
            assertThat(a.pinTopLevelIndexAndFilter()).isTrue();
            assertThat(a.indexType()).isEqualTo(IndexType.kTwoLevelIndexSearch);
            assertThat(a.partitionFilters()).isTrue();
            assertThat(records.writeBufferSize()).isEqualTo(16L * 1024 * 1024);
            assertThat(records.maxWriteBufferNumber()).isEqualTo(3);
        }
    }

    @Test
    void sizesStayWithinAFewHundredMiB() {
        assertThat(BoundedRocksDbMemory.TOTAL_BYTES).isEqualTo(256L * 1024 * 1024);
        // memtables may fill the cache: idle stores' memtables must not starve the busy one (see the class comment)
        assertThat(BoundedRocksDbMemory.MEMTABLE_BYTES).isEqualTo(256L * 1024 * 1024);
    }

    @Test
    @EnabledOnOs(OS.LINUX) // reads the threads' nice values from /proc
    void flushesAndCompactionsRunAtTheLowestCpuPriority(@TempDir Path dir) throws Exception {
        try (Options options = new Options().setCreateIfMissing(true)) {
            configure(StoreNames.STATE, options);
            try (RocksDB db = RocksDB.open(options, dir.toString());
                    FlushOptions flush = new FlushOptions()) {
                flush.setWaitForFlush(true);
                for (int file = 0; file < 2; file++) { // two files, so that a compaction has work to do
                    db.put(("key-" + file).getBytes(StandardCharsets.UTF_8), new byte[] {1});
                    db.flush(flush); // on a thread of the high-priority pool
                }
                db.compactRange(); // on a thread of the low-priority pool
            }
        }
        // a pool's thread lowers its priority when it takes a job: the ones that flushed and compacted here did
        assertThat(niceOfThreadsNamed("rocksdb:high")).contains(19);
        assertThat(niceOfThreadsNamed("rocksdb:low")).contains(19);
    }

    /** The nice value of each thread of this process with that name (field 19 of /proc/self/task/<tid>/stat). */
    private static List<Integer> niceOfThreadsNamed(String name) throws IOException {
        List<Integer> nice = new ArrayList<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : tasks.toList()) {
                try {
                    if (Files.readString(task.resolve("comm")).strip().equals(name)) {
                        String stat = Files.readString(task.resolve("stat"));
                        // after "(comm)": state is field 3, nice field 19
                        String[] fields =
                                stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                        nice.add(Integer.parseInt(fields[19 - 3]));
                    }
                } catch (NoSuchFileException e) {
                    // a thread that ended since the listing (another test's, say): not one of the pools' threads, which
                    // live on
                }
            }
        }
        return nice;
    }

    @Test
    void theAppRegistersIt() {
        AppConfig config = AppConfig.defaults("127.0.0.1:9092", 0, Path.of("/tmp/unused"));
        assertThat(StreamsSettings.of(config).get(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG))
                .isEqualTo(BoundedRocksDbMemory.class);
    }
}
