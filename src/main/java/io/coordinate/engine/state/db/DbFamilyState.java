package io.coordinate.engine.state.db;

import io.coordinate.engine.state.FamilyState;
import io.coordinate.engine.state.codec.FamilyKeys;
import io.coordinate.engine.state.codec.ValueCodec;
import io.coordinate.engine.state.model.ChildState;
import io.coordinate.engine.state.model.UnitFamily;
import io.coordinate.engine.state.model.UnitRef;
import io.coordinate.engine.state.model.WorkUnitRecord;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/** Job trees: the children and heirs lists with their counts, kept by {@link #unitChanged}. */
final class DbFamilyState implements FamilyState {

    private final DbContext db;

    DbFamilyState(DbContext db) {
        this.db = db;
    }

    @Override
    public List<UnitRef> children(String ns, UnitRef parent, ChildState state, int limit) {
        byte[] prefix = FamilyKeys.children(ns, parent, state);
        return db.collect(prefix, limit, e -> FamilyKeys.childRef(e.key(), prefix, state));
    }

    @Override
    public List<UnitRef> childrenParkedUnder(String ns, UnitRef parent, long attemptSeq) {
        byte[] list = FamilyKeys.children(ns, parent, ChildState.PARKED);
        return db.collect(
                FamilyKeys.childrenParkedUnder(ns, parent, attemptSeq),
                Integer.MAX_VALUE,
                e -> FamilyKeys.childRef(e.key(), list, ChildState.PARKED));
    }

    @Override
    public List<UnitRef> heirs(String ns, UnitRef predecessor, int limit) {
        byte[] prefix = FamilyKeys.heirs(ns, predecessor);
        return db.collect(prefix, limit, e -> FamilyKeys.heirRef(e.key(), prefix));
    }

    @Override
    public long childCount(String ns, UnitRef parent, ChildState state) {
        return ValueCodec.decodeLong(db.store.get(FamilyKeys.familyCount(ns, parent, state.code())));
    }

    @Override
    public long heirCount(String ns, UnitRef predecessor) {
        return ValueCodec.decodeLong(db.store.get(FamilyKeys.familyCount(ns, predecessor, FamilyKeys.HEIRS_KIND)));
    }

    /**
     * Keeps the unit's entry in its parent's children lists and its predecessor's heirs list, with their counts,
     * equal to its {@link UnitFamily}. A count moves only with its entry, so it always equals the number of
     * entries, even when the parent or predecessor was deleted first (its lists went with it).
     */
    void unitChanged(String ns, WorkUnitRecord before, WorkUnitRecord after) {
        UnitFamily old = before == null ? null : before.family();
        UnitFamily now = after == null ? null : after.family();
        if (old == null && now == null) {
            return;
        }
        UnitRef self = UnitRef.of(after != null ? after : before);
        byte[] oldChild = childEntry(ns, old, self);
        byte[] newChild = childEntry(ns, now, self);
        if (!Arrays.equals(oldChild, newChild)) {
            if (oldChild != null) {
                removeEntry(
                        oldChild,
                        FamilyKeys.familyCount(
                                ns, old.parent(), old.childState().code()));
            }
            if (newChild != null) {
                addEntry(
                        newChild,
                        FamilyKeys.familyCount(
                                ns, now.parent(), now.childState().code()));
            }
        }
        UnitRef oldPredecessor = old == null ? null : old.predecessor();
        UnitRef newPredecessor = now == null ? null : now.predecessor();
        if (!Objects.equals(oldPredecessor, newPredecessor)) {
            if (oldPredecessor != null) {
                removeEntry(
                        FamilyKeys.heir(ns, oldPredecessor, self),
                        FamilyKeys.familyCount(ns, oldPredecessor, FamilyKeys.HEIRS_KIND));
            }
            if (newPredecessor != null) {
                addEntry(
                        FamilyKeys.heir(ns, newPredecessor, self),
                        FamilyKeys.familyCount(ns, newPredecessor, FamilyKeys.HEIRS_KIND));
            }
        }
        if (after == null && old != null) {
            FamilyKeys.familyOf(ns, self).forEach(db::deleteRange); // the engine empties them first; this is a net
        }
    }

    private static byte[] childEntry(String ns, UnitFamily family, UnitRef self) {
        if (family == null || family.parent() == null || family.childState() == null) {
            return null;
        }
        long parkedUnder = family.parkedUnder() == null ? 0 : family.parkedUnder();
        return FamilyKeys.child(ns, family.parent(), family.childState(), parkedUnder, self);
    }

    private void addEntry(byte[] entry, byte[] countKey) {
        if (db.store.get(entry) == null) {
            db.writable.put(entry, ValueCodec.EMPTY);
            db.addToCounter(countKey, +1);
        }
    }

    private void removeEntry(byte[] entry, byte[] countKey) {
        if (db.store.get(entry) != null) {
            db.writable.delete(entry);
            db.addToCounter(countKey, -1);
        }
    }
}
