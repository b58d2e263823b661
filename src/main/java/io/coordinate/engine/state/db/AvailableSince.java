package io.coordinate.engine.state.db;

import io.coordinate.engine.state.codec.KeySpace;
import io.coordinate.engine.state.codec.TimeIndexKeys;
import io.coordinate.engine.state.codec.UnitKeys;
import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.engine.state.model.AttemptStatus;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.storage.KeyValueIterator;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * When units became available ({@link WorkUnitRecord#availableSince}): the time a unit's write gives it, and the
 * spec's oldest waiting unit, read from the counts by that time and the two time indexes the time step has not
 * reached yet.
 */
final class AvailableSince {

    private final DbContext db;
    private final DbState state;

    AvailableSince(DbContext db, DbState state) {
        this.db = db;
        this.state = state;
    }

    /**
     * One seek of the spec's counts by available time (the first is the oldest: a count at zero is deleted), then
     * the units available at {@code now} that are stored otherwise because the time step has not reached them yet: a
     * delayed unit due by now (since its not-before time), a unit whose attempt ran out before now (since the
     * expiration). Those two time indexes hold exactly these, as for
     * {@code StateViews.counts}, and are read from the front only as far as they could hold an older time.
     */
    Long oldest(String ns, String spec, long now) {
        Long oldest = null;
        try (KeyValueIterator it = db.store.range(
                UnitKeys.availableSinceKnown(ns, spec), KeySpace.prefixEnd(UnitKeys.availableSinceUnits(ns, spec)))) {
            if (it.hasNext()) {
                oldest = UnitKeys.availableSinceTime(it.next().key(), ns, spec);
            }
        }
        try (KeyValueIterator it =
                db.store.range(TimeIndexKeys.delayedUnitsStart(), TimeIndexKeys.delayedUnitsBefore(now + 1))) {
            while (it.hasNext()) {
                TimeIndexKeys.DelayedUnitKey due =
                        TimeIndexKeys.parseDelayedUnit(it.next().key());
                if (oldest != null && due.notBefore() >= oldest) {
                    break;
                }
                if (due.namespace().equals(ns) && due.spec().equals(spec)) {
                    WorkUnitRecord unit = state.units.get(ns, spec, due.unit());
                    if (unit != null
                            && unit.status() == UnitStatus.DELAYED
                            && Objects.equals(unit.notBefore(), due.notBefore())) {
                        oldest = due.notBefore(); // the first such entry is the spec's oldest
                        break;
                    }
                }
            }
        }
        db.flushBlocks();
        try (KeyValueIterator it =
                db.store.range(TimeIndexKeys.attemptDeadlinesStart(), TimeIndexKeys.attemptDeadlinesBefore(now))) {
            while (it.hasNext()) {
                KeyValueIterator.Entry entry = it.next();
                TimeIndexKeys.AttemptDeadlineBlockKey key = TimeIndexKeys.parseAttemptDeadlineBlock(entry.key());
                if (oldest != null && key.expiration() >= oldest) {
                    break;
                }
                if (!key.namespace().equals(ns)) {
                    continue;
                }
                List<Long> seqs = new ArrayList<>();
                AttemptBlockValues.addSeqs(key.block(), entry.value(), seqs);
                for (long seq : seqs) {
                    Long since = expiredInto(ns, spec, seq, key.expiration(), now);
                    if (since != null && (oldest == null || since < oldest)) {
                        oldest = since;
                    }
                }
            }
        }
        return oldest;
    }

    /**
     * When the unit of a plain attempt of the spec past its expiration became available, as {@link #becameAvailableAt}
     * will record it; null when the attempt is not the pending, active one of a unit of the spec, or the unit rests
     * delayed now. A replica's unit is left to the time step (its round's rules decide what it becomes).
     */
    private Long expiredInto(String ns, String spec, long seq, long expiration, long now) {
        AttemptRecord attempt = state.attempts.get(ns, seq);
        if (attempt == null
                || attempt.isReplica()
                || !attempt.spec().equals(spec)
                || attempt.status() != AttemptStatus.PENDING
                || attempt.expirationTime() != expiration) {
            return null;
        }
        WorkUnitRecord unit = state.units.get(ns, spec, attempt.unit());
        if (unit == null
                || unit.status() != UnitStatus.PENDING
                || unit.activeAttempt() == null
                || unit.activeAttempt() != seq) {
            return null;
        }
        Long notBefore = unit.notBefore();
        if (notBefore != null && now < notBefore) {
            return null;
        }
        return notBefore != null && notBefore > expiration ? notBefore : expiration;
    }

    /**
     * The unit with its {@code availableSince} as the rule of docs/reference.md ("Unit statuses") has it: kept while
     * the unit stays available (whatever record the caller built), else the time it becomes available, which is the
     * command's or time step's. Two exceptions, so that the time does not depend on when the time step ran: a delayed
     * unit released by the time step counts from its not-before time, and a unit whose attempt ran out from the
     * attempt's expiration. Without a time (a rebuild) the record is as given.
     */
    WorkUnitRecord of(String ns, WorkUnitRecord before, WorkUnitRecord after) {
        if (after.status() != UnitStatus.AVAILABLE || db.now == null) {
            return after;
        }
        Long since = before != null && before.status() == UnitStatus.AVAILABLE
                ? before.availableSince()
                : becameAvailableAt(ns, before, db.now);
        return Objects.equals(since, after.availableSince())
                ? after
                : after.toBuilder().availableSince(since).build();
    }

    private long becameAvailableAt(String ns, WorkUnitRecord before, long now) {
        if (before == null) {
            return now;
        }
        Long notBefore = before.notBefore();
        if (before.status() == UnitStatus.DELAYED && notBefore != null && notBefore <= now) {
            return notBefore;
        }
        if (before.status() == UnitStatus.PENDING && before.activeAttempt() != null) {
            AttemptRecord ended = state.attempts.get(ns, before.activeAttempt());
            if (ended != null && ended.status() == AttemptStatus.EXPIRED && ended.expirationTime() < now) {
                return notBefore != null && notBefore > ended.expirationTime() ? notBefore : ended.expirationTime();
            }
        }
        return now;
    }

    /** Whether the unit stays counted under the same available time: available before and after, since that time. */
    static boolean stays(WorkUnitRecord before, WorkUnitRecord after) {
        return after != null
                && after.status() == UnitStatus.AVAILABLE
                && Objects.equals(before.availableSince(), after.availableSince());
    }
}
