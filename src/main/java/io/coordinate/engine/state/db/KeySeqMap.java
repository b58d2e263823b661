package io.coordinate.engine.state.db;

import io.coordinate.storage.ByteKey;
import java.util.Arrays;

/**
 * A map from store keys to attempt numbers in three flat arrays (open addressing, linear probing): the engine's map
 * of started units ({@link StartedUnits}) holds the ~10,000 units out with workers, and every request adds a hundred
 * and every finish removes as many. In a {@code HashMap} each of those was a node, a key object and a boxed number to
 * find or make, scattered over the heap, and committing a command's changes spent most of its time waiting for
 * memory. Here a slot is an int, a reference and a long.
 *
 * <p>Keys are not copied: the owner must not change them. Hashes are {@link ByteKey#hash}. Not thread-safe.
 */
final class KeySeqMap {

  /** What {@link #get} and {@link #remove} answer for a key the map does not have. */
  static final long ABSENT = Long.MIN_VALUE;

  private static final int MIN_CAPACITY = 16;
  /** Slots that {@link #clear} empties in place; a larger table is dropped. */
  private static final int LARGEST_KEPT = 1024;

  private int[] hashes;
  private byte[][] keys;
  private long[] seqs;
  private int size;

  KeySeqMap() {
    allocate(MIN_CAPACITY);
  }

  int size() {
    return size;
  }

  /** The key's attempt, or {@link #ABSENT}. */
  long get(byte[] key, int hash) {
    int slot = slot(key, hash);
    return keys[slot] == null ? ABSENT : seqs[slot];
  }

  void put(byte[] key, int hash, long seq) {
    int slot = slot(key, hash);
    seqs[slot] = seq;
    if (keys[slot] == null) {
      hashes[slot] = hash;
      keys[slot] = key;
      if (++size > keys.length / 2) {
        grow();
      }
    }
  }

  /** Removes the key; returns its attempt, or {@link #ABSENT}. */
  long remove(byte[] key, int hash) {
    int slot = slot(key, hash);
    if (keys[slot] == null) {
      return ABSENT;
    }
    long seq = seqs[slot];
    // Backward-shift deletion: the keys after the hole that could sit in it move up, so that every key stays
    // reachable from its home slot without a tombstone.
    int mask = keys.length - 1;
    int hole = slot;
    for (int next = (hole + 1) & mask; keys[next] != null; next = (next + 1) & mask) {
      int home = hashes[next] & mask;
      // next may move into the hole if its home is not in (hole, next], cyclically
      boolean homeAfterHole = hole <= next ? home > hole && home <= next : home > hole || home <= next;
      if (!homeAfterHole) {
        hashes[hole] = hashes[next];
        keys[hole] = keys[next];
        seqs[hole] = seqs[next];
        hole = next;
      }
    }
    keys[hole] = null;
    size--;
    return seq;
  }

  /** What a {@link #forEach} is told of each entry: its key, the key's hash and its attempt. */
  interface Entry {
    void accept(byte[] key, int hash, long seq);
  }

  /**
   * Every entry, in no particular order. The map may meanwhile be given new attempts for keys it has ({@link #put}),
   * nothing else.
   */
  void forEach(Entry entry) {
    for (int slot = 0; slot < keys.length; slot++) {
      if (keys[slot] != null) {
        entry.accept(keys[slot], hashes[slot], seqs[slot]);
      }
    }
  }

  /** Empties the map; a table grown large for one command is not kept for the next ones. */
  void clear() {
    if (size == 0) {
      return;
    }
    if (keys.length > LARGEST_KEPT) {
      allocate(MIN_CAPACITY);
    } else {
      Arrays.fill(keys, null);
    }
    size = 0;
  }

  /** The key's slot, or the empty slot where it would go (the table is never full: at most half of it is used). */
  private int slot(byte[] key, int hash) {
    int mask = keys.length - 1;
    int slot = hash & mask;
    while (keys[slot] != null && (hashes[slot] != hash || !Arrays.equals(keys[slot], key))) {
      slot = (slot + 1) & mask;
    }
    return slot;
  }

  private void grow() {
    int[] oldHashes = hashes;
    byte[][] oldKeys = keys;
    long[] oldSeqs = seqs;
    allocate(oldKeys.length * 2);
    size = 0;
    for (int slot = 0; slot < oldKeys.length; slot++) {
      if (oldKeys[slot] != null) {
        put(oldKeys[slot], oldHashes[slot], oldSeqs[slot]);
      }
    }
  }

  private void allocate(int capacity) {
    hashes = new int[capacity];
    keys = new byte[capacity][];
    seqs = new long[capacity];
  }
}
