package io.coordinate.engine.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WriteBehindStoreTest {

  /** An in-memory store whose batches wait until the test lets them through, or fail. */
  private static final class GatedStore implements KeyValueStore {
    final InMemoryKeyValueStore map = new InMemoryKeyValueStore();
    final java.util.concurrent.Semaphore gate = new java.util.concurrent.Semaphore(0);
    final AtomicBoolean fail = new AtomicBoolean();
    volatile int batches;

    @Override
    public byte[] get(byte[] key) {
      return map.get(key);
    }

    @Override
    public KeyValueIterator range(byte[] from, byte[] to) {
      return map.range(from, to);
    }

    @Override
    public void put(byte[] key, byte[] value) {
      map.put(key, value);
    }

    @Override
    public void delete(byte[] key) {
      map.delete(key);
    }

    @Override
    public void putAll(List<KeyValueIterator.Entry> writes) {
      gate.acquireUninterruptibly();
      if (fail.get()) {
        throw new IllegalStateException("disk full");
      }
      KeyValueStore.super.putAll(writes);
      batches++;
    }
  }

  private final GatedStore below = new GatedStore();
  private final WriteBehindStore store = new WriteBehindStore(below, "test-writer");

  @AfterEach
  void close() {
    below.gate.release(1000);
    store.close();
  }

  private static byte[] b(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static KeyValueIterator.Entry put(String key, String value) {
    return new KeyValueIterator.Entry(b(key), value == null ? null : b(value));
  }

  private static List<String> scan(KeyValueStore store, String from, String to) {
    List<String> out = new ArrayList<>();
    try (KeyValueIterator it = store.range(b(from), b(to))) {
      while (it.hasNext()) {
        KeyValueIterator.Entry entry = it.next();
        out.add(new String(entry.key(), StandardCharsets.UTF_8) + "=" + new String(entry.value(), StandardCharsets.UTF_8));
      }
    }
    return out;
  }

  @Test
  void aPendingBatchIsReadBeforeTheStoreHasItAndReachesTheStoreInOrder() {
    below.map.put(b("a"), b("0"));
    store.putAll(List.of(put("a", "1"), put("b", "1")));
    store.putAll(List.of(put("a", null), put("c", "2")));

    assertTrue(store.hasPending());
    assertNull(store.get(b("a"))); // deleted by the newest batch
    assertArrayEquals(b("1"), store.get(b("b")));
    assertArrayEquals(b("2"), store.get(b("c")));
    assertArrayEquals(b("0"), below.get(b("a"))); // nothing applied yet
    assertEquals(List.of("b=1", "c=2"), scan(store, "a", "z"));

    below.gate.release(2);
    store.drain();

    assertFalse(store.hasPending());
    assertEquals(2, below.batches);
    assertNull(below.get(b("a")));
    assertEquals(List.of("b=1", "c=2"), scan(below, "a", "z"));
    assertEquals(List.of("b=1", "c=2"), scan(store, "a", "z"));
  }

  @Test
  void aRangeMergesTheStoreWithEveryPendingBatchTheNewestWinning() {
    for (String key : List.of("a", "b", "c", "e")) {
      below.map.put(b(key), b("stored"));
    }
    store.putAll(List.of(put("b", "old"), put("c", null), put("d", "old"), put("x", "outside")));
    store.putAll(List.of(put("a", "new"), put("b", "new"), put("c", "back"), put("0", "outside")));

    assertEquals(List.of("a=new", "b=new", "c=back", "d=old", "e=stored"), scan(store, "a", "f"));
    assertEquals(List.of("b=new", "c=back"), scan(store, "b", "d")); // the bound excludes d
    assertEquals(List.of(), scan(store, "f", "w"));
  }

  @Test
  void unsortedWritesKeepTheLastWriteOfAKey() {
    store.putAll(List.of(put("c", "1"), put("a", "1"), put("c", "2"), put("b", null)));

    assertArrayEquals(b("2"), store.get(b("c")));
    assertEquals(List.of("a=1", "c=2"), scan(store, "a", "z"));
    below.gate.release(1);
    store.drain();
    assertEquals(List.of("a=1", "c=2"), scan(below, "a", "z"));
  }

  @Test
  void aWriterAheadByTheMostPendingBatchesWaitsForTheStore() throws Exception {
    for (int i = 0; i < WriteBehindStore.MAX_PENDING; i++) {
      store.putAll(List.of(put("k" + i, "v")));
    }
    CountDownLatch started = new CountDownLatch(1);
    CompletableFuture<Void> next = CompletableFuture.runAsync(() -> {
      started.countDown();
      store.putAll(List.of(put("last", "v")));
    });
    started.await();
    Thread.sleep(200);
    assertFalse(next.isDone()); // the writer waits for room

    below.gate.release(1);
    next.get(5, TimeUnit.SECONDS);
    below.gate.release(WriteBehindStore.MAX_PENDING);
    store.drain();
    assertEquals(WriteBehindStore.MAX_PENDING + 1, below.batches);
    assertArrayEquals(b("v"), below.get(b("last")));
  }

  @Test
  void aFailedWriteIsThrownToTheWriterAndItsBatchStaysReadable() {
    below.fail.set(true);
    store.putAll(List.of(put("a", "1")));
    below.gate.release(1);

    IllegalStateException failure = assertThrows(IllegalStateException.class, store::drain);
    assertEquals("disk full", failure.getCause().getMessage());
    assertThrows(IllegalStateException.class, () -> store.putAll(List.of(put("b", "1"))));
    assertArrayEquals(b("1"), store.get(b("a")));
    assertNull(below.get(b("a")));
    assertNull(store.get(b("b")));
  }

  @Test
  void closeAppliesWhatIsPendingAndRefusesLaterWrites() {
    store.putAll(List.of(put("a", "1")));
    below.gate.release(1);
    store.close();
    assertArrayEquals(b("1"), below.get(b("a")));

    IllegalStateException refused = assertThrows(IllegalStateException.class, () -> store.put(b("b"), b("1")));
    assertEquals("the store is closed", refused.getMessage());
    store.drain(); // nothing waits: returns at once
  }
}
