package io.coordinate.engine.state;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The attempt indexes that hold one entry per <em>block</em> of 64 consecutive attempt numbers instead of one
 * per attempt: a worker's attempts ({@code Q}) and active attempts ({@code P}), the deadlines ({@code 04}) and
 * the units holding attempts ({@code X}). A request starts its attempts with consecutive numbers, for one
 * worker, with one expiration, and a worker finishes them together: one entry then stands for up to 64 of them,
 * so a request of 100 attempts writes 2-3 entries per index instead of 100, and a finish of them deletes 2-3.
 * Each of those writes was a sorted insert and a RocksDB insert of its own, most of what a request and a finish
 * cost (issue 4, docs/performance.md).
 *
 * <pre>
 * bitmap entry (P, Q, 04):  int64, bit (seq mod 64) set for each attempt of the block the entry lists
 * units entry (X):          for each attempt of the block held by a unit, ascending:
 *                           byte seq mod 64, int32 length, the unit's key
 * </pre>
 *
 * An entry with nothing left to list is deleted. Each entry is a function of the attempts of its block (and of its
 * worker or expiration), so a rebuild derives the same bytes.
 *
 * <p>One instance serves one command's {@link CoordinateState}: it reads each entry it changes once, keeps the
 * changes in memory and writes each changed entry once, at {@link #flush()} (before the command commits, or before
 * a read of those indexes).
 */
final class AttemptBlocks {

  static final int SHIFT = 6;
  private static final int SIZE = 1 << SHIFT;

  /** The three bitmap indexes: a worker's attempts and active attempts ({@link #markWorker}), the deadlines. */
  enum Kind {
    WORKER_ATTEMPTS, WORKER_ACTIVE, DEADLINE
  }

  /** One bitmap entry: the worker (lists) or the expiration (deadlines) and the block. */
  private record BitsKey(Kind kind, String ns, String worker, long expiration, long block) {
    byte[] key() {
      return switch (kind) {
        case WORKER_ATTEMPTS -> Keys.workerAttemptBlock(ns, worker, block);
        case WORKER_ACTIVE -> Keys.workerActiveBlock(ns, worker, block);
        case DEADLINE -> Keys.attemptDeadlineBlock(expiration, ns, block);
      };
    }
  }

  private record UnitsKey(String ns, long block) {}

  private static final class Bits {
    long value;
    boolean changed;
  }

  private static final class Units {
    final byte[][] keys;
    boolean changed;

    Units(byte[][] keys) {
      this.keys = keys;
    }
  }

  private final KeyValueStore store;
  private final Map<BitsKey, Bits> bits = new HashMap<>();
  private final Map<UnitsKey, Units> units = new HashMap<>();
  /** Blocks that no entry can list yet: their first attempt was started by this command. */
  private final Set<UnitsKey> newBlocks = new HashSet<>();

  AttemptBlocks(KeyValueStore store) {
    this.store = store;
  }

  static long block(long seq) {
    return seq >>> SHIFT;
  }

  private static int offset(long seq) {
    return (int) (seq & (SIZE - 1));
  }

  // --- a command's changes ---

  /**
   * An attempt is being started. Attempt numbers are handed out in order and never reused, so when it is the first
   * of its block no entry lists any attempt of the block: its entries need not be looked for (for a new key, most
   * often absent from every level, a RocksDB read costs several times a write).
   */
  void starting(String ns, long seq) {
    if (offset(seq) == 0 || seq == 1) {
      newBlocks.add(new UnitsKey(ns, block(seq)));
    }
  }

  private boolean isNew(String ns, long block) {
    return !newBlocks.isEmpty() && newBlocks.contains(new UnitsKey(ns, block));
  }

  /** Lists ({@code on}) or unlists the attempt in its worker's attempts or active attempts. */
  void markWorker(Kind kind, String ns, String worker, long seq, boolean on) {
    mark(new BitsKey(kind, ns, worker, 0, block(seq)), seq, on);
  }

  /** Lists ({@code on}) or unlists the attempt among those expiring at {@code expiration}. */
  void markDeadline(String ns, long expiration, long seq, boolean on) {
    mark(new BitsKey(Kind.DEADLINE, ns, null, expiration, block(seq)), seq, on);
  }

  private void mark(BitsKey key, long seq, boolean on) {
    Bits entry = bits.get(key);
    if (entry == null) {
      entry = new Bits();
      entry.value = isNew(key.ns(), key.block()) ? 0 : decodeBits(store.get(key.key()));
      bits.put(key, entry);
    }
    long mask = 1L << offset(seq);
    long next = on ? entry.value | mask : entry.value & ~mask;
    if (next != entry.value) {
      entry.value = next;
      entry.changed = true;
    }
  }

