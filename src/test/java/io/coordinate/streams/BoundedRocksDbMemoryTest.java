package io.coordinate.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.app.AppConfig;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.state.internals.BlockBasedTableConfigWithAccessibleCache;
import org.junit.jupiter.api.Test;
import org.rocksdb.IndexType;
import org.rocksdb.Options;

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
    try (Options records = new Options(); Options indexes = new Options()) {
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
  void theAppRegistersIt() {
    AppConfig config = AppConfig.defaults("127.0.0.1:9092", 0, Path.of("/tmp/unused"));
    assertThat(StreamsSettings.of(config).get(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG))
        .isEqualTo(BoundedRocksDbMemory.class);
  }
}
