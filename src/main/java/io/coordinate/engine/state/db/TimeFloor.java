package io.coordinate.engine.state.db;

import io.coordinate.engine.state.codec.KeyReader;
import io.coordinate.storage.ReadableKeyValueStore;

/**
 * The floor of one time index (deadlines, delayed units, purges): a time below which the index holds no
 * live entry. The time step scans from the floor and looks one entry past what is due, so it learns when
 * the next entry is due and skips the scan entirely until then. Without this, every command would seek
 * into the index and step over the tombstones that finished attempts leave behind until compaction.
 *
 * <p>Lowering (an insert) applies at once and is always safe. Raising is learned by a scan and applied
 * only when the time step commits, and never above an entry inserted since that scan began.
 */
final class TimeFloor {

    private long floor = Long.MIN_VALUE;
    private long insertedSinceScan = Long.MAX_VALUE;
    private long learned = Long.MIN_VALUE;
    private boolean hasLearned;
    private final java.util.List<byte[]> dueKeys = new java.util.ArrayList<>();

    long floor() {
        return floor;
    }

    /** True when nothing can be due before {@code exclusiveBound}: the scan may be skipped. */
    boolean nothingDueBefore(long exclusiveBound) {
        return floor >= exclusiveBound;
    }

    void inserted(long time) {
        floor = Math.min(floor, time);
        insertedSinceScan = Math.min(insertedSinceScan, time);
    }

    void scanStarted() {
        insertedSinceScan = Long.MAX_VALUE;
        hasLearned = false;
        dueKeys.clear();
    }

    /** A key the scan returned as due: the time step is expected to remove it. */
    void due(byte[] key) {
        dueKeys.add(key);
    }

    /**
     * Before the commit: a due entry the time step left in place (a path that kept it) keeps the floor at
     * its time, so it is seen again.
     */
    void checkDueRemoved(ReadableKeyValueStore store) {
        for (byte[] key : dueKeys) {
            if (store.get(key) != null) {
                learned = Math.min(learned, new KeyReader(key, 1).int64());
            }
        }
        dueKeys.clear();
    }

    /** The scan saw every due entry and then the first entry at {@code next} (MAX_VALUE: none). */
    void learned(long next) {
        learned = next;
        hasLearned = true;
    }

    /** The time step's writes reached the store: every entry it saw as due is gone. */
    void commit() {
        if (hasLearned) {
            floor = Math.max(floor, Math.min(learned, insertedSinceScan));
            hasLearned = false;
        }
    }

    void discard() {
        hasLearned = false;
        dueKeys.clear();
    }
}
