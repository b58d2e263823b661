package io.coordinate.engine.state.db;

import io.coordinate.engine.state.GroupQueue;
import io.coordinate.engine.state.MutableUnitState;
import io.coordinate.engine.state.codec.KeySpace;
import io.coordinate.engine.state.codec.TimeIndexKeys;
import io.coordinate.engine.state.codec.UnitKeys;
import io.coordinate.engine.state.codec.UnitValue;
import io.coordinate.engine.state.codec.ValueCodec;
import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.storage.KeyValueIterator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * Work units: their records, the available (by priority and by time), delayed and purge indexes, and the counts by
 * status. A unit's record ({@link UnitValue}: the unit with its latest attempt) is its current value after every
 * command; the available index entry and, while the unit is pending on an attempt, that attempt's units entry
 * ({@link AttemptBlocks}) carry copies, derived again by {@link IndexRebuild}. Only this class and
 * {@link DbAttemptState} write unit records.
 */
final class DbUnitState implements MutableUnitState {

    private final DbContext db;
    private final DbState state;
    private final UnitCounts counts;
    private final AvailableSince availableSince;
    private final GroupIndexes groups;
    /** The keys of the units this command found in an index: those a request hands out, or a finish finishes. */
    private final UnitKeysFound found = new UnitKeysFound();

    DbUnitState(DbContext db, DbState state) {
        this.db = db;
        this.state = state;
        this.counts = new UnitCounts(db);
        this.availableSince = new AvailableSince(db, state);
        this.groups = new GroupIndexes(db);
    }

    // --- reads ---

    @Override
    public WorkUnitRecord get(String ns, String spec, String name) {
        return ValueCodec.decode(db.store.get(unitKey(ns, spec, name)), WorkUnitRecord.class);
    }

    @Override
    public List<WorkUnitRecord> list(String ns, String spec, String afterName, int limit) {
        byte[] prefix = UnitKeys.units(ns, spec);
        byte[] from = afterName == null ? prefix : DbContext.successor(UnitKeys.unit(ns, spec, afterName));
        return db.collect(
                from, KeySpace.prefixEnd(prefix), limit, e -> ValueCodec.decode(e.value(), WorkUnitRecord.class));
    }

    @Override
    public Map<UnitStatus, Long> counts(String ns, String spec) {
        return counts.of(ns, spec);
    }

    @Override
    public long count(String ns, String spec, UnitStatus status) {
        return counts.of(ns, spec, status);
    }

    /** See {@link AvailableSince#oldest}. */
    @Override
    public Long oldestAvailableSince(String ns, String spec, long now) {
        if (db.writable != null) {
            counts.flush(); // this command's moves, summed in memory so far
        }
        return availableSince.oldest(ns, spec, now);
    }

    @Override
    public void prefetch(String ns, String spec, List<String> names) {
        List<byte[]> keys = new ArrayList<>(names.size());
        for (String name : names) {
            keys.add(UnitKeys.unit(ns, spec, name));
        }
        if (keys.size() < 2) {
            return;
        }
        db.prefetch(keys);
    }

    @Override
    public List<String> bestAvailable(String ns, String spec, int limit) {
        return bestAvailable(ns, spec, limit, 0, name -> true);
    }

    @Override
    public List<String> bestAvailable(String ns, String spec, int limit, int maxSkipped, Predicate<String> accept) {
        byte[] prefix = UnitKeys.availableUnits(ns, spec);
        byte[] end = KeySpace.prefixEnd(prefix);
        List<String> names = new ArrayList<>();
        byte[] first = end;
        long budget = (long) limit + maxSkipped;
        byte[] start = db.hints == null ? prefix : db.hints.availableScanStart(ns, spec, prefix);
        try (KeyValueIterator it = db.store.range(start, end)) {
            while (it.hasNext() && names.size() < limit && budget-- > 0) {
                KeyValueIterator.Entry entry = it.next();
                if (first == end) {
                    first = entry.key();
                }
                String name = availableUnit(ns, spec, entry);
                if (accept.test(name)) {
                    names.add(name);
                }
            }
        }
        if (db.hints != null) {
            db.hints.scanned(ns, spec, first);
        }
        return names;
    }

    /**
     * The unit of an available-index entry. The entry carries the unit's stored value when the unit holds no attempt
     * (see {@link #writeIndexes}): the store is told, so that reading the unit costs no lookup.
     */
    private String availableUnit(String ns, String spec, KeyValueIterator.Entry entry) {
        String name = UnitKeys.availableUnitName(entry.key(), ns, spec);
        byte[] unitKey = UnitKeys.unit(ns, spec, name);
        if (entry.value().length > 0) {
            db.store.known(unitKey, entry.value());
        }
        found.listed(ns, spec, name, unitKey, entry.key());
        return name;
    }

