package io.coordinate.engine.state.db;

import io.coordinate.engine.state.codec.KeyFamily;
import io.coordinate.engine.state.codec.KeySpace;
import io.coordinate.engine.state.codec.NamespaceKeys;
import io.coordinate.engine.state.codec.SpecKeys;
import io.coordinate.engine.state.codec.UnitKeys;
import io.coordinate.engine.state.codec.UnitValue;
import io.coordinate.engine.state.codec.ValueCodec;
import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.engine.state.model.WorkerRecord;
import io.coordinate.storage.KeyValueIterator;
import io.coordinate.storage.KeyValueStore;
import io.coordinate.storage.ReadableKeyValueStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Keeps the derived indexes ({@link KeyFamily#isIndex}) in step with the records they are computed from. The records'
 * store counts every command's batch of writes in its state version ({@link VersionedStore}); the indexes' store
 * keeps the version its indexes were derived at. When the two differ — the indexes' store was lost (a new
 * machine, a wiped task) or restoring moved the records on without it (a task that came back after another
 * instance worked on it) — the indexes are recomputed from the records with the very write methods that maintain
 * them, so a rebuilt index equals one kept up command by command.
 */
public final class IndexRebuild {

    /**
     * The indexes' layout: 6 since a grouped unit is available in its group's index rather than the available one,
     * with its group's ready and pending counts ({@link GroupIndexes}); 5 since scheduled specs are listed by their
     * next fire time ({@link io.coordinate.engine.state.codec.TimeIndexKeys#scheduleFire}); 4 since a unit's record
     * is its whole value (the started-units entries of layout 3 are
     * folded into the records: {@link StartEntriesMigration}); 3 since available units are also listed by the time they became available
     * ({@link UnitKeys#availableSince}); 2 since the attempt indexes hold one entry per block of attempts
     * ({@link AttemptBlocks}) and a unit's attempt list only the attempts not held by the unit's value; indexes of
     * another layout (1: no layout key, one entry per attempt) are rebuilt.
     */
    public static final long LAYOUT = 6;

    /** Keys handled per pass: a rebuild never holds more than this in memory, whatever the store's size. */
    private static final int CHUNK = 10_000;

    private static final byte[] FIRST_KEY = new byte[0];
    private static final byte[] PAST_LAST_KEY = KeySpace.prefixEnd(new byte[0]);

    private IndexRebuild() {}

    /** The records' state version (0 for a store that never saw a command). */
    public static long stateVersion(ReadableKeyValueStore records) {
        return ValueCodec.decodeLong(records.get(KeySpace.stateVersion()));
    }

    /** Whether the indexes were derived from the records as they are now, in this version's layout. */
    public static boolean inStep(ReadableKeyValueStore records, ReadableKeyValueStore indexes) {
        byte[] indexVersion = indexes.get(KeySpace.indexVersion());
        return indexVersion != null
                && ValueCodec.decodeLong(indexVersion) == stateVersion(records)
                && ValueCodec.decodeLong(indexes.get(KeySpace.indexLayout())) == LAYOUT;
    }

    /**
     * The writes that record a batch applied to both stores as version {@code version}: the records' version and
     * the indexes' (see {@link VersionedStore}), in key order.
     */
    public static List<KeyValueIterator.Entry> versionWrites(long version) {
        byte[] value = ValueCodec.encodeLong(version);
        return List.of(
                new KeyValueIterator.Entry(KeySpace.stateVersion(), value),
                new KeyValueIterator.Entry(KeySpace.indexVersion(), value));
    }

    /**
     * Told after each chunk of records a rebuild derived the indexes of, so the caller can report progress: the
     * engine reads no clock, the caller decides when to log.
     */
    @FunctionalInterface
    public interface Progress {
        Progress NONE = (records, units) -> {};

        /**
         * @param records the records read so far, of every kind
         * @param units the units among them
         */
        void derived(long records, long units);
    }

    /** What a rebuild did. */
    public record Result(long units, long attempts, long workers, long droppedIndexEntries, long migratedEntries) {}

    /**
     * Empties {@code indexes} and derives them again from {@code records}. Index entries found among the records
     * (state written before indexes had a store of their own) are deleted from the records: after the first
     * rebuild the changelog holds records only.
     */
    public static Result rebuild(KeyValueStore records, KeyValueStore indexes) {
        return rebuild(records, indexes, Progress.NONE);
    }

    /** {@link #rebuild(KeyValueStore, KeyValueStore)}, telling {@code progress} after each chunk of records. */
    public static Result rebuild(KeyValueStore records, KeyValueStore indexes, Progress progress) {
        return rebuild(records, indexes, progress, CHUNK);
    }

    static Result rebuild(KeyValueStore records, KeyValueStore indexes, Progress progress, int chunk) {
        if (StartEntriesMigration.fold(records) > 0) {
            // the records changed: should the process stop before they are committed, the indexes written below
            // must not count as in step with the records as they were
            records.put(KeySpace.stateVersion(), ValueCodec.encodeLong(stateVersion(records) + 1));
        }
        long dropped = forEachChunk(indexes, chunk, entries -> entries.forEach(e -> indexes.delete(e.key())));
        Derivation derivation = new Derivation(records, indexes);
        long[] read = {0};
        forEachChunk(records, chunk, entries -> {
            entries.forEach(derivation::accept);
            derivation.derive.flush();
            read[0] += entries.size();
            progress.derived(read[0], derivation.units);
        });
        indexes.put(KeySpace.indexLayout(), ValueCodec.encodeLong(LAYOUT));
        indexes.put(KeySpace.indexVersion(), ValueCodec.encodeLong(stateVersion(records)));
        return new Result(derivation.units, derivation.attempts, derivation.workers, dropped, derivation.migrated);
    }

    /** Derives the index entries of one record after another, counting what it saw. */
    private static final class Derivation {
        private final KeyValueStore records;
        private final DbState derive;
        long units;
        long attempts;
        long workers;
        long migrated;

        private final ReadOnly recordsRead;

        Derivation(KeyValueStore records, KeyValueStore indexes) {
            this.records = records;
            this.recordsRead = new ReadOnly(records);
            this.derive = DbState.over(new SplitStore(recordsRead, indexes));
        }

        void accept(KeyValueIterator.Entry entry) {
            byte[] key = entry.key();
            if (KeyFamily.isIndex(key)) {
                records.delete(key);
                migrated++;
                return;
            }
            KeyFamily family = KeyFamily.of(key);
            if (family == null) {
                return; // a namespace prefix alone: not a key that is ever written
            }
            switch (family) {
                case UNIT -> {
                    String ns = NamespaceKeys.dataNamespace(key);
                    byte[] value = entry.value();
                    recordsRead.current = entry; // the unit's write reads the unit's record: it is this one
                    derive.units.derive(ns, ValueCodec.decode(value, WorkUnitRecord.class));
                    recordsRead.current = null;
                    units++;
                    byte[] held = UnitValue.attempt(value);
                    if (held != null) {
                        attempt(ns, held, false);
                    }
                }
                case ATTEMPT -> attempt(NamespaceKeys.dataNamespace(key), entry.value(), true);
                case SCHEDULE ->
                    derive.specs.deriveSchedule(
                            NamespaceKeys.dataNamespace(key), SpecKeys.scheduleSpec(key), entry.value());
                case ANSWER -> derive.answers.deriveExpiry(key, entry.value());
                case WORKER -> {
                    derive.workers.write(
                            NamespaceKeys.dataNamespace(key),
                            null,
                            ValueCodec.decode(entry.value(), WorkerRecord.class));
                    workers++;
                }
                default -> {
                    // namespaces, sequences, specs, retry slots and the state version have no index
                }
            }
        }

        private void attempt(String ns, byte[] value, boolean ownRecord) {
            derive.attempts.derive(ns, ValueCodec.decode(value, AttemptRecord.class), ownRecord);
            attempts++;
        }
    }

    private interface ChunkAction {
        void accept(List<KeyValueIterator.Entry> entries);
    }

    /** Hands the store's entries over in chunks read with closed iterators, so the action may write the store. */
    private static long forEachChunk(KeyValueStore store, int size, ChunkAction action) {
        long total = 0;
        byte[] from = FIRST_KEY;
        while (true) {
            List<KeyValueIterator.Entry> chunk = new ArrayList<>();
            try (KeyValueIterator it = store.range(from, PAST_LAST_KEY)) {
                while (chunk.size() < size && it.hasNext()) {
                    chunk.add(it.next());
                }
            }
            if (chunk.isEmpty()) {
                return total;
            }
            action.accept(chunk);
            total += chunk.size();
            byte[] last = chunk.get(chunk.size() - 1).key();
            from = Arrays.copyOf(last, last.length + 1); // the smallest key after the last one
        }
    }

    /** The records as the derivation sees them: its writes of the records themselves are the records, dropped. */
    private static final class ReadOnly implements KeyValueStore {
        private final KeyValueStore store;
        /** The record being derived, read already: asked for again, it costs no lookup. */
        KeyValueIterator.Entry current;

        ReadOnly(KeyValueStore store) {
            this.store = store;
        }

        @Override
        public byte[] get(byte[] key) {
            return current != null && Arrays.equals(key, current.key()) ? current.value() : store.get(key);
        }

        @Override
        public KeyValueIterator range(byte[] from, byte[] to) {
            return store.range(from, to);
        }

        @Override
        public void put(byte[] key, byte[] value) {}

        @Override
        public void delete(byte[] key) {}
    }
}
