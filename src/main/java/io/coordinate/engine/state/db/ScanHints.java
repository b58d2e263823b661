package io.coordinate.engine.state.db;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Where the scans of the available index may start. A queue on an LSM store leaves deletion tombstones at
 * the front of the index until compaction; a scan from the prefix would skip them all, so its cost would
 * grow with the work done. Each spec's <em>floor</em> is a key below which its available index is known to
 * be empty: scans start there.
 *
 * <p>A floor only ever holds a lower bound: a scan raises it to the first key it found; an insert below it
 * lowers it. Changes made during a command are kept apart and applied only when the command commits, so a
 * rejected command (whose writes are discarded, restoring entries it had removed) cannot leave a floor above
 * a live entry. Floors live in memory only: after a restart the first scan starts from the prefix again.
 */
public final class ScanHints {

    private final Map<String, byte[]> committed = new HashMap<>();
    private final Map<String, byte[]> raised = new HashMap<>();
    private final Map<String, byte[]> lowered = new HashMap<>();

    /** Where to start scanning the available index of a spec: never above a live entry. */
    byte[] availableScanStart(String ns, String spec, byte[] prefix) {
        String id = id(ns, spec);
        byte[] start = committed.getOrDefault(id, prefix);
        byte[] low = lowered.get(id);
        return low != null && Arrays.compareUnsigned(low, start) < 0 ? low : start;
    }

    /** A scan from {@link #availableScanStart} found {@code firstKey} first (or nothing: the prefix end). */
    void scanned(String ns, String spec, byte[] firstKey) {
        raised.put(id(ns, spec), firstKey);
    }

    /** A key was written to the available index. */
    void inserted(String ns, String spec, byte[] key) {
        lowered.merge(id(ns, spec), key, (a, b) -> Arrays.compareUnsigned(a, b) <= 0 ? a : b);
    }

    /** The command's writes reached the store: its floors hold. */
    public void commit() {
        raised.forEach(committed::put);
        // Only a floor that exists is lowered: no floor means the front of the index, below any insert. Made a floor,
        // an insert would hide every entry in front of it that this engine never scanned (all of them, after a
        // restart).
        lowered.forEach((id, low) ->
                committed.computeIfPresent(id, (key, floor) -> Arrays.compareUnsigned(floor, low) <= 0 ? floor : low));
        raised.clear();
        lowered.clear();
    }

    /** The command was rejected: forget what it saw. */
    public void discard() {
        raised.clear();
        lowered.clear();
    }

    // --- the time indexes, consumed from the front by the time step (the kept answers' expiries too) ---

    final TimeFloor deadlines = new TimeFloor();
    final TimeFloor delayed = new TimeFloor();
    final TimeFloor purges = new TimeFloor();
    final TimeFloor answers = new TimeFloor();
    final TimeFloor scheduleFires = new TimeFloor();

    void scheduleFireInserted(long time) {
        scheduleFires.inserted(time);
    }

    void answerInserted(long time) {
        answers.inserted(time);
    }

    void purgeInserted(long time) {
        purges.inserted(time);
    }

    void deadlineInserted(long time) {
        deadlines.inserted(time);
    }

    void delayedInserted(long time) {
        delayed.inserted(time);
    }

    /** A time step committed: the floors it learned hold. */
    public void timeStepCommitted() {
        deadlines.commit();
        delayed.commit();
        purges.commit();
        answers.commit();
        scheduleFires.commit();
    }

    private static String id(String ns, String spec) {
        return ns + '\u0000' + spec;
    }
}
