package io.coordinate.engine.state.db;

import io.coordinate.engine.state.GroupQueue;
import io.coordinate.engine.state.codec.KeySpace;
import io.coordinate.engine.state.codec.UnitKeys;
import io.coordinate.engine.state.codec.ValueCodec;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.storage.KeyValueIterator;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Where a unit's status puts it among the spec's available units: a unit without a group in the available index
 * ({@code 'V'}, as ever), a grouped one in its group's ({@code 'g'}) with its group counted among the ready groups of
 * its priority ({@code 'j'}); a pending grouped unit counts in its group's pending count ({@code 'k'}). Written by
 * {@link DbUnitState}'s one write, so derived again by {@link IndexRebuild}; a unit without a group writes nothing
 * here that it did not before.
 */
final class GroupIndexes {

    private final DbContext db;

    GroupIndexes(DbContext db) {
        this.db = db;
    }

    /**
     * Takes the unit, as it was, out of the entries of its status; {@code availableKey}: its available entry's key as
     * a scan found it, or null.
     */
    void unlist(String ns, WorkUnitRecord before, byte[] availableKey) {
        String spec = before.spec();
        if (before.status() == UnitStatus.AVAILABLE) {
            if (before.group() == null) {
                db.writable.delete(
                        availableKey != null
                                ? availableKey
                                : UnitKeys.available(ns, spec, before.priority(), before.name()));
            } else {
                db.writable.delete(UnitKeys.groupAvailable(ns, spec, before.group(), before.priority(), before.name()));
                db.addToCounter(UnitKeys.readyGroup(ns, spec, before.priority(), before.group()), -1);
            }
        } else if (before.status() == UnitStatus.PENDING && before.group() != null) {
            db.addToCounter(UnitKeys.groupPending(ns, spec, before.group()), -1);
        }
    }

    /** Puts the unit among the entries of its status; {@code value} is its stored value (see {@link DbUnitState}). */
    void list(String ns, WorkUnitRecord after, byte[] value, boolean holdsAttempt) {
        String spec = after.spec();
        if (after.status() == UnitStatus.AVAILABLE) {
            if (after.group() == null) {
                byte[] key = UnitKeys.available(ns, spec, after.priority(), after.name());
                // The entry carries the unit's value, so that a request reads the units it hands out with its index
                // scan (a RocksDB lookup less per unit). Only while the unit holds no attempt: every change of such a
                // value is made by the unit state's write (DbAttemptState changes only values that hold one).
                // Empty: read the unit.
                db.writable.put(key, holdsAttempt ? ValueCodec.EMPTY : value);
                if (db.hints != null) {
                    db.hints.inserted(ns, spec, key);
                }
            } else {
                db.writable.put(
                        UnitKeys.groupAvailable(ns, spec, after.group(), after.priority(), after.name()),
                        ValueCodec.EMPTY);
                db.addToCounter(UnitKeys.readyGroup(ns, spec, after.priority(), after.group()), +1);
            }
        } else if (after.status() == UnitStatus.PENDING && after.group() != null) {
            db.addToCounter(UnitKeys.groupPending(ns, spec, after.group()), +1);
        }
    }

    /** Sets the spec's round-robin cursor: a record, since it decides which unit the next request gets. */
    void moveCursor(String ns, String spec, String group) {
        db.writable.put(UnitKeys.groupCursor(ns, spec), group.getBytes(StandardCharsets.UTF_8));
    }

    /** Deletes the spec's group entries and its cursor, with its units. */
    void deleteAllOf(String ns, String spec) {
        db.deleteRange(UnitKeys.groupsAvailable(ns, spec));
        db.deleteRange(UnitKeys.readyGroups(ns, spec));
        db.deleteRange(UnitKeys.groupsPending(ns, spec));
        db.writable.delete(UnitKeys.groupCursor(ns, spec));
    }

    /** How many of the spec's groups have at least {@code cap} pending units: a scan of the pending groups. */
    private long atCap(String ns, String spec, long cap) {
        long count = 0;
        try (KeyValueIterator it = db.store.prefix(UnitKeys.groupsPending(ns, spec))) {
            while (it.hasNext()) {
                if (ValueCodec.decodeLong(it.next().value()) >= cap) {
                    count++;
                }
            }
        }
        return count;
    }

    GroupQueue queue(String ns, String spec) {
        return new GroupQueue() {
            private final byte[] ready = UnitKeys.readyGroups(ns, spec);

            @Override
            public Double readyPriority(Double below) {
                byte[] from = below == null ? ready : KeySpace.prefixEnd(UnitKeys.readyGroupsAt(ns, spec, below));
                List<Double> first = db.collect(
                        from, KeySpace.prefixEnd(ready), 1, e -> UnitKeys.readyGroupPriority(e.key(), ready));
                return first.isEmpty() ? null : first.get(0);
            }

            @Override
            public List<ReadyGroup> ready(double priority, String after, int limit) {
                byte[] level = UnitKeys.readyGroupsAt(ns, spec, priority);
                byte[] from =
                        after == null ? level : KeySpace.prefixEnd(UnitKeys.readyGroup(ns, spec, priority, after));
                return db.collect(
                        from,
                        KeySpace.prefixEnd(level),
                        limit,
                        e -> new ReadyGroup(
                                priority, UnitKeys.readyGroupName(e.key(), ready), ValueCodec.decodeLong(e.value())));
            }

            @Override
            public List<String> units(String group, double priority, String afterName, int limit) {
                byte[] level = UnitKeys.groupAvailableAt(ns, spec, group, priority);
                byte[] from = afterName == null
                        ? level
                        : DbContext.successor(UnitKeys.groupAvailable(ns, spec, group, priority, afterName));
                return db.collect(
                        from, KeySpace.prefixEnd(level), limit, e -> UnitKeys.groupAvailableUnitName(e.key(), level));
            }

            @Override
            public long pending(String group) {
                return ValueCodec.decodeLong(db.store.get(UnitKeys.groupPending(ns, spec, group)));
            }

            @Override
            public long atCap(long cap) {
                return GroupIndexes.this.atCap(ns, spec, cap);
            }

            @Override
            public String cursor() {
                byte[] value = db.store.get(UnitKeys.groupCursor(ns, spec));
                return value == null ? null : new String(value, StandardCharsets.UTF_8);
            }
        };
    }
}
