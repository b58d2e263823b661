package io.coordinate.engine.state.db;

import io.coordinate.engine.state.MutableAttemptState;
import io.coordinate.engine.state.codec.AttemptKeys;
import io.coordinate.engine.state.codec.KeySpace;
import io.coordinate.engine.state.codec.UnitKeys;
import io.coordinate.engine.state.codec.UnitValue;
import io.coordinate.engine.state.codec.ValueCodec;
import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.engine.state.model.AttemptStatus;
import io.coordinate.engine.state.model.RetryDecision;
import io.coordinate.engine.state.model.WorkUnitRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Attempts: the latest of a unit is held by the unit's record, older ones in records of their own; the attempt →
 * unit entries, the workers' attempt lists and the deadline index are kept by block of 64 ({@link AttemptBlocks}).
 */
final class DbAttemptState implements MutableAttemptState {

    private final DbContext db;
    private final DbState state;

    DbAttemptState(DbContext db, DbState state) {
        this.db = db;
        this.state = state;
    }

    // --- reads ---

    @Override
    public AttemptRecord get(String ns, long seq) {
        byte[] unitKey = unitKey(ns, seq);
        if (unitKey != null) {
            byte[] stored = db.store.get(unitKey);
            if (UnitValue.attemptSeq(stored) == seq) {
                return ValueCodec.decode(UnitValue.attempt(stored), AttemptRecord.class);
            }
        }
        return ValueCodec.decode(db.store.get(AttemptKeys.attempt(ns, seq)), AttemptRecord.class);
    }

    /**
     * The key of the unit whose record holds the attempt, from the attempt's units entry, or null. In the engine the
     * entry carries the unit's record while the unit is pending on the attempt: the store is told it, so that the
     * reads of the unit that follow (a finish reads it several times) cost no lookup.
     */
    private byte[] unitKey(String ns, long seq) {
        if (db.blocks == null) {
            return AttemptBlockValues.unitKeyIn(
                    db.store.get(AttemptKeys.attemptUnitsBlock(ns, AttemptBlocks.block(seq))), seq);
        }
        byte[] unitKey = db.blocks.unitKey(ns, seq);
        byte[] carried = unitKey == null ? null : db.blocks.unitValue(ns, seq);
        if (carried != null) {
            db.store.known(unitKey, carried);
        }
        return unitKey;
    }

    @Override
    public List<AttemptRecord> ofUnit(String ns, String spec, String unit) {
        // the list names the attempts in records of their own; the latest, held by the unit's value, comes last
        List<AttemptRecord> attempts = attempts(
                ns,
                db.collect(
                        AttemptKeys.unitAttempts(ns, spec, unit),
                        Integer.MAX_VALUE,
                        e -> KeySpace.trailingSeq(e.key())));
        byte[] stored = db.store.get(UnitKeys.unit(ns, spec, unit));
        if (UnitValue.hasAttempt(stored)) {
            long held = UnitValue.attemptSeq(stored);
            if (attempts.isEmpty() || attempts.get(attempts.size() - 1).seq() < held) {
                attempts.add(ValueCodec.decode(UnitValue.attempt(stored), AttemptRecord.class));
            }
        }
        return attempts;
    }

    @Override
    public AttemptRecord latestOfUnit(String ns, String spec, String unit) {
        byte[] stored = db.store.get(UnitKeys.unit(ns, spec, unit));
        if (UnitValue.hasAttempt(stored)) {
            return ValueCodec.decode(UnitValue.attempt(stored), AttemptRecord.class);
        }
        // a unit stored before its value held its latest attempt keeps all of them in records of their own
        List<Long> seqs = db.collect(
                AttemptKeys.unitAttempts(ns, spec, unit), Integer.MAX_VALUE, e -> KeySpace.trailingSeq(e.key()));
        return seqs.isEmpty() ? null : get(ns, seqs.get(seqs.size() - 1));
    }

    @Override
    public List<AttemptRecord> activeOfWorker(String ns, String worker) {
        db.flushBlocks();
        return attempts(ns, AttemptBlockValues.seqsUnder(db.store, AttemptKeys.workerActiveAttempts(ns, worker)));
    }

