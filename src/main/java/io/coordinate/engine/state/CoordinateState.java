package io.coordinate.engine.state;

import io.coordinate.engine.state.store.KeyValueIterator;
import io.coordinate.engine.state.store.KeyValueStore;
import io.coordinate.engine.state.codec.Keys;
import io.coordinate.engine.state.codec.UnitValue;
import io.coordinate.engine.state.codec.ValueCodec;
import io.coordinate.engine.state.model.Answer;
import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.engine.state.model.AttemptStatus;
import io.coordinate.engine.state.model.NamespaceRecord;
import io.coordinate.engine.state.model.UnitFamily;
import io.coordinate.engine.state.model.UnitRef;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.engine.state.model.WorkSpecRecord;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.engine.state.model.WorkerRecord;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The state with its transition methods. Each write method keeps every index and counter of {@link Keys}
 * right for the change from {@code before} to {@code after}, and tells the {@link StateListener}; nothing
 * else writes to the store. Entries of the three time indexes that outlive their unit or attempt (after a
 * delete) are left to be dropped by the engine's time step, which re-checks every entry before acting.
 */
public final class CoordinateState extends StateReader {

  private final KeyValueStore writable;
  private StateListener listener = StateListener.NONE;
  private static final UnitStatus[] STATUSES = UnitStatus.values();
  /** The unit counts' moves not written yet, per spec and status (see {@link #addToCount}). */
  private final Map<SpecKey, long[]> countDeltas = new LinkedHashMap<>();
  /** The spec whose counts moved last and its moves: a batch command moves one spec's counts hundreds of times. */
  private SpecKey lastCounted;
  private long[] lastCountDeltas;
  /** The attempt indexes kept by block: changed in memory, written by {@link #flush}. */
  private final AttemptBlocks blocks;
  private final DecodedSpecs decodedSpecs;
  private final StartedUnits started;

  public CoordinateState(KeyValueStore store) {
    this(store, null);
  }

  public CoordinateState(KeyValueStore store, ScanHints hints) {
    this(store, hints, null);
  }

  public CoordinateState(KeyValueStore store, ScanHints hints, DecodedSpecs decodedSpecs) {
    this(store, hints, decodedSpecs, StartedUnits.load(store));
  }

  /**
   * @param decodedSpecs specs decoded by earlier commands (the engine's), or null
   * @param started the units whose values are in started-units entries, as the store has them (the engine's)
   */
  public CoordinateState(KeyValueStore store, ScanHints hints, DecodedSpecs decodedSpecs, StartedUnits started) {
    super(store, hints);
    this.writable = store;
    this.blocks = new AttemptBlocks(store);
    this.decodedSpecs = decodedSpecs;
    this.started = started;
  }

  public void setListener(StateListener listener) {
    this.listener = Objects.requireNonNull(listener);
  }

  // --- namespaces ---

  public void ensureNamespace(String ns, long now) {
    byte[] key = Keys.namespace(ns);
    if (store.get(key) == null) {
      writable.put(key, ValueCodec.encode(new NamespaceRecord(ns, now)));
    }
  }

  /** The next attempt number of the namespace; numbers are never reused, not even after a destroy. */
  public long nextAttemptSeq(String ns) {
    byte[] key = Keys.sequence(ns);
    long next = ValueCodec.decodeLong(store.get(key)) + 1;
    writable.put(key, ValueCodec.encodeLong(next));
    return next;
  }

  /** Removes every record of the namespace (but its attempt sequence). */
  public void destroyNamespace(String ns) {
    specsChanged();
    // the deadline index lies outside the namespace's range: its pending attempts leave it first
    for (WorkerRecord worker : workers(ns)) {
      for (AttemptRecord attempt : workerActiveAttempts(ns, worker.name())) {
        blocks.markDeadline(ns, attempt.expirationTime(), attempt.seq(), false);
      }
    }
    blocks.flush();
    deleteRange(Keys.namespaceData(ns));
    blocks.forgetNamespace(ns);
    started.removeAll(Keys.namespaceData(ns));
    countDeltas.keySet().removeIf(count -> count.ns().equals(ns));
    lastCounted = null;
    writable.delete(Keys.namespace(ns));
    listener.namespaceDestroyed(ns);
  }

  // --- work specs ---

