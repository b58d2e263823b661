package io.coordinate.bench;

import io.coordinate.engine.state.KeyValueIterator;
import io.coordinate.engine.state.KeyValueStore;
import io.coordinate.engine.state.Keys;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A store that times its calls, for {@link EngineLifecycleBenchmark}: all of them (the iterators' steps included),
 * and the reads by key and the write batches apart; the reads also by the command that made them and by what they
 * read (a record or an index entry, found or not), so that the costliest reads can be named.
 */
final class TimedStore implements KeyValueStore {

  /** How many calls, and their time. */
  static final class Tally {
    long calls;
    long nanos;

    void add(long took) {
      calls++;
      nanos += took;
    }
  }

  private final KeyValueStore store;
  /** The command being applied: reads are tallied under it. */
  String command = "";
  long nanos;
  final Tally reads = new Tally();
  /** Keys written, and the time of the batches that wrote them. */
  final Tally writes = new Tally();
  final Map<String, Tally> readsByKind = new TreeMap<>();

  TimedStore(KeyValueStore store) {
    this.store = store;
  }

  void reset() {
    nanos = 0;
    reads.calls = reads.nanos = writes.calls = writes.nanos = 0;
    readsByKind.clear();
  }

  @Override
  public byte[] get(byte[] key) {
    long started = System.nanoTime();
    byte[] value = store.get(key);
    long took = System.nanoTime() - started;
    nanos += took;
    reads.add(took);
    String kind = command + " " + (Keys.isIndex(key) ? "index entry" : "record") + (value == null ? " absent" : "");
    readsByKind.computeIfAbsent(kind, k -> new Tally()).add(took);
    return value;
  }

  @Override
  public void put(byte[] key, byte[] value) {
    long started = System.nanoTime();
    store.put(key, value);
    nanos += System.nanoTime() - started;
  }

  @Override
  public void delete(byte[] key) {
    long started = System.nanoTime();
    store.delete(key);
    nanos += System.nanoTime() - started;
  }

  @Override
  public void putAll(List<KeyValueIterator.Entry> batch) {
    long started = System.nanoTime();
    store.putAll(batch);
    long took = System.nanoTime() - started;
    nanos += took;
    writes.calls += batch.size();
    writes.nanos += took;
  }

  @Override
  public KeyValueIterator range(byte[] from, byte[] to) {
    long started = System.nanoTime();
    KeyValueIterator it = store.range(from, to);
    nanos += System.nanoTime() - started;
    return new KeyValueIterator() {
      @Override
      public boolean hasNext() {
        long started = System.nanoTime();
        boolean has = it.hasNext();
        nanos += System.nanoTime() - started;
        return has;
      }

      @Override
      public Entry next() {
        long started = System.nanoTime();
        Entry next = it.next();
        nanos += System.nanoTime() - started;
        return next;
      }

      @Override
      public void close() {
        it.close();
      }
    };
  }
}