    @Override
    public List<AttemptRecord> ofWorker(String ns, String worker) {
        db.flushBlocks();
        return attempts(ns, AttemptBlockValues.seqsUnder(db.store, AttemptKeys.workerAttempts(ns, worker)));
    }

    private List<AttemptRecord> attempts(String ns, List<Long> seqs) {
        List<AttemptRecord> attempts = new ArrayList<>();
        for (Long seq : seqs) {
            AttemptRecord attempt = get(ns, seq);
            if (attempt != null) {
                attempts.add(attempt);
            }
        }
        return attempts;
    }

    // --- transitions ---

    @Override
    public long nextSeq(String ns) {
        byte[] key = AttemptKeys.sequence(ns);
        long next = ValueCodec.decodeLong(db.store.get(key)) + 1;
        db.writable.put(key, ValueCodec.encodeLong(next));
        return next;
    }

    @Override
    public void end(String ns, AttemptRecord attempt, AttemptRecord ended) {
        assert ended.status() != AttemptStatus.PENDING : "an ended attempt is not pending";
        db.listener.attemptEnded(ns, write(ns, attempt, ended));
    }

    @Override
    public void end(String ns, AttemptRecord attempt, AttemptRecord ended, RetryDecision decision) {
        assert ended.status() != AttemptStatus.PENDING : "an ended attempt is not pending";
        AttemptRecord written = write(ns, attempt, ended);
        if (decision == null) {
            db.listener.attemptEnded(ns, written);
        } else {
            db.listener.attemptEnded(ns, written, decision);
        }
    }

    @Override
    public void retriesExhausted(String ns, AttemptRecord attempt, RetryDecision decision) {
        db.listener.retriesExhausted(ns, attempt, decision);
    }

    @Override
    public void cancel(String ns, AttemptRecord attempt, AttemptRecord cancelled) {
        assert attempt.status() == AttemptStatus.PENDING && cancelled.status() == AttemptStatus.CANCELLED
                : attempt.status() + " to " + cancelled.status();
        db.listener.attemptEnded(ns, write(ns, attempt, cancelled));
    }

    @Override
    public void renew(String ns, AttemptRecord attempt, AttemptRecord renewed) {
        assert renewed.status() == attempt.status() : "a renewal keeps the status";
        db.listener.attemptRenewed(ns, write(ns, attempt, renewed));
        if (renewed.progress() != attempt.progress()) {
            db.listener.attemptProgressed(ns, renewed); // a renewal without progress keeps the record's
        }
    }

    /** The one write of a stored attempt's change, with its indexes; returns {@code after}. */
    private AttemptRecord write(String ns, AttemptRecord before, AttemptRecord after) {
        writeIndexes(ns, before, after);
        store(ns, after);
        return after;
    }

    @Override
    public AttemptRecord startRequested(
            String ns, WorkUnitRecord before, long seq, String worker, long startTime, long expirationTime) {
        AttemptRecord attempt = AttemptRecord.started(seq, before, worker, startTime, expirationTime);
        start(ns, before, before.startedOn(seq), attempt);
        return attempt;
    }

    /**
     * The attempt's index entries, then the unit's record written once, holding the new attempt (the one it held
     * moves to a record of its own), with the unit's own indexes.
     */
    @Override
    public void start(String ns, WorkUnitRecord before, WorkUnitRecord after, AttemptRecord attempt) {
        byte[] unitKey = state.units.unitKey(ns, before.spec(), before.name());
        db.blocks.starting(ns, attempt.seq());
        writeNewIndexes(ns, attempt, unitKey);
        byte[] stored = db.store.get(unitKey);
        if (UnitValue.hasAttempt(stored)) {
            long held = UnitValue.attemptSeq(stored);
            db.writable.put(AttemptKeys.attempt(ns, held), UnitValue.attempt(stored));
            db.writable.put(AttemptKeys.unitAttempt(ns, before.spec(), before.name(), held), ValueCodec.EMPTY);
        }
        db.listener.attemptStarted(ns, attempt);
        state.units.start(ns, before, after, attempt);
    }