    /** A unit's key: the one found in an index if this command found it (see {@link UnitKeysFound}), else built. */
    byte[] unitKey(String ns, String spec, String name) {
        UnitKeysFound.Keys keys = found.get(ns, spec, name);
        return keys != null ? keys.unit() : UnitKeys.unit(ns, spec, name);
    }

    @Override
    public GroupQueue groups(String ns, String spec) {
        return groups.queue(ns, spec);
    }

    // --- transitions ---

    @Override
    public void add(String ns, WorkUnitRecord unit) {
        db.listener.unitAdded(ns, write(ns, null, unit, null));
    }

    @Override
    public void replace(String ns, WorkUnitRecord before, WorkUnitRecord after) {
        if (before.status() != after.status()) {
            moved(ns, before, after, null);
        } else {
            update(ns, before, after);
        }
    }

    @Override
    public void update(String ns, WorkUnitRecord before, WorkUnitRecord after) {
        assert before.status() == after.status() : "an update keeps the status";
        db.listener.unitUpdated(ns, write(ns, before, after, null));
    }

    @Override
    public void finish(String ns, WorkUnitRecord before, WorkUnitRecord after) {
        assert after.status() == UnitStatus.FINISHED || after.status() == UnitStatus.WAITING : after.status();
        moved(ns, before, after, null);
    }

    @Override
    public void fail(String ns, WorkUnitRecord before, WorkUnitRecord after) {
        assert after.status() == UnitStatus.FAILED : after.status();
        moved(ns, before, after, null);
    }

    @Override
    public void cancel(String ns, WorkUnitRecord before, WorkUnitRecord after) {
        assert after.status() == UnitStatus.CANCELLED : after.status();
        moved(ns, before, after, null);
    }

    @Override
    public void release(String ns, WorkUnitRecord before, WorkUnitRecord after) {
        assert after.status() == UnitStatus.AVAILABLE
                        || after.status() == UnitStatus.DELAYED
                        || after.status() == UnitStatus.BLOCKED
                : after.status();
        moved(ns, before, after, null);
    }

    @Override
    public void reset(String ns, WorkUnitRecord before, WorkUnitRecord after) {
        moved(ns, before, after, null);
    }

    @Override
    public void relink(String ns, WorkUnitRecord before, WorkUnitRecord after) {
        assert before.status() == after.status() : "a move in a job tree keeps the status";
        write(ns, before, after, null);
    }

    @Override
    public void changeRound(String ns, WorkUnitRecord before, WorkUnitRecord after, List<ReplicaChange> changed) {
        WorkUnitRecord written = moved(ns, before, after, null);
        for (ReplicaChange change : changed) {
            db.listener.replicaUpdated(ns, written, change.replica(), change.validated());
        }
    }

    @Override
    public void assimilate(String ns, WorkUnitRecord before, WorkUnitRecord after) {
        db.listener.unitAssimilated(ns, write(ns, before, after, null));
    }

    @Override
    public void delete(String ns, WorkUnitRecord unit) {
        write(ns, Objects.requireNonNull(unit), null, null);
        db.listener.unitDeleted(ns, unit);
    }

    /**
     * An attempt's start at the unit: {@code attempt} is the attempt for the unit's record to hold from now on (the
     * one it held went to a record of its own, {@link DbAttemptState#start}).
     */
    void start(String ns, WorkUnitRecord before, WorkUnitRecord after, AttemptRecord attempt) {
        moved(ns, before, after, attempt);
    }

    /** The unit's key, as an attempt's entry names it: the unit is about to be read. */
    void named(String ns, String spec, String name, byte[] unitKey) {
        found.named(ns, spec, name, unitKey);
    }

    /** A stored unit's indexes, derived again by {@link IndexRebuild}: no event. */
    void derive(String ns, WorkUnitRecord unit) {
        write(ns, null, unit, null);
    }

    /** Writes the unit; its event is {@code unit_status_changed} if its status moved, else none. */
    private WorkUnitRecord moved(String ns, WorkUnitRecord before, WorkUnitRecord after, AttemptRecord attempt) {
        WorkUnitRecord written = write(ns, before, after, attempt);
        if (before.status() != after.status()) {
            db.listener.unitStatusChanged(ns, before.status(), written);
        }
        return written;
    }

