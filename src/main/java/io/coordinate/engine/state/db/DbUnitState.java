package io.coordinate.engine.state.db;

import io.coordinate.engine.state.MutableUnitState;
import io.coordinate.storage.ByteKey;
import io.coordinate.engine.state.codec.KeySpace;
import io.coordinate.engine.state.codec.TimeIndexKeys;
import io.coordinate.engine.state.codec.UnitKeys;
import io.coordinate.engine.state.codec.UnitValue;
import io.coordinate.engine.state.codec.ValueCodec;
import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.engine.state.model.AttemptStatus;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.storage.KeyValueIterator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * Work units: their records, the available (by priority and by time), delayed and purge indexes, and the counts by
 * status. A unit's stored value ({@link UnitValue}) holds its latest attempt; while it is pending on that attempt,
 * the attempt's units entry carries a copy ({@link AttemptBlocks}), and a unit a request started keeps what the
 * start added in a started-units entry instead of its record ({@link StartedUnits}). Only this class and
 * {@link DbAttemptState} write unit values.
 */
final class DbUnitState implements MutableUnitState {

  private static final UnitStatus[] STATUSES = UnitStatus.values();

  private final DbContext db;
  private final DbState state;
  /** The unit counts' moves not written yet, per spec and status (see {@link #addToCount}). */
  private final Map<SpecKey, long[]> countDeltas = new LinkedHashMap<>();
  /** The spec whose counts moved last and its moves: a batch command moves one spec's counts hundreds of times. */
  private SpecKey lastCounted;
  private long[] lastCountDeltas;
  /** The moves of the counts by available time not written yet (see {@link #addToSinceCount}). */
  private final Map<SinceKey, Long> sinceDeltas = new LinkedHashMap<>();
  /**
   * The units that the scans of one spec's available index listed (the spec last scanned), by their name's
   * instance, with their keys: a request then reads each unit it hands out by a key built once.
   */
  private final Map<String, byte[]> scannedUnitKeys = new IdentityHashMap<>();
  private String scannedNs;
  private String scannedSpec;

  DbUnitState(DbContext db, DbState state) {
    this.db = db;
    this.state = state;
  }

  // --- reads ---

  @Override
  public WorkUnitRecord get(String ns, String spec, String name) {
    return ValueCodec.decode(db.values.value(ns, UnitKeys.unit(ns, spec, name)), WorkUnitRecord.class);
  }

  /** The unit's stored value: its record, with what its started-units entry adds if any. */
  byte[] storedValue(String ns, byte[] unitKey) {
    return db.values.value(ns, unitKey);
  }

  @Override
  public WorkUnitRecord available(String ns, String spec, String name) {
    byte[] unitKey = scannedUnitKey(ns, spec, name);
    db.values.notStarted(unitKey);
    return ValueCodec.decode(db.store.get(unitKey), WorkUnitRecord.class);
  }

  @Override
  public List<WorkUnitRecord> list(String ns, String spec, String afterName, int limit) {
    byte[] prefix = UnitKeys.units(ns, spec);
    byte[] from = afterName == null ? prefix : DbContext.successor(UnitKeys.unit(ns, spec, afterName));
    return db.collect(from, KeySpace.prefixEnd(prefix), limit,
        e -> ValueCodec.decode(db.values.valueOf(ns, e.key(), e.value()), WorkUnitRecord.class));
  }

  @Override
  public Map<UnitStatus, Long> counts(String ns, String spec) {
    Map<UnitStatus, Long> counts = new EnumMap<>(UnitStatus.class);
    try (KeyValueIterator it = db.store.prefix(UnitKeys.counts(ns, spec))) {
      while (it.hasNext()) {
        KeyValueIterator.Entry e = it.next();
        counts.put(UnitKeys.countStatus(e.key()), ValueCodec.decodeLong(e.value()));
      }
    }
    long[] deltas = countDeltas.get(new SpecKey(ns, spec));
    if (deltas != null) {
      for (UnitStatus status : STATUSES) {
        counts.merge(status, deltas[status.ordinal()], Long::sum);
      }
    }
    counts.values().removeIf(value -> value == 0);
    return counts;
  }

  @Override
  public long count(String ns, String spec, UnitStatus status) {
    long[] deltas = countDeltas.get(new SpecKey(ns, spec));
    return ValueCodec.decodeLong(db.store.get(UnitKeys.count(ns, spec, status)))
        + (deltas == null ? 0 : deltas[status.ordinal()]);
  }

