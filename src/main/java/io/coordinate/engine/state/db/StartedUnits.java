package io.coordinate.engine.state.db;

import io.coordinate.storage.KeyValueIterator;
import io.coordinate.storage.ReadableKeyValueStore;
import io.coordinate.storage.ByteKey;
import io.coordinate.engine.state.codec.AttemptKeys;
import io.coordinate.engine.state.codec.KeySpace;
import io.coordinate.engine.state.codec.UnitValue;
import io.coordinate.engine.state.codec.ValueCodec;
import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.engine.state.model.WorkUnitRecord;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The units whose value lives in a started-units entry ({@link AttemptKeys#startedUnitsBlock}) rather than in their own
 * record: unit key → the attempt that started them. A request starts its units without writing their records (a
 * record, a RocksDB write and a changelog record less per unit: issue 4, docs/performance.md); the entry of each
 * block of 64 attempts holds what the start added, and this map, in the engine's memory, lets a read by name find
 * it without an index entry per unit, which would cost the write that was saved.
 *
 * <p>It is derived from the records: {@link #load} reads it from the started-units entries when an engine opens its
 * store (after a restore too). A command's changes are kept apart until {@link #commit} (the command's writes are
 * applied) or dropped by {@link #discard} (it was rejected), as the store's are. A started-units entry's value per
 * attempt is {@link #delta}: the worker, the start time and the expiration; the unit and the attempt follow from the
 * unit's record ({@link #value}), exactly as the request made them ({@link WorkUnitRecord#startedOn},
 * {@link AttemptRecord#started}).
 */
public final class StartedUnits {

  /** In {@link #changed}: the command removed the unit. (Attempt numbers start at 1.) */
  private static final long REMOVED = -1L;

  /**
   * Started units beyond which a start writes the unit's record as before. A query has no engine's map and reads a
   * unit by name by scanning its namespace's started-units entries ({@link StoredUnitValues}); this bounds that
   * scan to ~1,000 entries (~4 MB) however many leases are out.
   */
  static final int MAX_STARTED = 65_536;

  private final int maxStarted;
  private final KeySeqMap committed = new KeySeqMap();
  /**
   * This command's changes: a unit key → its attempt, or {@link #REMOVED}. A flat map as {@link #committed}: a
   * request adds a hundred units and a finish removes as many, and a node, a key object and a boxed number for each
   * showed in the stream thread's profile (docs/performance.md).
   */
  private final KeySeqMap changed = new KeySeqMap();
  /**
   * The last unit looked up and the answer: one step of a unit reads it several times (the handler, the start or the
   * end of its attempt, the write), and a lookup in a map of thousands of keys is a hash over the key and cache
   * misses.
   */
  private byte[] lastKey;
  private Long lastSeq;

  public StartedUnits() {
    this(MAX_STARTED);
  }

  StartedUnits(int maxStarted) {
    this.maxStarted = maxStarted;
  }

  /** The attempt whose started-units entry holds the unit's value, or null. */
  Long get(byte[] unitKey) {
    if (committed.size() == 0 && changed.size() == 0) {
      return null;
    }
    if (unitKey == lastKey || Arrays.equals(unitKey, lastKey)) {
      return lastSeq;
    }
    Long seq = lookUp(unitKey);
    lastKey = unitKey;
    lastSeq = seq;
    return seq;
  }

  private Long lookUp(byte[] unitKey) {
    int hash = ByteKey.hash(unitKey);
    long seq = changed.get(unitKey, hash);
    if (seq == KeySeqMap.ABSENT) {
      seq = committed.get(unitKey, hash);
    }
    return seq == KeySeqMap.ABSENT || seq == REMOVED ? null : seq;
  }

  /** Tells the answer for a unit, known otherwise (from its attempt's blocks), so that the next lookup is free. */
  void remember(byte[] unitKey, Long seq) {
    assert unitKey == null || Objects.equals(lookUp(unitKey), seq) : "told " + seq + ", the map has " + lookUp(unitKey);
    lastKey = unitKey;
    lastSeq = seq;
  }

  /** Whether another unit may be started without writing its record (see {@link #MAX_STARTED}). */
  boolean hasRoom() {
    return committed.size() < maxStarted;
  }

  void put(byte[] unitKey, long seq) {
    changed.put(unitKey, ByteKey.hash(unitKey), seq);
    remember(unitKey, seq);
  }

  /** Forgets the unit; returns the attempt that held its value, or null. */
  Long remove(byte[] unitKey) {
    Long seq = get(unitKey);
    if (seq != null) {
      changed.put(unitKey, ByteKey.hash(unitKey), REMOVED);
      remember(unitKey, null);
    }
    return seq;
  }

  /** Forgets every unit whose key starts with {@code prefix} (a spec's or a namespace's, deleted by range). */
  void removeAll(byte[] prefix) {
    remember(null, null);
    // the command's own starts first (a put over a key it has is all that may happen during a forEach)
    changed.forEach((key, hash, seq) -> {
      if (startsWith(key, prefix)) {
        changed.put(key, hash, REMOVED);
      }
    });
    committed.forEach((key, hash, seq) -> {
      if (startsWith(key, prefix)) {
        changed.put(key, hash, REMOVED);
      }
    });
  }

  public void commit() {
    changed.forEach((key, hash, seq) -> {
      if (seq == REMOVED) {
        committed.remove(key, hash);
      } else {
        committed.put(key, hash, seq);
      }
    });
    changed.clear();
  }

  public void discard() {
    changed.clear();
    remember(null, null);
  }

  int size() {
    return committed.size();
  }

  /** The committed map, unit key in hex → attempt: for checks that the engine's map equals a fresh {@link #load}. */
  public Map<String, Long> snapshot() {
    Map<String, Long> copy = new TreeMap<>();
    committed.forEach((key, hash, seq) -> copy.put(HexFormat.of().formatHex(key), seq));
    return copy;
  }

  /** Reads every namespace's started-units entries. */
  public static StartedUnits load(ReadableKeyValueStore store) {
    return load(store, MAX_STARTED);
  }

  static StartedUnits load(ReadableKeyValueStore store, int maxStarted) {
    StartedUnits started = new StartedUnits(maxStarted);
    for (String ns : DbState.reader(store).namespaces().list()) {
      forEach(store, ns, (unitKey, seq, delta) -> started.committed.put(unitKey, ByteKey.hash(unitKey), seq));
    }
    return started;
  }

  /** What one slot of a started-units entry lists. */
  interface Slot {
    void accept(byte[] unitKey, long seq, byte[] delta);
  }

  /** Every unit the namespace's started-units entries list, in attempt order. */
  static void forEach(ReadableKeyValueStore store, String ns, Slot slot) {
    try (KeyValueIterator it = store.prefix(AttemptKeys.startedUnitsBlocks(ns))) {
      while (it.hasNext()) {
        KeyValueIterator.Entry entry = it.next();
        long first = KeySpace.trailingSeq(entry.key()) << AttemptBlocks.SHIFT;
        byte[][] keys = new byte[1 << AttemptBlocks.SHIFT][];
        byte[][] deltas = new byte[keys.length][];
        AttemptBlocks.decodeUnits(entry.value(), keys, deltas);
        for (int offset = 0; offset < keys.length; offset++) {
          if (keys[offset] != null) {
            slot.accept(keys[offset], first + offset, deltas[offset]);
          }
        }
      }
    }
  }

  // --- what a started-units entry holds per attempt ---

  /** What the start added to the unit's record: the attempt's worker and times. */
  static byte[] delta(AttemptRecord attempt) {
    byte[] worker = attempt.worker().getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(Integer.BYTES + worker.length + 2 * Long.BYTES).putInt(worker.length).put(worker)
        .putLong(attempt.startTime()).putLong(attempt.expirationTime()).array();
  }

  /**
   * The unit's stored value (see {@link UnitValue}) once attempt {@code seq} started on it: its record
   * {@code recorded} as the request found it, and {@code delta}.
   */
  static byte[] value(byte[] recorded, long seq, byte[] delta) {
    WorkUnitRecord unit = ValueCodec.decode(recorded, WorkUnitRecord.class);
    ByteBuffer in = ByteBuffer.wrap(delta);
    byte[] worker = new byte[in.getInt()];
    in.get(worker);
    AttemptRecord attempt =
        AttemptRecord.started(seq, unit, new String(worker, StandardCharsets.UTF_8), in.getLong(), in.getLong());
    return UnitValue.of(ValueCodec.encode(unit.startedOn(seq)), seq, ValueCodec.encode(attempt));
  }

  /**
   * Whether {@code after} and {@code attempt} are what {@link #value} makes of {@code before}: what a request's start
   * must be for its entry to hold it (asserted where it is kept).
   */
  static boolean derivable(WorkUnitRecord before, WorkUnitRecord after, AttemptRecord attempt) {
    return after.equals(before.startedOn(attempt.seq())) && attempt.equals(
        AttemptRecord.started(attempt.seq(), before, attempt.worker(), attempt.startTime(), attempt.expirationTime()));
  }

  private static boolean startsWith(byte[] key, byte[] prefix) {
    return key.length >= prefix.length && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
  }
}