  public void writeSpec(String ns, WorkSpecRecord before, WorkSpecRecord after) {
    specsChanged();
    writable.put(Keys.spec(ns, after.name()), ValueCodec.encode(after));
    listener.specChanged(ns, before, after);
  }

  /** Deletes a spec with all its units, their attempts and every index entry of them. */
  public void deleteSpec(String ns, WorkSpecRecord spec) {
    specsChanged();
    for (WorkUnitRecord unit : units(ns, spec.name(), null, Integer.MAX_VALUE)) {
      deleteUnitAttempts(ns, unit);
    }
    String name = spec.name();
    deleteRange(Keys.units(ns, name));
    started.removeAll(Keys.units(ns, name));
    deleteRange(Keys.availableUnits(ns, name));
    deleteRange(Keys.counts(ns, name));
    countDeltas.remove(new SpecKey(ns, name));
    lastCounted = null;
    writable.delete(Keys.spec(ns, name));
    listener.specChanged(ns, spec, null);
  }

  // --- work units ---

  /** Creates ({@code before == null}), changes or deletes ({@code after == null}) a unit and its indexes. */
  public void writeUnit(String ns, WorkUnitRecord before, WorkUnitRecord after) {
    writeUnit(ns, before, after, null, false);
  }

  /**
   * {@link #writeUnit}; {@code attempt}, if given, is a new attempt for the unit's value to hold from now on, and
   * {@code requestStart} says it is a request's start ({@link #startRequestedAttempt}), which the attempt's
   * started-units entry can hold.
   */
  private void writeUnit(
      String ns, WorkUnitRecord before, WorkUnitRecord after, AttemptRecord attempt, boolean requestStart) {
    WorkUnitRecord any = after != null ? after : before;
    String spec = any.spec();
    String name = any.name();
    if (before != null) {
      if (before.status() == UnitStatus.AVAILABLE) {
        writable.delete(Keys.available(ns, spec, before.priority(), name));
      }
      if (before.status() == UnitStatus.DELAYED) {
        writable.delete(Keys.delayedUnit(before.notBefore(), ns, spec, name));
      }
      if (purges(before)) {
        writable.delete(Keys.purge(before.purgeAt(), ns, spec, name));
      }
      addToCount(ns, spec, before.status(), -1);
    }
    byte[] unitKey = Keys.unit(ns, spec, name);
    if (after != null) {
      byte[] value;
      if (attempt != null) {
        value = UnitValue.of(ValueCodec.encode(after), attempt.seq(), ValueCodec.encode(attempt));
        if (requestStart && started.get(unitKey) == null && started.hasRoom()) {
          assert carries(after, attempt.seq()) && StartedUnits.derivable(before, after, attempt)
              : "a request's start that its entry cannot rebuild";
          keepStarted(ns, unitKey, attempt);
        } else {
          putUnitValue(ns, unitKey, value, true); // a replica's start, say: its unit is not pending on it alone
        }
      } else {
        // keep the attempt the unit holds (a new unit, or one a rebuild derives: read already, to add it)
        byte[] stored = before == null ? store.get(unitKey) : unitValue(ns, unitKey);
        value = UnitValue.of(ValueCodec.encode(after), UnitValue.attemptSeq(stored), UnitValue.attempt(stored));
        putUnitValue(ns, unitKey, value, before != null);
      }
      if (UnitValue.hasAttempt(value)) {
        keepCarried(ns, before, after, UnitValue.attemptSeq(value), value);
      }
      if (after.status() == UnitStatus.AVAILABLE) {
        byte[] key = Keys.available(ns, spec, after.priority(), name);
        // The entry carries the unit's value, so that a request reads the units it hands out with its index scan
        // (a RocksDB lookup less per unit). Only while the unit holds no attempt: every change of such a value is
        // made here (storeAttempt changes only values that hold one). Empty: read the unit.
        writable.put(key, UnitValue.hasAttempt(value) ? ValueCodec.EMPTY : value);
        if (hints != null) {
          hints.inserted(ns, spec, key);
        }
      }
      if (after.status() == UnitStatus.DELAYED) {
        long notBefore = Objects.requireNonNull(after.notBefore(), "delayed needs notBefore");
        writable.put(Keys.delayedUnit(notBefore, ns, spec, name), ValueCodec.EMPTY);
        if (hints != null) {
          hints.delayedInserted(notBefore);
        }
      }
      if (purges(after)) {
        writable.put(Keys.purge(after.purgeAt(), ns, spec, name), ValueCodec.EMPTY);
        if (hints != null) {
          hints.purgeInserted(after.purgeAt());
        }
      }
      addToCount(ns, spec, after.status(), +1);
    } else {
      deleteUnitAttempts(ns, before);
      dropStarted(ns, unitKey);
      writable.delete(unitKey);
    }
    if ((before != null && before.family() != null) || (after != null && after.family() != null)) {
      writeFamilyEntries(ns, before, after);
    }
    listener.unitChanged(ns, before, after);
  }

