package io.coordinate.streams;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The adapter on Kafka Streams' own RocksDB store, as the topology builds it. */
class WriteBehindBytesStoreTest {

  @TempDir
  Path stateDir;

  private KeyValueStore<Bytes, byte[]> rocksDb;
  private WriteBehindBytesStore store;

  @BeforeEach
  void open() {
    Properties props = new Properties();
    props.put(StreamsConfig.APPLICATION_ID_CONFIG, "write-behind-test");
    props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9");
    props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    MockProcessorContext<Object, Object> context = new MockProcessorContext<>(props, new TaskId(0, 0), stateDir.toFile());
    rocksDb = Stores.persistentKeyValueStore("s").get();
    store = new WriteBehindBytesStore(rocksDb);
    store.init(context.getStateStoreContext(), store);
  }

  @AfterEach
  void close() {
    store.close();
  }

  private static Bytes k(String key) {
    return Bytes.wrap(key.getBytes(StandardCharsets.UTF_8));
  }

  private static byte[] v(String value) {
    return value.getBytes(StandardCharsets.UTF_8);
  }

  private static List<String> read(KeyValueIterator<Bytes, byte[]> it) {
    List<String> out = new ArrayList<>();
    try (it) {
      while (it.hasNext()) {
        KeyValue<Bytes, byte[]> entry = it.next();
        out.add(new String(entry.key.get(), StandardCharsets.UTF_8) + "=" + new String(entry.value, StandardCharsets.UTF_8));
      }
    }
    return out;
  }

  @Test
  void readsSeeTheWritesAndKafkasRangeIncludesItsUpperBound() {
    store.putAll(List.of(KeyValue.pair(k("c"), v("3")), KeyValue.pair(k("a"), v("1")),
        KeyValue.pair(k("b"), v("2")), KeyValue.pair(k("cc"), v("4"))));
    store.put(k("d"), v("5"));

    assertArrayEquals(v("2"), store.get(k("b")));
    assertEquals(List.of("a=1", "b=2", "c=3"), read(store.range(k("a"), k("c"))));
    assertArrayEquals(v("5"), store.delete(k("d")));
    assertNull(store.get(k("d")));
    assertArrayEquals(v("1"), store.putIfAbsent(k("a"), v("9")));
    assertNull(store.putIfAbsent(k("e"), v("6")));
    assertEquals(List.of("a=1", "b=2", "c=3", "cc=4", "e=6"), read(store.all()));
  }

  @Test
  void aFlushLeavesEveryWriteInRocksDb() {
    for (int i = 0; i < 50; i++) {
      store.putAll(List.of(KeyValue.pair(k(String.format("k%02d", i)), v(Integer.toString(i)))));
    }
    store.delete(k("k07"));

    store.flush();

    assertArrayEquals(v("49"), rocksDb.get(k("k49")));
    assertNull(rocksDb.get(k("k07")));
    assertEquals(49, read(rocksDb.all()).size());
  }
}
