package io.coordinate.engine.state;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A store whose batches of writes ({@link #putAll}) are applied to the store below by a thread of its own, while
 * the caller goes on: a command's RocksDB write batch costs the stream thread a quarter of a unit's time
 * (issue 4, docs/performance.md), and on a machine with a second core it can be done beside the next command.
 *
 * <p>Until a batch is applied it stays <em>pending</em>, and every read sees it: a read looks through the pending
 * batches, newest first, before the store below. A batch leaves the pending list only after the store below has
 * it, so a read that misses it there finds it below. A range scan takes the pending list before it opens the
 * store's iterator (a RocksDB iterator reads a snapshot taken when it opens): a batch that left the list in
 * between is then in both, with the same value. {@link #drain} waits until every batch given so far is applied
 * (Kafka Streams' flush and commit call it, so nothing pending outlives a commit).
 *
 * <p>One writer ({@link #putAll} from one thread); reads from any thread. At most {@link #MAX_PENDING} batches
 * wait: a writer that outruns the store below waits for it, so memory stays bounded. A failure of the store below
 * is kept and thrown to the writer at its next call; the batches after it are not applied.
 */
public final class WriteBehindStore implements BatchWrites, AutoCloseable {

  static final int MAX_PENDING = 8;
  private static final byte[] TOMBSTONE = new byte[0];

  /** A batch as given: keys ascending, each once; a deleted key's value is {@link #TOMBSTONE}. */
  private record Batch(long seq, byte[][] keys, byte[][] values) {

    /** The batch's value for {@code key} ({@link #TOMBSTONE}: deleted), or null when the batch has no write of it. */
    byte[] find(byte[] key) {
      int at = lowerBound(keys, key);
      return at < keys.length && Arrays.equals(keys[at], key) ? values[at] : null;
    }

    /** The writes for the store below (built by the applying thread, not the writer's). */
    List<KeyValueIterator.Entry> writes() {
      List<KeyValueIterator.Entry> writes = new ArrayList<>(keys.length);
      for (int i = 0; i < keys.length; i++) {
        writes.add(new KeyValueIterator.Entry(keys[i], values[i] == TOMBSTONE ? null : values[i]));
      }
      return writes;
    }
  }

  private final KeyValueStore below;
  /** Oldest first. Written by the writer (add) and the applying thread (remove); read by everyone. */
  private final ConcurrentLinkedDeque<Batch> pending = new ConcurrentLinkedDeque<>();
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final Thread applier;
  private long given;
  private long applied;
  private RuntimeException failure;
  private boolean closed;

  public WriteBehindStore(KeyValueStore below, String threadName) {
    this.below = below;
    this.applier = new Thread(this::applyLoop, threadName);
    applier.setDaemon(true);
    applier.start();
  }

  // --- reads ---

  @Override
  public byte[] get(byte[] key) {
    Iterator<Batch> newestFirst = pending.descendingIterator();
    while (newestFirst.hasNext()) {
      byte[] value = newestFirst.next().find(key);
      if (value != null) {
        return value == TOMBSTONE ? null : value;
      }
    }
    return below.get(key);
  }

  @Override
  public KeyValueIterator range(byte[] from, byte[] to) {
    if (pending.isEmpty()) {
      return below.range(from, to);
    }
    // the pending batches are taken before the store's iterator opens (see the class comment)
    List<Cursor> cursors = new ArrayList<>(MAX_PENDING);
    for (Batch batch : pending) {
      Cursor cursor = new Cursor(batch, lowerBound(batch.keys, from), to);
      if (cursor.key() != null) {
        cursors.add(cursor);
      }
    }
    KeyValueIterator stored = below.range(from, to);
    return cursors.isEmpty() ? stored : new OverlaidEntries(stored, new PendingWrites(cursors), TOMBSTONE);
  }

  /** A position in one pending batch, up to an exclusive bound. */
  private static final class Cursor {
    private final Batch batch;
    private final byte[] to;
    private int index;

    Cursor(Batch batch, int index, byte[] to) {
      this.batch = batch;
      this.index = index;
      this.to = to;
    }

    /** The key here, or null past the end or the bound. */
    byte[] key() {
      if (index >= batch.keys.length || Arrays.compareUnsigned(batch.keys[index], to) >= 0) {
        return null;
      }
      return batch.keys[index];
    }

    byte[] value() {
      return batch.values[index];
    }

    void advance() {
      index++;
    }
  }

  private static int lowerBound(byte[][] keys, byte[] key) {
    int low = 0;
    int high = keys.length;
    while (low < high) {
      int mid = (low + high) >>> 1;
      if (Arrays.compareUnsigned(keys[mid], key) < 0) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return low;
  }

  // --- writes ---

  /** Hands the batch to the applying thread; returns at once unless {@link #MAX_PENDING} batches wait already. */
  @Override
  public void putAll(List<KeyValueIterator.Entry> writes) {
    if (writes.isEmpty()) {
      return;
    }
    Batch batch = batchOf(writes);
    lock.lock();
    try {
      if (closed) {
        throw new IllegalStateException("the store is closed"); // its thread is gone: the batch would never be applied
      }
      while (given - applied >= MAX_PENDING && failure == null) {
        changed.awaitUninterruptibly();
      }
      throwFailure();
      batch = new Batch(++given, batch.keys, batch.values);
      pending.addLast(batch);
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** The writes as a batch: sorted by key, the last write of a key kept (a command's writes come sorted, once). */
  private static Batch batchOf(List<KeyValueIterator.Entry> writes) {
    boolean sorted = true;
    for (int i = 1; i < writes.size() && sorted; i++) {
      sorted = Arrays.compareUnsigned(writes.get(i - 1).key(), writes.get(i).key()) < 0;
    }
    if (!sorted) {
      TreeMap<byte[], byte[]> last = new TreeMap<>(Arrays::compareUnsigned);
      for (KeyValueIterator.Entry write : writes) {
        last.put(write.key(), write.value() == null ? TOMBSTONE : write.value());
      }
      return new Batch(0, last.keySet().toArray(new byte[0][]), last.values().toArray(new byte[0][]));
    }
    byte[][] keys = new byte[writes.size()][];
    byte[][] values = new byte[writes.size()][];
    for (int i = 0; i < keys.length; i++) {
      KeyValueIterator.Entry write = writes.get(i);
      keys[i] = write.key();
      values[i] = write.value() == null ? TOMBSTONE : write.value();
    }
    return new Batch(0, keys, values);
  }

  /** Waits until every batch given so far is in the store below; throws the store's failure if it had one. */
  public void drain() {
    lock.lock();
    try {
      long wanted = given;
      while (applied < wanted && failure == null) {
        changed.awaitUninterruptibly();
      }
      throwFailure();
    } finally {
      lock.unlock();
    }
  }

  /** Whether batches wait to be applied. */
  public boolean hasPending() {
    return !pending.isEmpty();
  }

  private void throwFailure() {
    if (failure != null) {
      throw new IllegalStateException("a write to the store failed: " + failure.getMessage(), failure);
    }
  }

  private void applyLoop() {
    while (true) {
      Batch next;
      lock.lock();
      try {
        while (pending.isEmpty() && !closed) {
          changed.awaitUninterruptibly();
        }
        if (pending.isEmpty()) {
          return; // closed, and nothing left
        }
        next = pending.peekFirst();
      } finally {
        lock.unlock();
      }
      RuntimeException failed = null;
      try {
        below.putAll(next.writes());
      } catch (RuntimeException e) {
        failed = e;
      }
      lock.lock();
      try {
        if (failed != null) {
          failure = failed; // the batch stays pending: reads still see it, nothing after it is applied
          changed.signalAll();
          return;
        }
        pending.removeFirst(); // only now: a read that misses it here finds it below
        applied = next.seq();
        changed.signalAll();
      } finally {
        lock.unlock();
      }
    }
  }

  /** Applies what is pending, then stops the applying thread. The store below stays open. */
  @Override
  public void close() {
    lock.lock();
    try {
      closed = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    try {
      applier.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The pending batches' writes in key order, the newest batch's write of a key winning (tombstones included). */
  private static final class PendingWrites implements Iterator<Map.Entry<byte[], byte[]>> {
    private final List<Cursor> cursors; // oldest batch first

    PendingWrites(List<Cursor> cursors) {
      this.cursors = cursors;
    }

    @Override
    public boolean hasNext() {
      for (Cursor cursor : cursors) {
        if (cursor.key() != null) {
          return true;
        }
      }
      return false;
    }

    @Override
    public Map.Entry<byte[], byte[]> next() {
      byte[] smallest = null;
      for (Cursor cursor : cursors) {
        byte[] key = cursor.key();
        if (key != null && (smallest == null || Arrays.compareUnsigned(key, smallest) < 0)) {
          smallest = key;
        }
      }
      if (smallest == null) {
        throw new NoSuchElementException();
      }
      byte[] value = null;
      for (Cursor cursor : cursors) { // the last batch with the key is the newest
        byte[] key = cursor.key();
        if (key != null && Arrays.equals(key, smallest)) {
          value = cursor.value();
          cursor.advance();
        }
      }
      return Map.entry(smallest, value);
    }
  }
}
