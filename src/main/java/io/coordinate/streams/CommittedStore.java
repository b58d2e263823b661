package io.coordinate.streams;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.internals.InternalProcessorContext;
import org.apache.kafka.streams.processor.internals.RecordBatchingStateRestoreCallback;
import org.apache.kafka.streams.processor.internals.RecordCollector;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.apache.kafka.streams.state.internals.CacheFlushListener;
import org.apache.kafka.streams.state.internals.CachedStateStore;
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
 * <p>A restore from the changelog writes each batch of records with its last offset, and an index rebuild writes
 * straight to RocksDB ({@link #writeThrough}), both without the write-ahead log, as Kafka Streams does: a crash then
 * loses their last writes, offsets included, and the restart restores or rebuilds them again. The memtables are
 * flushed before the next logged write, so a crash can never replay a settled batch onto a store that lacks what was
 * written before it.
 */
public final class CommittedStore implements KeyValueStore<Bytes, byte[]>, CachedStateStore<Bytes, byte[]> {

  /** The stores' directory under the task's: not Kafka's ({@code rocksdb}), whose stores hold another layout. */
  static final String DIR = "committed";
  /** Where Kafka Streams' own RocksDB stores keep their files under the task's directory. */
  static final String KAFKA_DIR = "rocksdb";
  private static final Logger LOG = LoggerFactory.getLogger(CommittedStore.class);

  /** Where the changelog offset is kept: the empty key, which no engine key is and which reads never show. */
  private static final byte[] OFFSET_KEY = new byte[0];
  /** A deletion in an overlay: compared by identity, never a stored value. */
  private static final byte[] TOMBSTONE = new byte[0];
  private static final NavigableMap<byte[], byte[]> NONE = Collections.unmodifiableNavigableMap(newOverlay());
  /** Kafka Streams' committed offset for "none, restore from the start" (its {@code OFFSET_UNKNOWN}). */
  static final long NO_OFFSET = -4L;
  /** Kafka Streams' own RocksDB store's settings, which the app's config setter then changes. */
  private static final long BLOCK_CACHE_BYTES = 50L * 1024 * 1024;
  private static final long BLOCK_BYTES = 4096;
  private static final long MEMTABLE_BYTES = 16L * 1024 * 1024;
  private static final int MAX_MEMTABLES = 3;

  static {
    RocksDB.loadLibrary();
  }

  /** The open stores of each stream thread, for {@link #settleCommitted}. */
  private static final Map<Thread, Set<CommittedStore>> BY_THREAD = new ConcurrentHashMap<>();

  private final String name;
  /** Queries (other threads) read under the read lock; writes to {@code current} and closing take the write lock. */
  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private final Set<RocksSource> openIterators = ConcurrentHashMap.newKeySet();
  // Keyed by the raw bytes in RocksDB's order: Arrays.compareUnsigned is an intrinsic, Bytes' comparator a loop.
  private volatile NavigableMap<byte[], byte[]> current = newOverlay();
  private volatile NavigableMap<byte[], byte[]> pending = NONE;
  private volatile boolean open;
  private final Position position = Position.emptyPosition();

  private Supplier<Long> acknowledged;
  private Thread streamThread;
  private TopicPartition changelog;
  private boolean writeThrough;
  private RocksDB db;
  private Options options;
  private WriteOptions logged;
  private WriteOptions unlogged;
  /** Writes without the log that no memtable flush has persisted yet. */
  private boolean unflushed;
  private BloomFilter filter;
  private Cache ownCache;
  private RocksDBConfigSetter configSetter;

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
    TopicPartition partition = topic == null ? null : new TopicPartition(topic, context.taskId().partition());
    deleteKafkasStore(new File(new File(context.stateDir(), KAFKA_DIR), name));
    open(new File(new File(context.stateDir(), DIR), name), context.appConfigs(), partition,
        () -> acknowledgedOffset(context, partition));
    context.register(root, (RecordBatchingStateRestoreCallback) this::restoreBatch);
  }

  /**
   * The files of Kafka Streams' own store of this name, which versions before this store used: an upgraded task
   * starts from the changelog (this store is new, so empty), and they would take the disk for good.
   */
  private static void deleteKafkasStore(File dir) {
    if (!dir.exists()) {
      return;
    }
    LOG.info("deleting {}: the store is kept in {} now", dir, DIR);
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
    openDb(configs, dir);
    open = true;
    BY_THREAD.computeIfAbsent(streamThread, t -> ConcurrentHashMap.newKeySet()).add(this);
  }

  /**
   * The calling stream thread's producer has just committed its transaction: its stores settle the commit's writes
   * now, those without changelog (the indexes) first, so that a crash between the two leaves the records, which
   * the changelog brings up to date, behind their indexes rather than ahead.
   */
  static void settleCommitted() {
    Set<CommittedStore> stores = BY_THREAD.get(Thread.currentThread());
    if (stores == null) {
      return;
    }
    for (CommittedStore store : stores) {
      if (store.changelog == null) {
        store.settleIfCommitted();
      }
    }
    for (CommittedStore store : stores) {
      if (store.changelog != null) {
        store.settleIfCommitted();
      }
    }
  }

  /** The last changelog offset the task's producer had acknowledged, or null when it sent nothing to it. */
  private static Long acknowledgedOffset(StateStoreContext context, TopicPartition changelog) {
    if (changelog == null || !(context instanceof RecordCollector.Supplier supplier)) {
      return null;
    }
    RecordCollector collector = supplier.recordCollector();
    return collector == null ? null : collector.offsets().get(changelog);
  }

  private void openDb(Map<String, Object> configs, File dir) {
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
      byte[] value = db.get(OFFSET_KEY);
      if (value != null) {
        return ByteBuffer.wrap(value).getLong();
      }
      // A store that holds nothing holds nothing uncommitted either: restored from the changelog's start, not
      // wiped as a store without an offset would be under exactly-once (its files make the task's directory
      // non-empty). A partition that never had a command is such a store.
      return isEmpty() ? NO_OFFSET : null;
    } catch (RocksDBException e) {
      throw new ProcessorStateException("cannot read the offset of " + name, e);
    } finally {
      lock.readLock().unlock();
    }
  }

  private boolean isEmpty() {
    try (RocksIterator it = db.newIterator()) {
      it.seekToFirst();
      return !it.isValid();
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
    NavigableMap<byte[], byte[]> written = current;
    if (written.isEmpty()) {
      return;
    }
    NavigableMap<byte[], byte[]> sealed = written;
    if (!pending.isEmpty()) {
      // The last commit's writes are not settled yet (nothing called the store since): both wait for this one.
      sealed = newOverlay();
      sealed.putAll(pending);
      sealed.putAll(written);
    }
    pending = sealed; // before current moves on: a reader that sees the new current finds these in pending
    current = newOverlay();
  }

  /** Dropped overlays (a recycled task's); settled writes stay. */
  @Override
  public void clearCache() {
    current = newOverlay();
    pending = NONE;
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
    if (Thread.currentThread() == streamThread && !pending.isEmpty()) {
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
    NavigableMap<byte[], byte[]> settling = pending;
    if (settling.isEmpty() && offset == null) {
      return;
    }
    try (WriteBatch batch = new WriteBatch()) {
      for (Map.Entry<byte[], byte[]> entry : settling.entrySet()) {
        add(batch, entry.getKey(), entry.getValue());
      }
      if (offset != null) {
        batch.put(OFFSET_KEY, ByteBuffer.allocate(Long.BYTES).putLong(offset).array());
      }
      if (settling.isEmpty()) {
        writeUnlogged(batch); // an offset alone (a restoring task's checkpoint): the restore's own kind of write
      } else {
        writeLogged(batch);
      }
    } catch (RocksDBException e) {
      throw new ProcessorStateException("cannot write the committed batch of " + name, e);
    }
    pending = NONE; // after RocksDB holds it: a reader that still sees it finds the same values there
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

  /**
   * A plain sorted map: only the stream thread writes it, under the write lock, and other threads read it under the
   * read lock. Once it is {@code pending} nothing writes it any more.
   */
  private static NavigableMap<byte[], byte[]> newOverlay() {
    return new TreeMap<>(Arrays::compareUnsigned);
  }

  private static void add(WriteBatch batch, byte[] key, byte[] value) throws RocksDBException {
    if (value == TOMBSTONE || value == null) {
      batch.delete(key);
    } else {
      batch.put(key, value);
    }
  }

  /** A batch of the changelog, with its last offset, in one write: the store never holds half a batch. */
  void restoreBatch(Collection<ConsumerRecord<byte[], byte[]>> records) {
    if (records.isEmpty()) {
      return;
    }
    long last = -1;
    try (WriteBatch batch = new WriteBatch()) {
      for (ConsumerRecord<byte[], byte[]> record : records) {
        add(batch, record.key(), record.value());
        last = record.offset();
      }
      batch.put(OFFSET_KEY, ByteBuffer.allocate(Long.BYTES).putLong(last).array());
      writeUnlogged(batch);
    } catch (RocksDBException e) {
      throw new ProcessorStateException("cannot restore a batch into " + name, e);
    }
  }

  // --- writes: the stream thread's only ---

  @Override
  public void put(Bytes key, byte[] value) {
    settleIfCommitted();
    if (writeThrough) {
      writeNow(key, value);
    } else {
      lock.writeLock().lock();
      try {
        current.put(key.get(), value == null ? TOMBSTONE : value);
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
      try (WriteBatch batch = new WriteBatch()) {
        for (KeyValue<Bytes, byte[]> entry : entries) {
          add(batch, entry.key.get(), entry.value);
        }
        writeUnlogged(batch);
      } catch (RocksDBException e) {
        throw new ProcessorStateException("cannot write to " + name, e);
      }
      return;
    }
    NavigableMap<byte[], byte[]> into = current;
    lock.writeLock().lock(); // a query sees the batch whole or not at all
    try {
      for (KeyValue<Bytes, byte[]> entry : entries) {
        into.put(entry.key.get(), entry.value == null ? TOMBSTONE : entry.value);
      }
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

  private void writeNow(Bytes key, byte[] value) {
    try (WriteBatch batch = new WriteBatch()) {
      add(batch, key.get(), value);
      writeUnlogged(batch);
    } catch (RocksDBException e) {
      throw new ProcessorStateException("cannot write to " + name, e);
    }
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
    byte[] value = current.get(key.get());
    if (value == null) {
      value = pending.get(key.get());
    }
    if (value != null) {
      return value == TOMBSTONE ? null : value;
    }
    try {
      return db.get(key.get());
    } catch (RocksDBException e) {
      throw new ProcessorStateException("cannot read from " + name, e);
    }
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
      return new OverlayIterator(List.of(slice(current, from, to).entrySet().iterator(),
          slice(pending, from, to).entrySet().iterator()), rocks(from), to, prefix, TOMBSTONE);
    }
    lock.readLock().lock();
    try {
      requireOpen();
      // A copy of the overlays' part, under the lock: the stream thread may write them while the query reads.
      List<Map.Entry<byte[], byte[]>> written = new ArrayList<>(slice(current, from, to).entrySet());
      return new OverlayIterator(List.of(written.iterator(), slice(pending, from, to).entrySet().iterator()),
          rocks(from), to, prefix, TOMBSTONE);
    } finally {
      lock.readLock().unlock();
    }
  }

  private static NavigableMap<byte[], byte[]> slice(NavigableMap<byte[], byte[]> map, Bytes from, Bytes to) {
    if (map.isEmpty()) {
      return map;
    }
    if (from == null && to == null) {
      return map;
    }
    if (from == null) {
      return map.headMap(to.get(), true);
    }
    return to == null ? map.tailMap(from.get(), true) : map.subMap(from.get(), true, to.get(), true);
  }

  private RocksSource rocks(Bytes from) {
    RocksSource source = new RocksSource(db.newIterator(), from);
    openIterators.add(source);
    return source;
  }

  @Override
  public long approximateNumEntries() {
    lock.readLock().lock();
    try {
      requireOpen();
      return db.getLongProperty("rocksdb.estimate-num-keys");
    } catch (RocksDBException e) {
      throw new ProcessorStateException("cannot estimate the entries of " + name, e);
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
      Set<CommittedStore> stores = BY_THREAD.get(streamThread);
      if (stores != null) {
        stores.remove(this);
        BY_THREAD.computeIfPresent(streamThread, (thread, left) -> left.isEmpty() ? null : left);
      }
      current = newOverlay();
      pending = NONE;
      for (RocksSource source : List.copyOf(openIterators)) {
        source.close();
      }
      if (configSetter != null) {
        configSetter.close(name, options);
      }
      closeNative();
    } finally {
      lock.writeLock().unlock();
    }
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

  private void requireOpen() {
    if (!open) {
      throw new InvalidStateStoreException("the store " + name + " is closed");
    }
  }

  /** RocksDB's entries from a key on, without the offset's key; closed with the store at the latest. */
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