  /**
   * A request's start leaves the unit's record as it is: what the start added (the attempt's worker and times) goes
   * to the started-units entry of its attempt's block ({@link Keys#startedUnitsBlock}, a record written once per
   * block and command), and the engine's {@link StartedUnits} knows the unit is there. A unit's life (add, request,
   * finish) then writes its record twice instead of three times: a RocksDB write and a changelog record less per
   * unit. The units entry carries the whole value as for any pending unit ({@link #keepCarried}), so the finish reads
   * it as before. The next write of the unit writes its record ({@link #putUnitValue}).
   */
  private void keepStarted(String ns, byte[] unitKey, AttemptRecord attempt) {
    started.put(unitKey, attempt.seq());
    blocks.setStarted(ns, attempt.seq(), unitKey, StartedUnits.delta(attempt));
  }

  /**
   * Writes the unit's record; what a started-units entry held for it is in the value written, and goes.
   * {@code mayBeStarted}: false for a unit that has no record yet (or one a rebuild derives), which nothing started.
   */
  private boolean putUnitValue(String ns, byte[] unitKey, byte[] value, boolean mayBeStarted) {
    writable.put(unitKey, value);
    return mayBeStarted && dropStarted(ns, unitKey);
  }

  /** Whether the unit was started (and its started-units entry held what its record lacked; no more). */
  private boolean dropStarted(String ns, byte[] unitKey) {
    Long seq = started.remove(unitKey);
    if (seq == null) {
      return false;
    }
    blocks.setStarted(ns, seq, null, null);
    return true;
  }

