package io.coordinate.streams;

import io.coordinate.engine.state.WriteBehindStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * Kafka Streams' RocksDB store with its write batches applied by a thread of its own ({@link WriteBehindStore}):
 * the stream thread hands a command's batch over and goes on with the next command, on a machine with a core to
 * spare. It sits below the changelog layer, so the changelog records are still sent by the stream thread, in
 * order, within the transaction. Kafka Streams' flush and commit wait until every batch is applied, so a
 * checkpoint never names writes that are not in RocksDB; reads, the interactive queries' among them, see the
 * batches still pending.
 */
final class WriteBehindBytesStore implements KeyValueStore<Bytes, byte[]> {

  /** A {@link Stores#persistentKeyValueStore} whose instances write behind. */
  static KeyValueBytesStoreSupplier supplier(String name) {
    KeyValueBytesStoreSupplier rocksDb = Stores.persistentKeyValueStore(name);
    return new KeyValueBytesStoreSupplier() {
      @Override
      public String name() {
        return rocksDb.name();
      }

      @Override
      public KeyValueStore<Bytes, byte[]> get() {
        return new WriteBehindBytesStore(rocksDb.get());
      }

      @Override
      public String metricsScope() {
        return rocksDb.metricsScope();
      }
    };
  }

  private final KeyValueStore<Bytes, byte[]> rocksDb;
  private WriteBehindStore writes;

  WriteBehindBytesStore(KeyValueStore<Bytes, byte[]> rocksDb) {
    this.rocksDb = rocksDb;
  }

  @Override
  public void init(StateStoreContext context, StateStore root) {
    rocksDb.init(context, root); // restores straight into RocksDB: nothing is pending before the first command
    writes = new WriteBehindStore(StreamsStore.writable(rocksDb),
        "coordinate-" + rocksDb.name() + "-" + context.taskId() + "-writer");
  }

  // --- reads: pending batches first ---

  @Override
  public byte[] get(Bytes key) {
    return writes.get(key.get());
  }

  @Override
  public KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to) {
    if (from == null || to == null) {
      writes.drain();
      return rocksDb.range(from, to);
    }
    // Kafka's range includes its upper bound, the engine's excludes it: the key right after it
    byte[] end = Arrays.copyOf(to.get(), to.get().length + 1);
    return new Iterator(writes.range(from.get(), end));
  }

  @Override
  public KeyValueIterator<Bytes, byte[]> reverseRange(Bytes from, Bytes to) {
    writes.drain(); // not on the engine's path: the store itself answers, once it has everything
    return rocksDb.reverseRange(from, to);
  }

  @Override
  public KeyValueIterator<Bytes, byte[]> all() {
    writes.drain();
    return rocksDb.all();
  }

  @Override
  public KeyValueIterator<Bytes, byte[]> reverseAll() {
    writes.drain();
    return rocksDb.reverseAll();
  }

  @Override
  public <PS extends Serializer<P>, P> KeyValueIterator<Bytes, byte[]> prefixScan(P prefix, PS serializer) {
    writes.drain();
    return rocksDb.prefixScan(prefix, serializer);
  }

  @Override
  public long approximateNumEntries() {
    return rocksDb.approximateNumEntries();
  }

  // --- writes: handed to the writing thread ---

  @Override
  public void put(Bytes key, byte[] value) {
    writes.put(key.get(), value);
  }

  @Override
  public byte[] putIfAbsent(Bytes key, byte[] value) {
    byte[] old = get(key);
    if (old == null) {
      put(key, value);
    }
    return old;
  }

  @Override
  public void putAll(List<KeyValue<Bytes, byte[]>> entries) {
    List<io.coordinate.engine.state.KeyValueIterator.Entry> batch = new ArrayList<>(entries.size());
    for (KeyValue<Bytes, byte[]> entry : entries) {
      batch.add(new io.coordinate.engine.state.KeyValueIterator.Entry(entry.key.get(), entry.value));
    }
    writes.putAll(batch);
  }

  @Override
  public byte[] delete(Bytes key) {
    byte[] old = get(key);
    writes.delete(key.get());
    return old;
  }

  // --- the store's life: everything applied first ---

  @Override
  public void flush() {
    writes.drain();
    rocksDb.flush();
  }

  @Override
  public void commit(Map<TopicPartition, Long> changelogOffsets) {
    writes.drain();
    rocksDb.commit(changelogOffsets);
  }

  @Override
  public Long committedOffset(TopicPartition partition) {
    return rocksDb.committedOffset(partition);
  }

  @Override
  public boolean managesOffsets() {
    return rocksDb.managesOffsets();
  }

  @Override
  public void close() {
    if (writes != null) {
      writes.close(); // applies what is pending
    }
    rocksDb.close();
  }

  @Override
  public String name() {
    return rocksDb.name();
  }

  @Override
  public boolean persistent() {
    return rocksDb.persistent();
  }

  @Override
  public boolean isOpen() {
    return rocksDb.isOpen();
  }

  @Override
  public <R> QueryResult<R> query(Query<R> query, PositionBound positionBound, QueryConfig config) {
    writes.drain();
    return rocksDb.query(query, positionBound, config);
  }

  @Override
  public Position getPosition() {
    return rocksDb.getPosition();
  }

  /** The engine's iterator as Kafka's. */
  private static final class Iterator implements KeyValueIterator<Bytes, byte[]> {
    private final io.coordinate.engine.state.KeyValueIterator entries;
    private io.coordinate.engine.state.KeyValueIterator.Entry peeked;

    Iterator(io.coordinate.engine.state.KeyValueIterator entries) {
      this.entries = entries;
    }

    @Override
    public boolean hasNext() {
      return peeked != null || entries.hasNext();
    }

    @Override
    public KeyValue<Bytes, byte[]> next() {
      io.coordinate.engine.state.KeyValueIterator.Entry entry = peeked != null ? peeked : entries.next();
      peeked = null;
      return KeyValue.pair(Bytes.wrap(entry.key()), entry.value());
    }

    @Override
    public Bytes peekNextKey() {
      if (peeked == null) {
        if (!entries.hasNext()) {
          throw new NoSuchElementException();
        }
        peeked = entries.next();
      }
      return Bytes.wrap(peeked.key());
    }

    @Override
    public void close() {
      entries.close();
    }
  }
}
