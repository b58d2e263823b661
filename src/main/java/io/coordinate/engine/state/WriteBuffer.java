package io.coordinate.engine.state;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The writes of one command, held in memory over the real store until {@link #commit()}: a rejected or
 * failed command is dropped with {@link #discard()} and leaves the store exactly as it was. Reads and range
 * scans see the buffered writes merged over the store. Repeated writes of one key (a spec's counters, say)
 * reach the store once, and the stores below get them in key order.
 *
 * <p>The writes are found by hash, not in a sorted map: a command makes a few hundred point reads and writes and
 * only a few range scans, and a sorted map's inserts and lookups (key comparisons over long shared prefixes,
 * rebalancing) were an eighth of the stream thread (docs/performance.md, History). The written keys are sorted only
 * when a scan needs them ({@link #sorted}, each key inserted once whatever the number of scans) and at commit.
 */
public final class WriteBuffer implements KeyValueStore {

  private static final byte[] TOMBSTONE = new byte[0];
  /** Reads kept per command: a batch touches a few hundred keys; a command that walks a whole spec keeps no more. */
  private static final int MAX_READS_KEPT = 10_000;

  /** A buffered write; its value changes when the key is written again ({@link #TOMBSTONE}: deleted). */
  private static final class Write {
    final byte[] key;
    byte[] value;

    Write(byte[] key, byte[] value) {
      this.key = key;
      this.value = value;
    }
  }

  private final KeyValueStore base;
  private final Map<ByteKey, Write> pending = new HashMap<>();
  /** The writes in key order, for scans: holds every write except the {@link #unsorted} ones. */
  private final NavigableMap<byte[], Write> sorted = new TreeMap<>(Arrays::compareUnsigned);
  /** Writes of keys new since the last scan, not in {@link #sorted} yet. */
  private final List<Write> unsorted = new ArrayList<>();
  /** What this command read from the store (absent keys as {@link #TOMBSTONE}). */
  private final Map<ByteKey, byte[]> reads = new HashMap<>();

  public WriteBuffer(KeyValueStore base) {
    this.base = base;
  }

  @Override
  public byte[] get(byte[] key) {
    ByteKey lookup = new ByteKey(key);
    Write write = pending.get(lookup);
    if (write != null) {
      return write.value == TOMBSTONE ? null : write.value;
    }
    // A command reads some keys several times (a unit: by the handler, then to keep the attempt it holds, then
    // by the cascade); the store is asked once. Writes go to pending, which is looked at first.
    byte[] read = reads.get(lookup);
    if (read == null) {
      read = base.get(key);
      if (reads.size() < MAX_READS_KEPT) {
        reads.put(lookup, read == null ? TOMBSTONE : read);
      }
    }
    return read == TOMBSTONE ? null : read;
  }

  @Override
  public void known(byte[] key, byte[] value) {
    if (reads.size() < MAX_READS_KEPT) {
      // a write of the key, if any, is in pending and is seen first
      reads.putIfAbsent(new ByteKey(key), value == null ? TOMBSTONE : value);
    }
  }

  @Override
  public void put(byte[] key, byte[] value) {
    write(key, value);
  }

  @Override
  public void delete(byte[] key) {
    write(key, TOMBSTONE);
  }

  private void write(byte[] key, byte[] value) {
    ByteKey lookup = new ByteKey(key);
    Write write = pending.get(lookup);
    if (write != null) {
      write.value = value;
      return;
    }
    ByteKey copy = lookup.copy(); // the caller may reuse its array
    write = new Write(copy.bytes, value);
    pending.put(copy, write);
    unsorted.add(write);
  }

  /** Applies every buffered write to the underlying store, in key order. */
  public void commit() {
    Write[] all = pending.values().toArray(new Write[0]);
    Arrays.sort(all, (a, b) -> Arrays.compareUnsigned(a.key, b.key));
    List<KeyValueIterator.Entry> writes = new ArrayList<>(all.length);
    for (Write write : all) {
      writes.add(new KeyValueIterator.Entry(write.key, write.value == TOMBSTONE ? null : write.value));
    }
    base.putAll(writes);
    discard();
  }

  public void discard() {
    pending.clear();
    sorted.clear();
    unsorted.clear();
    reads.clear();
  }

  public boolean isEmpty() {
    return pending.isEmpty();
  }

  @Override
  public KeyValueIterator range(byte[] from, byte[] to) {
    if (Arrays.compareUnsigned(from, to) >= 0) {
      return base.range(from, to);
    }
    Iterator<Write> overlay = sorted().subMap(from, true, to, false).values().iterator();
    return new OverlaidEntries(base.range(from, to), new Iterator<>() {
      @Override
      public boolean hasNext() {
        return overlay.hasNext();
      }

      @Override
      public Map.Entry<byte[], byte[]> next() {
        Write write = overlay.next();
        return new AbstractMap.SimpleImmutableEntry<>(write.key, write.value);
      }
    }, TOMBSTONE);
  }

  /** Every write in key order: the keys new since the last scan join the sorted ones. */
  private NavigableMap<byte[], Write> sorted() {
    for (Write write : unsorted) {
      sorted.put(write.key, write);
    }
    unsorted.clear();
    return sorted;
  }
}