  /**
   * Whether the units entry of attempt {@code seq} carries its unit's stored value (see {@link AttemptBlocks}): while
   * the unit is pending on that attempt, so that the attempt's finish, failure or renewal reads it with the entry.
   */
  static boolean carries(WorkUnitRecord unit, long seq) {
    return unit != null && unit.status() == UnitStatus.PENDING && unit.activeAttempt() != null
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
      blocks.setUnitValue(ns, previous, null);
    }
    boolean carried = carries(after, held);
    if (carried || carries(before, held)) {
      blocks.setUnitValue(ns, held, carried ? value : null);
    }
  }

  /** A purge time only counts for a finished or failed unit: any other status keeps it out of the index. */
  private static boolean purges(WorkUnitRecord unit) {
    return unit.purgeAt() != null && (unit.status() == UnitStatus.FINISHED || unit.status() == UnitStatus.FAILED);
  }

  /**
   * Keeps the unit's entry in its parent's children lists and its predecessor's heirs list, with their counts,
   * equal to its {@link UnitFamily}. A count moves only with its entry, so it always equals the number of
   * entries, even when the parent or predecessor was deleted first (its lists went with it).
   */
  private void writeFamilyEntries(String ns, WorkUnitRecord before, WorkUnitRecord after) {
    UnitRef self = UnitRef.of(after != null ? after : before);
    UnitFamily old = before == null ? null : before.family();
    UnitFamily now = after == null ? null : after.family();
    byte[] oldChild = childEntry(ns, old, self);
    byte[] newChild = childEntry(ns, now, self);
    if (!Arrays.equals(oldChild, newChild)) {
      if (oldChild != null) {
        removeEntry(oldChild, Keys.familyCount(ns, old.parent(), old.childState().code()));
      }
      if (newChild != null) {
        addEntry(newChild, Keys.familyCount(ns, now.parent(), now.childState().code()));
      }
    }
    UnitRef oldPredecessor = old == null ? null : old.predecessor();
    UnitRef newPredecessor = now == null ? null : now.predecessor();
    if (!Objects.equals(oldPredecessor, newPredecessor)) {
      if (oldPredecessor != null) {
        removeEntry(Keys.heir(ns, oldPredecessor, self), Keys.familyCount(ns, oldPredecessor, Keys.HEIRS_KIND));
      }
      if (newPredecessor != null) {
        addEntry(Keys.heir(ns, newPredecessor, self), Keys.familyCount(ns, newPredecessor, Keys.HEIRS_KIND));
      }
    }
    if (after == null && old != null) {
      Keys.familyOf(ns, self).forEach(this::deleteRangeOf); // the engine empties them first; this is a net
    }
  }

  private static byte[] childEntry(String ns, UnitFamily family, UnitRef self) {
    if (family == null || family.parent() == null || family.childState() == null) {
      return null;
    }
    long parkedUnder = family.parkedUnder() == null ? 0 : family.parkedUnder();
    return Keys.child(ns, family.parent(), family.childState(), parkedUnder, self);
  }

  private void addEntry(byte[] entry, byte[] countKey) {
    if (store.get(entry) == null) {
      writable.put(entry, ValueCodec.EMPTY);
      addToCount(countKey, +1);
    }
  }

  private void removeEntry(byte[] entry, byte[] countKey) {
    if (store.get(entry) != null) {
      writable.delete(entry);
      addToCount(countKey, -1);
    }
  }

  /**
   * A spec's unit count by status moves with every unit's status; a batch command moves one count hundreds of
   * times. The moves are summed here and written once, by {@link #flushCounts}; {@link #count} and
   * {@link #counts} add them to what is stored.
   */
  private void addToCount(String ns, String spec, UnitStatus status, long delta) {
    SpecKey last = lastCounted;
    if (last == null || !last.is(ns, spec)) {
      lastCounted = new SpecKey(ns, spec);
      lastCountDeltas = countDeltas.computeIfAbsent(lastCounted, key -> new long[STATUSES.length]);
    }
    lastCountDeltas[status.ordinal()] += delta;
  }

  /**
   * Writes what is kept in memory until then: the attempt indexes' blocks and the counts' moves. The engine calls
   * it before it commits a command's writes, a rebuild after each chunk of records.
   */
  public void flush() {
    blocks.flush();
    flushCounts();
  }

  private void flushCounts() {
    countDeltas.forEach((spec, deltas) -> {
      for (UnitStatus status : STATUSES) {
        if (deltas[status.ordinal()] != 0) {
          addToCount(Keys.count(spec.ns(), spec.name(), status), deltas[status.ordinal()]);
        }
      }
    });
    countDeltas.clear();
    lastCounted = null;
  }

  @Override
  public long count(String ns, String spec, UnitStatus status) {
    long[] deltas = countDeltas.get(new SpecKey(ns, spec));
    return super.count(ns, spec, status) + (deltas == null ? 0 : deltas[status.ordinal()]);
  }

  @Override
  public Map<UnitStatus, Long> counts(String ns, String spec) {
    Map<UnitStatus, Long> counts = super.counts(ns, spec);
    long[] deltas = countDeltas.get(new SpecKey(ns, spec));
    if (deltas != null) {
      for (UnitStatus status : STATUSES) {
        counts.merge(status, deltas[status.ordinal()], Long::sum);
      }
    }
    counts.values().removeIf(value -> value == 0);
    return counts;
  }

  private void addToCount(byte[] key, long delta) {
    long value = ValueCodec.decodeLong(store.get(key)) + delta;
    if (value == 0) {
      writable.delete(key);
    } else {
      writable.put(key, ValueCodec.encodeLong(value));
    }
  }

  private void deleteUnitAttempts(String ns, WorkUnitRecord unit) {
    List<AttemptRecord> attempts = unitAttempts(ns, unit.spec(), unit.name());
    for (AttemptRecord attempt : attempts) {
      long seq = attempt.seq();
      writable.delete(Keys.attempt(ns, seq));
      blocks.setUnitKey(ns, seq, null);
      blocks.setStarted(ns, seq, null, null);
      blocks.markWorker(AttemptBlocks.Kind.WORKER_ATTEMPTS, ns, attempt.worker(), seq, false);
      blocks.markWorker(AttemptBlocks.Kind.WORKER_ACTIVE, ns, attempt.worker(), seq, false);
      if (attempt.status() == AttemptStatus.PENDING) {
        blocks.markDeadline(ns, attempt.expirationTime(), seq, false);
      }
    }
    deleteRange(Keys.unitAttempts(ns, unit.spec(), unit.name()));
  }

  // --- attempts ---

  /**
   * Changes an attempt (its status, lease or data), keeping the worker's active list and the deadline index.
   * An attempt is created by {@link #startAttempt}.
   */
  public void writeAttempt(String ns, AttemptRecord before, AttemptRecord after) {
    Objects.requireNonNull(before, "an attempt is created by startAttempt");
    writeAttemptIndexes(ns, before, after);
    storeAttempt(ns, after);
    listener.attemptChanged(ns, before, after);
  }

  /**
   * The index entries of a stored attempt, derived again by {@link IndexRebuild}; the records stay as they are.
   * {@code ownRecord}: the attempt is in a record of its own, not held by its unit's value.
   */
  void deriveAttempt(String ns, AttemptRecord attempt, boolean ownRecord) {
    writeNewAttemptIndexes(ns, attempt, Keys.unit(ns, attempt.spec(), attempt.unit()));
    if (ownRecord) {
      writable.put(Keys.unitAttempt(ns, attempt.spec(), attempt.unit(), attempt.seq()), ValueCodec.EMPTY);
    }
  }

  /** A new attempt's index entries: {@link #writeAttemptIndexes}, and the attempt → unit entry. */
  private void writeNewAttemptIndexes(String ns, AttemptRecord attempt, byte[] unitKey) {
    writeAttemptIndexes(ns, null, attempt);
    blocks.setUnitKey(ns, attempt.seq(), unitKey);
  }

  /**
   * Starts {@code attempt} at a unit, which moves from {@code before} (as stored) to {@code after}: the attempt's
   * index entries, then the unit's value written once, holding the new attempt (the one it held moves to a record
   * of its own), with the unit's own indexes. Events: the attempt's, then the unit's.
   */
  public void startAttempt(String ns, WorkUnitRecord before, WorkUnitRecord after, AttemptRecord attempt) {
    startAttempt(ns, before, after, attempt, false);
  }

  /**
   * A request's start of attempt {@code seq} of {@code worker} at {@code before}, a unit not pending on any attempt:
   * the unit becomes pending on it ({@link WorkUnitRecord#startedOn}, {@link AttemptRecord#started}), and its record
   * may stay as it is ({@link #keepStarted}).
   */
  public AttemptRecord startRequestedAttempt(
      String ns, WorkUnitRecord before, long seq, String worker, long startTime, long expirationTime) {
    AttemptRecord attempt = AttemptRecord.started(seq, before, worker, startTime, expirationTime);
    startAttempt(ns, before, before.startedOn(seq), attempt, true);
    return attempt;
  }

  private void startAttempt(
      String ns, WorkUnitRecord before, WorkUnitRecord after, AttemptRecord attempt, boolean requestStart) {
    byte[] unitKey = Keys.unit(ns, before.spec(), before.name());
    blocks.starting(ns, attempt.seq());
    writeNewAttemptIndexes(ns, attempt, unitKey);
    byte[] stored = unitValue(ns, unitKey);
    if (UnitValue.hasAttempt(stored)) {
      long held = UnitValue.attemptSeq(stored);
      writable.put(Keys.attempt(ns, held), UnitValue.attempt(stored));
      writable.put(Keys.unitAttempt(ns, before.spec(), before.name(), held), ValueCodec.EMPTY);
    }
    listener.attemptChanged(ns, null, attempt);
    writeUnit(ns, before, after, attempt, requestStart);
  }

  /** The worker's attempt lists and the deadline index. */
  private void writeAttemptIndexes(String ns, AttemptRecord before, AttemptRecord after) {
    long seq = after.seq();
    String worker = after.worker();
    if (before == null) {
      blocks.markWorker(AttemptBlocks.Kind.WORKER_ATTEMPTS, ns, worker, seq, true);
    }
    boolean wasPending = before != null && before.status() == AttemptStatus.PENDING;
    boolean isPending = after.status() == AttemptStatus.PENDING;
    if (wasPending && (!isPending || before.expirationTime() != after.expirationTime())) {
      blocks.markDeadline(ns, before.expirationTime(), seq, false);
    }
    if (isPending) {
      blocks.markDeadline(ns, after.expirationTime(), seq, true);
      if (hints != null) {
        hints.deadlineInserted(after.expirationTime());
      }
      blocks.markWorker(AttemptBlocks.Kind.WORKER_ACTIVE, ns, worker, seq, true);
    } else if (wasPending) {
      blocks.markWorker(AttemptBlocks.Kind.WORKER_ACTIVE, ns, worker, seq, false);
    }
  }

  /**
   * Puts a changed attempt where it lives: in its unit's value if the unit holds it, else in its own record (see
   * {@link UnitValue}). A value that holds an attempt is never in the available index (see {@link #writeUnit}), so
   * no index entry carries what changes here.
   */
  private void storeAttempt(String ns, AttemptRecord attempt) {
    long seq = attempt.seq();
    // the attempt → unit entry names the unit: its key as is, not built again
    byte[] listed = blocks.readUnitKey(ns, seq);
    byte[] unitKey = listed != null ? listed : Keys.unit(ns, attempt.spec(), attempt.unit());
    assert Arrays.equals(unitKey, Keys.unit(ns, attempt.spec(), attempt.unit())) : "the entry names another unit";
    byte[] stored = unitValue(ns, unitKey);
    if (UnitValue.attemptSeq(stored) == seq) {
      byte[] value = UnitValue.of(UnitValue.unit(stored), seq, ValueCodec.encode(attempt));
      boolean wasStarted = putUnitValue(ns, unitKey, value, true);
      if (wasStarted || blocks.unitValue(ns, seq) != null) {
        // the unit's own record is unchanged: it is still pending on the attempt, its value now in its record
        blocks.setUnitValue(ns, seq, value);
      }
    } else {
      writable.put(Keys.attempt(ns, seq), ValueCodec.encode(attempt));
    }
  }

  // --- workers ---

  public void writeWorker(String ns, WorkerRecord before, WorkerRecord after) {
    String oldParent = before == null ? null : before.parent();
    if (!Objects.equals(oldParent, after.parent())) {
      if (oldParent != null) {
        writable.delete(Keys.workerChild(ns, oldParent, after.name()));
      }
      if (after.parent() != null) {
        writable.put(Keys.workerChild(ns, after.parent(), after.name()), ValueCodec.EMPTY);
      }
    }
    writable.put(Keys.worker(ns, after.name()), ValueCodec.encode(after));
    listener.workerChanged(ns, before, after);
  }

  // --- answers kept for repeated request ids ---

  /**
   * Keeps the answer of a command that carried a {@code request_id} until {@code answer.expiresAt()}, with its entry in
   * the expiry index; an answer kept under the same key before is replaced, its entry dropped.
   */
  public void recordAnswer(String ns, String requester, String type, String requestId, Answer answer) {
    byte[] key = Keys.answer(ns, requester, type, requestId);
    byte[] before = store.get(key);
    if (before != null) {
      writable.delete(Keys.answerExpiry(Answer.expiresAt(before), ns, requester, type, requestId));
    }
    writable.put(key, answer.encode());
    putAnswerExpiry(new Keys.AnswerKey(answer.expiresAt(), ns, requester, type, requestId));
  }

  /** The expiry entry of a kept answer, derived again by {@link IndexRebuild}. */
  void deriveAnswerExpiry(byte[] answerKey, byte[] stored) {
    putAnswerExpiry(Keys.parseAnswer(answerKey, Answer.expiresAt(stored)));
  }

  private void putAnswerExpiry(Keys.AnswerKey answer) {
    writable.put(answer.expiryKey(), ValueCodec.EMPTY);
    if (hints != null) {
      hints.answerInserted(answer.expiresAt());
    }
  }

  /**
   * The time step: forgets an answer whose time is up (its expiry entry goes; the answer too, if it is the one the
   * entry names and not one kept since, or gone with its namespace).
   */
  public void forgetAnswer(Keys.AnswerKey due) {
    byte[] key = due.answerKey();
    byte[] stored = store.get(key);
    if (stored != null && Answer.expiresAt(stored) == due.expiresAt()) {
      writable.delete(key);
    }
    writable.delete(due.expiryKey());
  }

  // --- time index upkeep ---

  /** Before a time step commits: keeps each time index's floor below any due entry still in place. */
  public void checkTimeFloors() {
    blocks.flush();
    if (hints != null) {
      hints.deadlines.checkDueRemoved(store);
      hints.delayed.checkDueRemoved(store);
      hints.purges.checkDueRemoved(store);
      hints.answers.checkDueRemoved(store);
    }
  }

  /** Drops a delayed-unit index entry that no longer matches its unit. */
  public void dropStaleDelayedEntry(Keys.DelayedUnitKey key) {
    writable.delete(Keys.delayedUnit(key.notBefore(), key.namespace(), key.spec(), key.unit()));
  }

  /** Drops a purge entry that no longer matches a finished or failed unit. */
  public void dropStalePurge(Keys.PurgeKey key) {
    writable.delete(Keys.purge(key.purgeAt(), key.namespace(), key.spec(), key.unit()));
  }

  /** Drops a deadline entry that no longer matches a pending attempt. */
  public void dropStaleDeadline(Keys.AttemptDeadlineKey key) {
    blocks.markDeadline(key.namespace(), key.expiration(), key.attemptSeq(), false);
  }

  @Override
  protected WorkSpecRecord decodeSpec(byte[] key, byte[] stored) {
    return decodedSpecs == null ? super.decodeSpec(key, stored) : decodedSpecs.decode(key, stored);
  }

  // --- reads that see the blocks' changes ---

  /** The attempt's unit key; the unit's value, when the entry carries it, is then known without a lookup. */
  @Override
  protected byte[] attemptUnitKey(String ns, long seq) {
    byte[] unitKey = blocks.unitKey(ns, seq);
    if (unitKey != null) {
      byte[] carried = blocks.unitValue(ns, seq);
      if (carried != null) {
        // pending on this attempt: started by it (its started-units slot is set) or not started at all; the
        // reads of the unit that follow then find the answer without a lookup in the map
        boolean startedByIt = blocks.startedValue(ns, seq) != null;
        started.remember(unitKey, startedByIt ? seq : null);
        if (!startedByIt) {
          store.known(unitKey, carried); // the record's value (a started unit's is read through the map)
        }
      }
    }
    return unitKey;
  }

  /**
   * A unit that the available index listed (or a continuous unit just made), as {@link #unit}. Such a unit is not
   * started (a started unit is pending), so its record is its value: the map of started units is told, and the reads
   * of the unit that follow (its start, its write) skip the lookup there.
   */
  public WorkUnitRecord availableUnit(String ns, String spec, String name) {
    byte[] unitKey = scannedUnitKey(ns, spec, name);
    started.remember(unitKey, null);
    return ValueCodec.decode(store.get(unitKey), WorkUnitRecord.class);
  }

  /**
   * A unit's stored value: a started unit's is the one its attempt's units entry carries (see
   * {@link #keepStarted}).
   */
  @Override
  protected byte[] unitValue(String ns, byte[] unitKey) {
    return valueOf(ns, unitKey, null);
  }

  @Override
  protected List<WorkUnitRecord> collectUnits(String ns, byte[] from, byte[] to, int limit) {
    return collect(from, to, limit,
        e -> ValueCodec.decode(valueOf(ns, e.key(), e.value()), WorkUnitRecord.class));
  }

  /** {@code recorded}: the unit's record if read already. */
  private byte[] valueOf(String ns, byte[] unitKey, byte[] recorded) {
    Long seq = started.get(unitKey);
    if (seq == null) {
      return recorded != null ? recorded : store.get(unitKey);
    }
    byte[] carried = blocks.unitValue(ns, seq);
    if (carried != null) {
      return carried;
    }
    // kept in step by every write of a started unit; made from the record should an entry not carry it
    byte[] record = recorded != null ? recorded : store.get(unitKey);
    byte[] delta = blocks.startedValue(ns, seq);
    return delta == null || record == null ? record : StartedUnits.value(record, seq, delta);
  }

  @Override
  public List<AttemptRecord> workerActiveAttempts(String ns, String worker) {
    blocks.flush();
    return super.workerActiveAttempts(ns, worker);
  }

  @Override
  public List<AttemptRecord> workerAttempts(String ns, String worker) {
    blocks.flush();
    return super.workerAttempts(ns, worker);
  }

  @Override
  public List<Keys.AttemptDeadlineKey> dueAttemptDeadlines(long now, int limit) {
    blocks.flush();
    return super.dueAttemptDeadlines(now, limit);
  }

  private void deleteRange(byte[] prefix) {
    deleteRangeOf(prefix);
  }

  private void deleteRangeOf(byte[] prefix) {
    List<byte[]> keys = collect(prefix, Integer.MAX_VALUE, KeyValueIterator.Entry::key);
    for (byte[] key : keys) {
      writable.delete(key);
    }
  }
}