    /** The one write of a unit's record (null: deleted) with its indexes, counts and tree entries; no event. */
    private WorkUnitRecord write(String ns, WorkUnitRecord before, WorkUnitRecord after, AttemptRecord attempt) {
        if (after != null) {
            after = availableSince.of(ns, before, after);
        }
        WorkUnitRecord any = after != null ? after : before;
        String spec = any.spec();
        String name = any.name();
        UnitKeysFound.Keys keys = found.take(ns, spec, name);
        if (before != null) {
            groups.unlist(ns, before, keys == null ? null : keys.available());
            if (before.status() == UnitStatus.AVAILABLE) {
                if (!AvailableSince.stays(before, after)) {
                    counts.moveSince(ns, spec, before.availableSince(), -1);
                }
            }
            if (before.status() == UnitStatus.DELAYED) {
                db.writable.delete(TimeIndexKeys.delayedUnit(before.notBefore(), ns, spec, name));
            }
            if (before.purgeAt() != null && before.status().isFinal()) { // only a settled unit's purge time counts
                db.writable.delete(TimeIndexKeys.purge(before.purgeAt(), ns, spec, name));
            }
            counts.move(ns, spec, before.status(), -1);
        }
        byte[] unitKey = keys != null ? keys.unit() : UnitKeys.unit(ns, spec, name);
        if (after != null) {
            byte[] value;
            if (attempt != null) {
                value = UnitValue.of(ValueCodec.encode(after), attempt.seq(), ValueCodec.encode(attempt));
            } else {
                // keep the attempt the unit holds (a new unit, or one a rebuild derives: read already, to add it)
                byte[] stored = db.store.get(unitKey);
                value = UnitValue.withUnit(stored, ValueCodec.encode(after));
            }
            db.writable.put(unitKey, value);
            if (UnitValue.hasAttempt(value)) {
                keepCarried(ns, before, after, UnitValue.attemptSeq(value), value);
            }
            writeIndexes(ns, before, after, value);
            counts.move(ns, spec, after.status(), +1);
        } else {
            state.attempts.deleteOfUnit(ns, before);
            db.writable.delete(unitKey);
        }
        state.family.unitChanged(ns, before, after);
        return after;
    }

    /** The entries of the unit's status in the available (or its group's), available-since, delayed and purge indexes. */
    private void writeIndexes(String ns, WorkUnitRecord before, WorkUnitRecord after, byte[] value) {
        String spec = after.spec();
        String name = after.name();
        if (after.status() == UnitStatus.AVAILABLE) {
            if (before == null || before.status() != UnitStatus.AVAILABLE || !AvailableSince.stays(before, after)) {
                counts.moveSince(ns, spec, after.availableSince(), +1);
            }
        }
        groups.list(ns, after, value, UnitValue.hasAttempt(value));
        if (after.status() == UnitStatus.DELAYED) {
            long notBefore = Objects.requireNonNull(after.notBefore(), "delayed needs notBefore");
            db.writable.put(TimeIndexKeys.delayedUnit(notBefore, ns, spec, name), ValueCodec.EMPTY);
            if (db.hints != null) {
                db.hints.delayedInserted(notBefore);
            }
        }
        if (after.purgeAt() != null && after.status().isFinal()) {
            db.writable.put(TimeIndexKeys.purge(after.purgeAt(), ns, spec, name), ValueCodec.EMPTY);
            if (db.hints != null) {
                db.hints.purgeInserted(after.purgeAt());
            }
        }
    }

    /**
     * Whether the units entry of attempt {@code seq} carries its unit's stored value: while the unit is pending on
     * that attempt, so that the attempt's finish, failure or renewal reads it with the entry.
     */
    static boolean carries(WorkUnitRecord unit, long seq) {
        return unit != null
                && unit.status() == UnitStatus.PENDING
                && unit.activeAttempt() != null
                && unit.activeAttempt() == seq;
    }

    /**
     * Keeps the units entries carrying the unit's stored value exactly while it is pending on the attempt that value
     * holds: the entry of the attempt held now carries the new value (or none), and the entry of an attempt the value
     * no longer holds (a start moved it to a record of its own) carries none.
     */
    private void keepCarried(String ns, WorkUnitRecord before, WorkUnitRecord after, long held, byte[] value) {
        // before is the unit as stored: an entry carries a value only if that record says so (a new unit, and each
        // unit a rebuild derives, had none)
        Long previous = before == null ? null : before.activeAttempt();
        if (previous != null && previous != held && carries(before, previous)) {
            db.blocks.setUnitValue(ns, previous, null);
        }
        boolean carried = carries(after, held);
        if (carried || carries(before, held)) {
            db.blocks.setUnitValue(ns, held, carried ? value : null);
        }
    }

    /** Deletes every unit of a spec with its index entries and counts (their attempts went first). */
    void deleteAllOf(String ns, String spec) {
        db.deleteRange(UnitKeys.units(ns, spec));
        db.deleteRange(UnitKeys.availableUnits(ns, spec));
        db.deleteRange(UnitKeys.availableSinceUnits(ns, spec));
        db.deleteRange(UnitKeys.counts(ns, spec));
        groups.deleteAllOf(ns, spec);
        counts.forget(ns, spec);
    }

    @Override
    public void moveGroupCursor(String ns, String spec, String group) {
        groups.moveCursor(ns, spec, group);
    }

    /** Writes the counts' moves of this command (see {@link UnitCounts}). */
    void flushCounts() {
        counts.flush();
    }

    /** Drops the counts' moves of a spec ({@code spec == null}: of every spec of the namespace) that went. */
    void forgetCounts(String ns, String spec) {
        counts.forget(ns, spec);
    }
}