    /**
     * The index entries of a stored attempt, derived again by {@link IndexRebuild}; the records stay as they are.
     * {@code ownRecord}: the attempt is in a record of its own, not held by its unit's value.
     */
    void derive(String ns, AttemptRecord attempt, boolean ownRecord) {
        writeNewIndexes(ns, attempt, UnitKeys.unit(ns, attempt.spec(), attempt.unit()));
        if (ownRecord) {
            db.writable.put(
                    AttemptKeys.unitAttempt(ns, attempt.spec(), attempt.unit(), attempt.seq()), ValueCodec.EMPTY);
        }
    }

    /** A new attempt's index entries: {@link #writeIndexes}, and the attempt → unit entry. */
    private void writeNewIndexes(String ns, AttemptRecord attempt, byte[] unitKey) {
        writeIndexes(ns, null, attempt);
        db.blocks.setUnitKey(ns, attempt.seq(), unitKey);
    }

    /** The worker's attempt lists and the deadline index. */
    private void writeIndexes(String ns, AttemptRecord before, AttemptRecord after) {
        long seq = after.seq();
        String worker = after.worker();
        if (before == null) {
            db.blocks.markWorker(AttemptBlocks.Kind.WORKER_ATTEMPTS, ns, worker, seq, true);
        }
        boolean wasPending = before != null && before.status() == AttemptStatus.PENDING;
        boolean isPending = after.status() == AttemptStatus.PENDING;
        if (wasPending && (!isPending || before.expirationTime() != after.expirationTime())) {
            db.blocks.markDeadline(ns, before.expirationTime(), seq, false);
        }
        if (isPending) {
            db.blocks.markDeadline(ns, after.expirationTime(), seq, true);
            if (db.hints != null) {
                db.hints.deadlineInserted(after.expirationTime());
            }
            db.blocks.markWorker(AttemptBlocks.Kind.WORKER_ACTIVE, ns, worker, seq, true);
        } else if (wasPending) {
            db.blocks.markWorker(AttemptBlocks.Kind.WORKER_ACTIVE, ns, worker, seq, false);
        }
    }

    /**
     * Puts a changed attempt where it lives: in its unit's value if the unit holds it, else in its own record (see
     * {@link UnitValue}). A value that holds an attempt is never in the available index, so no index entry carries
     * what changes here.
     */
    private void store(String ns, AttemptRecord attempt) {
        long seq = attempt.seq();
        // the attempt → unit entry names the unit: its key as is, not built again
        byte[] listed = db.blocks.readUnitKey(ns, seq);
        byte[] unitKey = listed != null ? listed : UnitKeys.unit(ns, attempt.spec(), attempt.unit());
        assert Arrays.equals(unitKey, UnitKeys.unit(ns, attempt.spec(), attempt.unit()))
                : "the entry names another unit";
        state.units.named(ns, attempt.spec(), attempt.unit(), unitKey);
        byte[] stored = db.store.get(unitKey);
        if (UnitValue.attemptSeq(stored) == seq) {
            byte[] value = UnitValue.withAttempt(stored, seq, ValueCodec.encode(attempt));
            db.writable.put(unitKey, value);
            if (db.blocks.unitValue(ns, seq) != null) {
                db.blocks.setUnitValue(
                        ns, seq, value); // the unit is still pending on the attempt: its entry carries it
            }
        } else {
            db.writable.put(AttemptKeys.attempt(ns, seq), ValueCodec.encode(attempt));
        }
    }

    /** Deletes a unit's attempts with every index entry of them (the unit is going). */
    void deleteOfUnit(String ns, WorkUnitRecord unit) {
        for (AttemptRecord attempt : ofUnit(ns, unit.spec(), unit.name())) {
            long seq = attempt.seq();
            db.writable.delete(AttemptKeys.attempt(ns, seq));
            db.blocks.setUnitKey(ns, seq, null);
            db.blocks.markWorker(AttemptBlocks.Kind.WORKER_ATTEMPTS, ns, attempt.worker(), seq, false);
            db.blocks.markWorker(AttemptBlocks.Kind.WORKER_ACTIVE, ns, attempt.worker(), seq, false);
            if (attempt.status() == AttemptStatus.PENDING) {
                db.blocks.markDeadline(ns, attempt.expirationTime(), seq, false);
            }
        }
        db.deleteRange(AttemptKeys.unitAttempts(ns, unit.spec(), unit.name()));
    }
}
