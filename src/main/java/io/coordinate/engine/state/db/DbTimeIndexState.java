package io.coordinate.engine.state.db;

import io.coordinate.engine.state.MutableTimeIndexState;
import io.coordinate.engine.state.codec.AnswerKeys;
import io.coordinate.engine.state.codec.KeyReader;
import io.coordinate.engine.state.codec.KeySpace;
import io.coordinate.engine.state.codec.KeyWriter;
import io.coordinate.engine.state.codec.TimeIndexKeys;
import io.coordinate.storage.KeyValueIterator;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * The time indexes (keys {@code [tag][time]...}). In the engine each has a {@link TimeFloor}, so that a time step
 * with nothing due reads nothing.
 */
final class DbTimeIndexState implements MutableTimeIndexState {

    private final DbContext db;

    DbTimeIndexState(DbContext db) {
        this.db = db;
    }

    @Override
    public List<TimeIndexKeys.DelayedUnitKey> dueDelayedUnits(long now, int limit) {
        return dueEntries(
                TimeIndexKeys.delayedUnitsStart(),
                db.hints == null ? null : db.hints.delayed,
                now + 1,
                limit,
                (entry, due) -> due.add(TimeIndexKeys.parseDelayedUnit(entry.key())));
    }

    @Override
    public List<TimeIndexKeys.DelayedUnitKey> delayedUnitsFrom(long from, int limit) {
        return db.collect(
                TimeIndexKeys.delayedUnitsBefore(from), // the entries due before `from` end where those from it start
                KeySpace.prefixEnd(TimeIndexKeys.delayedUnitsStart()),
                limit,
                entry -> TimeIndexKeys.parseDelayedUnit(entry.key()));
    }

    /** The index lists attempts by block: a block taken in part is seen again by the next step. */
    @Override
    public List<TimeIndexKeys.AttemptDeadlineKey> dueAttemptDeadlines(long now, int limit) {
        db.flushBlocks();
        return dueEntries(
                TimeIndexKeys.attemptDeadlinesStart(),
                db.hints == null ? null : db.hints.deadlines,
                now,
                limit,
                (entry, due) -> {
                    TimeIndexKeys.AttemptDeadlineBlockKey key = TimeIndexKeys.parseAttemptDeadlineBlock(entry.key());
                    List<Long> seqs = new ArrayList<>();
                    AttemptBlockValues.addSeqs(key.block(), entry.value(), seqs);
                    for (int i = 0; i < seqs.size() && due.size() < limit; i++) {
                        due.add(new TimeIndexKeys.AttemptDeadlineKey(key.expiration(), key.namespace(), seqs.get(i)));
                    }
                });
    }

    @Override
    public List<TimeIndexKeys.PurgeKey> duePurges(long now, int limit) {
        return dueEntries(
                TimeIndexKeys.purgesStart(),
                db.hints == null ? null : db.hints.purges,
                now + 1,
                limit,
                (entry, due) -> due.add(TimeIndexKeys.parsePurge(entry.key())));
    }

    @Override
    public List<TimeIndexKeys.ScheduleFireKey> dueScheduleFires(long now, int limit) {
        return dueEntries(
                TimeIndexKeys.scheduleFiresStart(),
                db.hints == null ? null : db.hints.scheduleFires,
                now + 1,
                limit,
                (entry, due) -> due.add(TimeIndexKeys.parseScheduleFire(entry.key())));
    }

    @Override
    public List<AnswerKeys.AnswerKey> dueAnswers(long now, int limit) {
        return dueEntries(
                AnswerKeys.answerExpiriesStart(),
                db.hints == null ? null : db.hints.answers,
                now + 1,
                limit,
                (entry, due) -> due.add(AnswerKeys.parseAnswerExpiry(entry.key())));
    }

    /**
     * The entries of a time index with time before {@code exclusiveBound}, at most {@code limit}, each entry adding
     * what it lists. With a floor (the engine's), the scan starts there, is skipped when nothing can be due, and
     * looks one entry further to learn when the next one is due.
     */
    private <T> List<T> dueEntries(
            byte[] indexPrefix,
            TimeFloor floor,
            long exclusiveBound,
            int limit,
            BiConsumer<KeyValueIterator.Entry, List<T>> expand) {
        List<T> due = new ArrayList<>();
        if (floor == null) {
            byte[] end =
                    new KeyWriter().tag(indexPrefix[0]).int64(exclusiveBound).toBytes();
            try (KeyValueIterator it = db.store.range(indexPrefix, end)) {
                while (it.hasNext() && due.size() < limit) {
                    expand.accept(it.next(), due);
                }
            }
            return due;
        }
        if (floor.nothingDueBefore(exclusiveBound)) {
            return due;
        }
        floor.scanStarted();
        byte[] start = new KeyWriter().tag(indexPrefix[0]).int64(floor.floor()).toBytes();
        try (KeyValueIterator it = db.store.range(start, KeySpace.prefixEnd(indexPrefix))) {
            while (true) {
                if (!it.hasNext()) {
                    floor.learned(Long.MAX_VALUE);
                    break;
                }
                KeyValueIterator.Entry entry = it.next();
                byte[] key = entry.key();
                long time = new KeyReader(key, 1).int64();
                if (time >= exclusiveBound) {
                    floor.learned(time);
                    break;
                }
                if (due.size() >= limit) {
                    break; // more is due than one step takes: learn nothing, scan again next time
                }
                expand.accept(entry, due);
                floor.due(key);
            }
        }
        return due;
    }

    @Override
    public void dropStaleDelayedEntry(TimeIndexKeys.DelayedUnitKey key) {
        db.writable.delete(TimeIndexKeys.delayedUnit(key.notBefore(), key.namespace(), key.spec(), key.unit()));
    }

    @Override
    public void dropStalePurge(TimeIndexKeys.PurgeKey key) {
        db.writable.delete(TimeIndexKeys.purge(key.purgeAt(), key.namespace(), key.spec(), key.unit()));
    }

    @Override
    public void dropStaleDeadline(TimeIndexKeys.AttemptDeadlineKey key) {
        db.blocks.markDeadline(key.namespace(), key.expiration(), key.attemptSeq(), false);
    }

    @Override
    public void dropStaleScheduleFire(TimeIndexKeys.ScheduleFireKey key) {
        db.writable.delete(TimeIndexKeys.scheduleFire(key.fireTime(), key.namespace(), key.spec()));
    }

    @Override
    public void checkFloors() {
        db.blocks.flush();
        if (db.hints != null) {
            db.hints.deadlines.checkDueRemoved(db.store);
            db.hints.delayed.checkDueRemoved(db.store);
            db.hints.purges.checkDueRemoved(db.store);
            db.hints.answers.checkDueRemoved(db.store);
            db.hints.scheduleFires.checkDueRemoved(db.store);
        }
    }
}