  /** The key of the unit whose value holds the attempt, or null. */
  byte[] unitKey(String ns, long seq) {
    return units(ns, block(seq)).keys[offset(seq)];
  }

  /** Records that the unit with this key holds the attempt (null: none does any more). */
  void setUnitKey(String ns, long seq, byte[] unitKey) {
    Units entry = units(ns, block(seq));
    entry.keys[offset(seq)] = unitKey;
    entry.changed = true;
  }

  private Units units(String ns, long block) {
    UnitsKey key = new UnitsKey(ns, block);
    Units entry = units.get(key);
    if (entry == null) {
      byte[] stored = isNew(ns, block) ? null : store.get(Keys.attemptUnitsBlock(ns, block));
      entry = new Units(decodeUnits(stored));
      units.put(key, entry);
    }
    return entry;
  }

  /** Writes every changed entry and forgets what was read (a rebuild flushes after each chunk of records). */
  void flush() {
    bits.forEach((key, entry) -> {
      if (entry.changed) {
        byte[] storeKey = key.key();
        if (entry.value == 0) {
          store.delete(storeKey);
        } else {
          store.put(storeKey, encodeBits(entry.value));
        }
      }
    });
    units.forEach((key, entry) -> {
      if (entry.changed) {
        byte[] storeKey = Keys.attemptUnitsBlock(key.ns(), key.block());
        byte[] value = encodeUnits(entry.keys);
        if (value == null) {
          store.delete(storeKey);
        } else {
          store.put(storeKey, value);
        }
      }
    });
    bits.clear();
    units.clear();
    newBlocks.clear(); // their entries are in the store now
  }

  /** The namespace's data was deleted by range: what was read or changed of it is gone with it. */
  void forgetNamespace(String ns) {
    bits.keySet().removeIf(key -> key.ns().equals(ns));
    units.keySet().removeIf(key -> key.ns().equals(ns));
    newBlocks.removeIf(key -> key.ns().equals(ns));
  }

  // --- the entries' values ---

  static long decodeBits(byte[] value) {
    return value == null ? 0 : ByteBuffer.wrap(value).getLong();
  }

  static byte[] encodeBits(long bits) {
    return ByteBuffer.allocate(Long.BYTES).putLong(bits).array();
  }

  /** Adds the attempt numbers a bitmap entry of {@code block} lists to {@code out}, ascending. */
  static void addSeqs(long block, byte[] value, List<Long> out) {
    long bits = decodeBits(value);
    long first = block << SHIFT;
    while (bits != 0) {
      out.add(first + Long.numberOfTrailingZeros(bits));
      bits &= bits - 1;
    }
  }

  /** The unit key a units entry holds for the attempt, or null; reads the value without decoding all of it. */
  static byte[] unitKeyIn(byte[] value, long seq) {
    if (value == null) {
      return null;
    }
    ByteBuffer in = ByteBuffer.wrap(value);
    int wanted = offset(seq);
    while (in.hasRemaining()) {
      int offset = in.get();
      int length = in.getInt();
      if (offset == wanted) {
        byte[] key = new byte[length];
        in.get(key);
        return key;
      }
      if (offset > wanted) {
        return null;
      }
      in.position(in.position() + length);
    }
    return null;
  }

  static byte[][] decodeUnits(byte[] value) {
    byte[][] keys = new byte[SIZE][];
    if (value != null) {
      ByteBuffer in = ByteBuffer.wrap(value);
      while (in.hasRemaining()) {
        int offset = in.get();
        byte[] key = new byte[in.getInt()];
        in.get(key);
        keys[offset] = key;
      }
    }
    return keys;
  }

  /** The units entry's value, or null when it lists nothing. */
  static byte[] encodeUnits(byte[][] keys) {
    int size = 0;
    for (byte[] key : keys) {
      size += key == null ? 0 : 1 + Integer.BYTES + key.length;
    }
    if (size == 0) {
      return null;
    }
    ByteBuffer out = ByteBuffer.allocate(size);
    for (int offset = 0; offset < keys.length; offset++) {
      if (keys[offset] != null) {
        out.put((byte) offset).putInt(keys[offset].length).put(keys[offset]);
      }
    }
    return out.array();
  }

  /** The attempt numbers listed under a prefix of bitmap entries whose keys end in their block. */
  static List<Long> seqsUnder(ReadableKeyValueStore store, byte[] prefix) {
    List<Long> seqs = new ArrayList<>();
    try (KeyValueIterator it = store.prefix(prefix)) {
      while (it.hasNext()) {
        KeyValueIterator.Entry entry = it.next();
        addSeqs(Keys.trailingSeq(entry.key()), entry.value(), seqs);
      }
    }
    return seqs;
  }
}
