package io.coordinate.engine.state.db;

import io.coordinate.engine.state.codec.AttemptKeys;
import io.coordinate.engine.state.codec.TimeIndexKeys;
import io.coordinate.storage.KeyValueStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The attempt indexes that hold one entry per <em>block</em> of 64 consecutive attempt numbers instead of one
 * per attempt: a worker's attempts ({@code Q}) and active attempts ({@code P}), the deadlines ({@code 04}) and
 * the units holding attempts ({@code X}). A request starts its attempts with consecutive numbers, for one
 * worker, with one expiration, and a worker finishes them together: one entry then stands for up to 64 of them,
 * so a request of 100 attempts writes 2-3 entries per index instead of 100, and a finish of them deletes 2-3.
 * Each of those writes was a sorted insert and a RocksDB insert of its own, most of what a request and a finish
 * cost (docs/performance.md, History).
 *
 * <pre>
 * bitmap entry (P, Q, 04):  int64, bit (seq mod 64) set for each attempt of the block the entry lists
 * units entry (X):          for each attempt of the block held by a unit, ascending:
 *                           byte seq mod 64 (bit 7: a value follows), int32 length, the unit's key,
 *                           [int32 length, the unit's stored value]
 * </pre>
 *
 * An entry with nothing left to list is deleted. Each entry is a function of the attempts of its block (and of its
 * worker or expiration) and of their units' records, so a rebuild derives the same bytes.
 *
 * <p>A units entry also carries the unit's stored value while the unit is pending on that attempt (see
 * {@link DbUnitState#carries}): a {@code finish_attempts} then reads each unit it finishes with the block it
 * reads anyway, not by a RocksDB lookup of its own (a large share of a finish's cost). Pending units are the ones
 * out with workers, so the values held here stay as few as the leases.
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
        WORKER_ATTEMPTS,
        WORKER_ACTIVE,
        DEADLINE
    }

    /** One bitmap entry: the worker (lists) or the expiration (deadlines) and the block. */
    private record BitsKey(Kind kind, String ns, String worker, long expiration, long block) {
        byte[] key() {
            return switch (kind) {
                case WORKER_ATTEMPTS -> AttemptKeys.workerAttemptBlock(ns, worker, block);
                case WORKER_ACTIVE -> AttemptKeys.workerActiveBlock(ns, worker, block);
                case DEADLINE -> TimeIndexKeys.attemptDeadlineBlock(expiration, ns, block);
            };
        }
    }

    private record UnitsKey(String ns, long block) {}

    private static final class Bits {
        long value;
        boolean changed;
    }

    private static final class Units {
        final byte[][] keys = new byte[SIZE][];
        /** Per attempt, the value its unit's entry carries, or null. */
        final byte[][] values = new byte[SIZE][];

        boolean changed;
    }

    /**
     * Entries of one kind read or changed by this command, and the last one looked up: the attempts of one request
     * or finish are consecutive, so most lookups find the same entry as the one before, which skips a key object, its
     * hash and a map lookup.
     */
    private static final class Entries<K, E> {
        final Map<K, E> map = new HashMap<>();
        K lastKey;
        E last;

        void clear() {
            map.clear();
            lastKey = null;
            last = null;
        }

        void removeIf(Predicate<K> dropped) {
            map.keySet().removeIf(dropped);
            lastKey = null;
            last = null;
        }
    }

    private final KeyValueStore store;
    /** Per {@link Kind}. */
    private final List<Entries<BitsKey, Bits>> bits = new ArrayList<>();

    private final Entries<UnitsKey, Units> units = new Entries<>();
    /** Blocks that no entry can list yet: their first attempt was started by this command. */
    private final Set<UnitsKey> newBlocks = new HashSet<>();

    AttemptBlocks(KeyValueStore store) {
        this.store = store;
        for (int i = 0; i < Kind.values().length; i++) {
            bits.add(new Entries<>());
        }
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
        mark(kind, ns, worker, 0, seq, on);
    }

    /** Lists ({@code on}) or unlists the attempt among those expiring at {@code expiration}. */
    void markDeadline(String ns, long expiration, long seq, boolean on) {
        mark(Kind.DEADLINE, ns, null, expiration, seq, on);
    }

    private void mark(Kind kind, String ns, String worker, long expiration, long seq, boolean on) {
        Entries<BitsKey, Bits> entries = bits.get(kind.ordinal());
        long block = block(seq);
        BitsKey last = entries.lastKey;
        Bits entry;
        if (last != null
                && last.block() == block
                && last.expiration() == expiration
                && Objects.equals(last.worker(), worker)
                && last.ns().equals(ns)) {
            entry = entries.last;
        } else {
            BitsKey key = new BitsKey(kind, ns, worker, expiration, block);
            entry = entries.map.get(key);
            if (entry == null) {
                entry = new Bits();
                entry.value = isNew(ns, block) ? 0 : AttemptBlockValues.decodeBits(store.get(key.key()));
                entries.map.put(key, entry);
            }
            entries.lastKey = key;
            entries.last = entry;
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

    /**
     * {@link #unitKey}, if this command has read the attempt's entry already (a finish, say, found the attempt with
     * it), else null: no store read for it.
     */
    byte[] readUnitKey(String ns, long seq) {
        Units entry = read(units, ns, block(seq));
        return entry == null ? null : entry.keys[offset(seq)];
    }

    /** The unit's stored value that the attempt's entry carries, or null. */
    byte[] unitValue(String ns, long seq) {
        return units(ns, block(seq)).values[offset(seq)];
    }

    /** Records that the unit with this key holds the attempt (null: none does any more, nor carries a value). */
    void setUnitKey(String ns, long seq, byte[] unitKey) {
        Units entry = units(ns, block(seq));
        entry.keys[offset(seq)] = unitKey;
        if (unitKey == null) {
            entry.values[offset(seq)] = null;
        }
        entry.changed = true;
    }

    /** The unit's stored value for the attempt's entry to carry (null: none). Written only with the unit's key. */
    void setUnitValue(String ns, long seq, byte[] value) {
        Units entry = units(ns, block(seq));
        if (entry.values[offset(seq)] != value) {
            entry.values[offset(seq)] = value;
            entry.changed = true;
        }
    }

    private Units units(String ns, long block) {
        Units entry = read(units, ns, block);
        if (entry == null) {
            entry = new Units();
            if (!isNew(ns, block)) {
                AttemptBlockValues.decodeUnits(
                        store.get(AttemptKeys.attemptUnitsBlock(ns, block)), entry.keys, entry.values);
            }
            units.map.put(new UnitsKey(ns, block), entry);
        }
        if (entry != units.last) {
            units.lastKey = new UnitsKey(ns, block);
            units.last = entry;
        }
        return entry;
    }

    /** The entry of the block if this command has read it already, else null. */
    private static Units read(Entries<UnitsKey, Units> entries, String ns, long block) {
        UnitsKey last = entries.lastKey;
        if (last != null && last.block() == block && last.ns().equals(ns)) {
            return entries.last;
        }
        return entries.map.get(new UnitsKey(ns, block));
    }

    /** Writes every changed entry and forgets what was read (a rebuild flushes after each chunk of records). */
    void flush() {
        for (Entries<BitsKey, Bits> ofKind : bits) {
            ofKind.map.forEach((key, entry) -> {
                if (entry.changed) {
                    byte[] storeKey = key.key();
                    if (entry.value == 0) {
                        store.delete(storeKey);
                    } else {
                        store.put(storeKey, AttemptBlockValues.encodeBits(entry.value));
                    }
                }
            });
            ofKind.clear();
        }
        units.map.forEach((key, entry) -> writeUnits(AttemptKeys.attemptUnitsBlock(key.ns(), key.block()), entry));
        units.clear();
        newBlocks.clear(); // their entries are in the store now
    }

    private void writeUnits(byte[] storeKey, Units entry) {
        if (entry.changed) {
            byte[] value = AttemptBlockValues.encodeUnits(entry.keys, entry.values);
            if (value == null) {
                store.delete(storeKey);
            } else {
                store.put(storeKey, value);
            }
        }
    }

    /** The namespace's data was deleted by range: what was read or changed of it is gone with it. */
    void forgetNamespace(String ns) {
        bits.forEach(ofKind -> ofKind.removeIf(key -> key.ns().equals(ns)));
        units.removeIf(key -> key.ns().equals(ns));
        newBlocks.removeIf(key -> key.ns().equals(ns));
    }
}