  /**
   * One seek of the spec's counts by available time (the first is the oldest: a count at zero is deleted), then
   * the units available at {@code now} that are stored otherwise because the time step has not reached them yet: a delayed unit due by now (since its not-before time),
   * a unit whose attempt ran out before now (since the expiration). Those two time indexes hold exactly these, as for
   * {@code StateViews.counts}, and are read from the front only as far as they could hold an older time.
   */
  @Override
  public Long oldestAvailableSince(String ns, String spec, long now) {
    if (db.writable != null) {
      flushCounts(); // this command's moves, summed in memory so far
    }
    Long oldest = null;
    try (KeyValueIterator it =
        db.store.range(UnitKeys.availableSinceKnown(ns, spec), KeySpace.prefixEnd(UnitKeys.availableSinceUnits(ns, spec)))) {
      if (it.hasNext()) {
        oldest = UnitKeys.availableSinceTime(it.next().key(), ns, spec);
      }
    }
    try (KeyValueIterator it = db.store.range(TimeIndexKeys.delayedUnitsStart(), TimeIndexKeys.delayedUnitsBefore(now + 1))) {
      while (it.hasNext()) {
        TimeIndexKeys.DelayedUnitKey due = TimeIndexKeys.parseDelayedUnit(it.next().key());
        if (oldest != null && due.notBefore() >= oldest) {
          break;
        }
        if (due.namespace().equals(ns) && due.spec().equals(spec)) {
          WorkUnitRecord unit = get(ns, spec, due.unit());
          if (unit != null && unit.status() == UnitStatus.DELAYED
              && Objects.equals(unit.notBefore(), due.notBefore())) {
            oldest = due.notBefore(); // the first such entry is the spec's oldest
            break;
          }
        }
      }
    }
    db.flushBlocks();
    try (KeyValueIterator it = db.store.range(TimeIndexKeys.attemptDeadlinesStart(), TimeIndexKeys.attemptDeadlinesBefore(now))) {
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
        AttemptBlocks.addSeqs(key.block(), entry.value(), seqs);
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
    if (attempt == null || attempt.isReplica() || !attempt.spec().equals(spec)
        || attempt.status() != AttemptStatus.PENDING || attempt.expirationTime() != expiration) {
      return null;
    }
    WorkUnitRecord unit = get(ns, spec, attempt.unit());
    if (unit == null || unit.status() != UnitStatus.PENDING || unit.activeAttempt() == null
        || unit.activeAttempt() != seq) {
      return null;
    }
    Long notBefore = unit.notBefore();
    if (notBefore != null && now < notBefore) {
      return null;
    }
    return notBefore != null && notBefore > expiration ? notBefore : expiration;
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
    keys.sort(Arrays::compareUnsigned);
    Map<ByteKey, byte[]> found = new HashMap<>();
    try (KeyValueIterator it = db.store.range(keys.get(0), DbContext.successor(keys.get(keys.size() - 1)))) {
      for (int budget = 2 * keys.size(); it.hasNext(); budget--) {
        if (budget == 0) {
          return; // the keys are spread among others: read each by key
        }
        KeyValueIterator.Entry entry = it.next();
        found.put(new ByteKey(entry.key()), entry.value());
      }
    }
    for (byte[] key : keys) {
      db.store.known(key, found.get(new ByteKey(key)));
    }
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
   * (see {@link #write}): the store is told, so that reading the unit costs no lookup.
   */
  private String availableUnit(String ns, String spec, KeyValueIterator.Entry entry) {
    String name = UnitKeys.availableUnitName(entry.key(), ns, spec);
    byte[] unitKey = UnitKeys.unit(ns, spec, name);
    if (entry.value().length > 0) {
      db.store.known(unitKey, entry.value());
    }
    if (!ns.equals(scannedNs) || !spec.equals(scannedSpec)) {
      scannedUnitKeys.clear();
      scannedNs = ns;
      scannedSpec = spec;
    }
    scannedUnitKeys.put(name, unitKey);
    return name;
  }

  /** The key of a unit that the last scan listed, {@code name} being the instance it returned; else built. */
  private byte[] scannedUnitKey(String ns, String spec, String name) {
    byte[] key = ns.equals(scannedNs) && spec.equals(scannedSpec) ? scannedUnitKeys.get(name) : null;
    return key != null ? key : UnitKeys.unit(ns, spec, name);
  }

  // --- transitions ---

  @Override
  public void write(String ns, WorkUnitRecord before, WorkUnitRecord after) {
    write(ns, before, Objects.requireNonNull(after, "a unit is deleted by delete"), null, false);
  }

  @Override
  public void delete(String ns, WorkUnitRecord unit) {
    write(ns, Objects.requireNonNull(unit), null, null, false);
  }

  /**
   * {@link #write}; {@code attempt}, if given, is a new attempt for the unit's value to hold from now on, and
   * {@code requestStart} says it is a request's start, which the attempt's started-units entry can hold.
   */
  void write(String ns, WorkUnitRecord before, WorkUnitRecord after, AttemptRecord attempt, boolean requestStart) {
    if (after != null) {
      after = withAvailableSince(ns, before, after);
    }
    WorkUnitRecord any = after != null ? after : before;
    String spec = any.spec();
    String name = any.name();
    if (before != null) {
      if (before.status() == UnitStatus.AVAILABLE) {
        db.writable.delete(UnitKeys.available(ns, spec, before.priority(), name));
        if (!staysAvailableSince(before, after)) {
          addToSinceCount(ns, spec, before.availableSince(), -1);
        }
      }
      if (before.status() == UnitStatus.DELAYED) {
        db.writable.delete(TimeIndexKeys.delayedUnit(before.notBefore(), ns, spec, name));
      }
      if (purges(before)) {
        db.writable.delete(TimeIndexKeys.purge(before.purgeAt(), ns, spec, name));
      }
      addToCount(ns, spec, before.status(), -1);
    }
    byte[] unitKey = UnitKeys.unit(ns, spec, name);
    if (after != null) {
      byte[] value;
      if (attempt != null) {
        value = UnitValue.of(ValueCodec.encode(after), attempt.seq(), ValueCodec.encode(attempt));
        if (requestStart && db.started.get(unitKey) == null && db.started.hasRoom()) {
          assert carries(after, attempt.seq()) && StartedUnits.derivable(before, after, attempt)
              : "a request's start that its entry cannot rebuild";
          keepStarted(ns, unitKey, attempt);
        } else {
          putValue(ns, unitKey, value, true); // a replica's start, say: its unit is not pending on it alone
        }
      } else {
        // keep the attempt the unit holds (a new unit, or one a rebuild derives: read already, to add it)
        byte[] stored = before == null ? db.store.get(unitKey) : db.values.value(ns, unitKey);
        value = UnitValue.of(ValueCodec.encode(after), UnitValue.attemptSeq(stored), UnitValue.attempt(stored));
        putValue(ns, unitKey, value, before != null);
      }
      if (UnitValue.hasAttempt(value)) {
        keepCarried(ns, before, after, UnitValue.attemptSeq(value), value);
      }
      writeIndexes(ns, before, after, value);
      addToCount(ns, spec, after.status(), +1);
    } else {
      state.attempts.deleteOfUnit(ns, before);
      dropStarted(ns, unitKey);
      db.writable.delete(unitKey);
    }
    state.family.unitChanged(ns, before, after);
    db.listener.unitChanged(ns, before, after);
  }

  /**
   * The unit with its {@code availableSince} as the rule of docs/reference.md ("Unit statuses") has it: kept while
   * the unit stays available (whatever record the caller built), else the time it becomes available, which is the
   * command's or time step's. Two exceptions, so that the time does not depend on when the time step ran: a delayed
   * unit released by the time step counts from its not-before time, and a unit whose attempt ran out from the
   * attempt's expiration. Without a time (a rebuild) the record is as given.
   */
  private WorkUnitRecord withAvailableSince(String ns, WorkUnitRecord before, WorkUnitRecord after) {
    if (after.status() != UnitStatus.AVAILABLE || db.now == null) {
      return after;
    }
    Long since = before != null && before.status() == UnitStatus.AVAILABLE
        ? before.availableSince() : becameAvailableAt(ns, before, db.now);
    return Objects.equals(since, after.availableSince()) ? after : after.withAvailableSince(since);
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
  private static boolean staysAvailableSince(WorkUnitRecord before, WorkUnitRecord after) {
    return after != null && after.status() == UnitStatus.AVAILABLE
        && Objects.equals(before.availableSince(), after.availableSince());
  }

  /** The entries of the unit's status in the available, available-since, delayed and purge indexes. */
  private void writeIndexes(String ns, WorkUnitRecord before, WorkUnitRecord after, byte[] value) {
    String spec = after.spec();
    String name = after.name();
    if (after.status() == UnitStatus.AVAILABLE) {
      if (before == null || before.status() != UnitStatus.AVAILABLE || !staysAvailableSince(before, after)) {
        addToSinceCount(ns, spec, after.availableSince(), +1);
      }
      byte[] key = UnitKeys.available(ns, spec, after.priority(), name);
      // The entry carries the unit's value, so that a request reads the units it hands out with its index scan
      // (a RocksDB lookup less per unit). Only while the unit holds no attempt: every change of such a value is
      // made here (DbAttemptState changes only values that hold one). Empty: read the unit.
      db.writable.put(key, UnitValue.hasAttempt(value) ? ValueCodec.EMPTY : value);
      if (db.hints != null) {
        db.hints.inserted(ns, spec, key);
      }
    }
    if (after.status() == UnitStatus.DELAYED) {
      long notBefore = Objects.requireNonNull(after.notBefore(), "delayed needs notBefore");
      db.writable.put(TimeIndexKeys.delayedUnit(notBefore, ns, spec, name), ValueCodec.EMPTY);
      if (db.hints != null) {
        db.hints.delayedInserted(notBefore);
      }
    }
    if (purges(after)) {
      db.writable.put(TimeIndexKeys.purge(after.purgeAt(), ns, spec, name), ValueCodec.EMPTY);
      if (db.hints != null) {
        db.hints.purgeInserted(after.purgeAt());
      }
    }
  }

  /**
   * A request's start leaves the unit's record as it is: what the start added (the attempt's worker and times) goes
   * to the started-units entry of its attempt's block, and the engine's {@link StartedUnits} knows the unit is
   * there. A unit's life (add, request, finish) then writes its record twice instead of three times. The units
   * entry carries the whole value as for any pending unit ({@link #keepCarried}), so the finish reads it as
   * before. The next write of the unit writes its record ({@link #putValue}).
   */
  private void keepStarted(String ns, byte[] unitKey, AttemptRecord attempt) {
    db.started.put(unitKey, attempt.seq());
    db.blocks.setStarted(ns, attempt.seq(), unitKey, StartedUnits.delta(attempt));
  }

  /**
   * Writes the unit's record; what a started-units entry held for it is in the value written, and goes.
   * {@code mayBeStarted}: false for a unit that has no record yet (or one a rebuild derives), which nothing started.
   * Returns whether the unit was started.
   */
  boolean putValue(String ns, byte[] unitKey, byte[] value, boolean mayBeStarted) {
    db.writable.put(unitKey, value);
    return mayBeStarted && dropStarted(ns, unitKey);
  }

  /** Whether the unit was started (and its started-units entry held what its record lacked; no more). */
  private boolean dropStarted(String ns, byte[] unitKey) {
    Long seq = db.started.remove(unitKey);
    if (seq == null) {
      return false;
    }
    db.blocks.setStarted(ns, seq, null, null);
    return true;
  }

  /**
   * Whether the units entry of attempt {@code seq} carries its unit's stored value: while the unit is pending on
   * that attempt, so that the attempt's finish, failure or renewal reads it with the entry.
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
      db.blocks.setUnitValue(ns, previous, null);
    }
    boolean carried = carries(after, held);
    if (carried || carries(before, held)) {
      db.blocks.setUnitValue(ns, held, carried ? value : null);
    }
  }

  /** A purge time only counts for a finished or failed unit: any other status keeps it out of the index. */
  private static boolean purges(WorkUnitRecord unit) {
    return unit.purgeAt() != null && (unit.status() == UnitStatus.FINISHED || unit.status() == UnitStatus.FAILED);
  }

  /** Deletes every unit of a spec with its index entries and counts (their attempts went first). */
  void deleteAllOf(String ns, String spec) {
    db.deleteRange(UnitKeys.units(ns, spec));
    db.started.removeAll(UnitKeys.units(ns, spec));
    db.deleteRange(UnitKeys.availableUnits(ns, spec));
    db.deleteRange(UnitKeys.availableSinceUnits(ns, spec));
    db.deleteRange(UnitKeys.counts(ns, spec));
    forgetCounts(ns, spec);
  }

  // --- counts ---

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

  void flushCounts() {
    countDeltas.forEach((spec, deltas) -> {
      for (UnitStatus status : STATUSES) {
        if (deltas[status.ordinal()] != 0) {
          db.addToCounter(UnitKeys.count(spec.ns(), spec.name(), status), deltas[status.ordinal()]);
        }
      }
    });
    countDeltas.clear();
    lastCounted = null;
    sinceDeltas.forEach((since, delta) -> {
      if (delta != 0) {
        db.addToCounter(UnitKeys.availableSince(since.ns(), since.spec(), since.time()), delta);
      }
    });
    sinceDeltas.clear();
  }

  /** Drops the counts' moves of a spec ({@code spec == null}: of every spec of the namespace) that went. */
  void forgetCounts(String ns, String spec) {
    countDeltas.keySet().removeIf(count -> count.ns().equals(ns) && (spec == null || count.name().equals(spec)));
    lastCounted = null;
    sinceDeltas.keySet().removeIf(since -> since.ns().equals(ns) && (spec == null || since.spec().equals(spec)));
  }

  /**
   * Moves the count of a spec's available units by the time they became available ({@link UnitKeys#availableSince}).
   * The units of a batch share their time: summed here, their moves cost one write per command and time, not one
   * per unit.
   */
  private void addToSinceCount(String ns, String spec, Long time, long delta) {
    sinceDeltas.merge(new SinceKey(ns, spec, time), delta, Long::sum);
  }

  /** A spec and an available time, whose count moves. */
  private record SinceKey(String ns, String spec, Long time) {}
}
