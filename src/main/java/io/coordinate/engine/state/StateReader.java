package io.coordinate.engine.state;

import io.coordinate.engine.state.store.KeyValueIterator;
import io.coordinate.engine.state.store.ReadableKeyValueStore;
import io.coordinate.engine.state.codec.ByteKey;
import io.coordinate.engine.state.codec.KeyReader;
import io.coordinate.engine.state.codec.KeyWriter;
import io.coordinate.engine.state.codec.Keys;
import io.coordinate.engine.state.codec.UnitValue;
import io.coordinate.engine.state.codec.ValueCodec;
import io.coordinate.engine.state.model.Answer;
import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.engine.state.model.ChildState;
import io.coordinate.engine.state.model.NamespaceRecord;
import io.coordinate.engine.state.model.UnitRef;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.engine.state.model.WorkSpecRecord;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.engine.state.model.WorkerRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Read-only access to the coordinator's state: what the engine reads and what interactive queries see.
 * Every scan is bounded by a key range and, where it may be long, by a limit; iterators are always closed.
 */
public class StateReader {

  protected final ReadableKeyValueStore store;
  protected final ScanHints hints;
  /**
   * Specs already decoded: a command reads its spec once per unit it touches (finishing 100 attempts read and
   * decoded it 100 times). A reader lives for one command or one query, so this never outlives a change.
   */
  private final Map<SpecKey, WorkSpecRecord> specs = new HashMap<>();
  /** Per namespace, its started units ({@link #unitValue}); read when first needed, as the specs. */
  private Map<String, StartedEntries> startedByNamespace;
  /**
   * The units that the scans of one spec's available index listed (the spec last scanned), by their name's
   * instance, with their keys: a request then reads each unit it hands out by a key built once (see
   * {@link #scannedUnitKey}). A key is a function of the names, so one kept from an earlier scan is still right.
   */
  private final Map<String, byte[]> scannedUnitKeys = new IdentityHashMap<>();
  private String scannedNs;
  private String scannedSpec;

  public StateReader(ReadableKeyValueStore store) {
    this(store, null);
  }

  /** @param hints where index scans may start (the engine's); null = always from the start */
  public StateReader(ReadableKeyValueStore store, ScanHints hints) {
    this.store = store;
    this.hints = hints;
  }

  // --- namespaces ---

  public NamespaceRecord namespace(String ns) {
    return ValueCodec.decode(store.get(Keys.namespace(ns)), NamespaceRecord.class);
  }

  public List<String> namespaces() {
    return collect(Keys.allNamespaces(), Integer.MAX_VALUE, e -> Keys.namespaceName(e.key()));
  }

  // --- work specs ---

  public WorkSpecRecord spec(String ns, String name) {
    SpecKey key = new SpecKey(ns, name);
    WorkSpecRecord spec = specs.get(key);
    if (spec == null) {
      byte[] specKey = Keys.spec(ns, name);
      spec = decodeSpec(specKey, store.get(specKey));
      if (spec != null) {
        specs.put(key, spec);
      }
    }
    return spec;
  }

  /** Forgets the specs read so far: {@link CoordinateState} calls it when it writes one. */
  protected void specsChanged() {
    specs.clear();
  }

  /** A spec by namespace and name: a key of the readers' per-spec maps. */
  protected record SpecKey(String ns, String name) {
    boolean is(String otherNs, String otherName) {
      return ns.equals(otherNs) && name.equals(otherName);
    }
  }

  /** Every spec of the namespace, in name order (a namespace has few specs; units are what is many). */
  public List<WorkSpecRecord> specs(String ns) {
    return collect(Keys.allSpecs(ns), Integer.MAX_VALUE, e -> decodeSpec(e.key(), e.value()));
  }

  /** A spec's stored value decoded (null: none); the engine's state keeps decoded specs across commands. */
  protected WorkSpecRecord decodeSpec(byte[] key, byte[] stored) {
    return ValueCodec.decode(stored, WorkSpecRecord.class);
  }

  /** Stored unit counts by status, zero counts omitted. */
  public Map<UnitStatus, Long> counts(String ns, String spec) {
    Map<UnitStatus, Long> counts = new EnumMap<>(UnitStatus.class);
    try (KeyValueIterator it = store.prefix(Keys.counts(ns, spec))) {
      while (it.hasNext()) {
        KeyValueIterator.Entry e = it.next();
        long value = ValueCodec.decodeLong(e.value());
        if (value != 0) {
          counts.put(Keys.countStatus(e.key()), value);
        }
      }
    }
    return counts;
  }

  public long count(String ns, String spec, UnitStatus status) {
    return ValueCodec.decodeLong(store.get(Keys.count(ns, spec, status)));
  }

  // --- work units ---

  public WorkUnitRecord unit(String ns, String spec, String name) {
    return ValueCodec.decode(unitValue(ns, Keys.unit(ns, spec, name)), WorkUnitRecord.class);
  }

  /**
   * A unit's stored value (see {@link UnitValue}): its record's, or, while an attempt that a request started holds
   * what the start added in its started-units entry ({@link StartedUnits}), the record with that. This reader has no
   * engine's map of them, so it looks through the namespace's entries (one per 64 attempts started and not ended): a
   * query's cost, bounded by the attempts out ({@link StartedUnits#MAX_STARTED}). {@link CoordinateState} knows them.
   */
  protected byte[] unitValue(String ns, byte[] unitKey) {
    byte[] recorded = store.get(unitKey);
    return recorded == null ? null : startedUnits(ns).valueOf(unitKey, recorded);
  }

  /**
   * The namespace's started units, read once per reader: a query's reader lives for one query, which may read many
   * units (a worker's attempts, a page of units) and should scan the entries once.
   */
  private StartedEntries startedUnits(String ns) {
    if (startedByNamespace == null) {
      startedByNamespace = new HashMap<>();
    }
    return startedByNamespace.computeIfAbsent(ns, this::readStartedUnits);
  }

  /** The namespace's started units, as their started-units entries list them. */
  private StartedEntries readStartedUnits(String ns) {
    Map<ByteKey, StartedEntry> found = new HashMap<>();
    StartedUnits.forEach(store, ns,
        (unitKey, seq, delta) -> found.put(new ByteKey(unitKey), new StartedEntry(seq, delta)));
    return new StartedEntries(found);
  }

  private record StartedEntry(long seq, byte[] delta) {}

  private record StartedEntries(Map<ByteKey, StartedEntry> entries) {
    byte[] valueOf(byte[] unitKey, byte[] recorded) {
      StartedEntry started = entries.isEmpty() ? null : entries.get(new ByteKey(unitKey));
      return started == null ? recorded : StartedUnits.value(recorded, started.seq(), started.delta());
    }
  }

  /**
   * Reads, in one range scan, the stored units of a batch whose names lie close together in their spec (an
   * {@code add_work_units} of sequential names, say) and tells the store what is there and what is not
   * ({@link ReadableKeyValueStore#known}): the batch's reads of its units then cost no lookup each — for a unit
   * that does not exist yet, a RocksDB lookup is its add's largest cost. Tells nothing when the names' range holds
   * more than as many other units again: then each unit is read by key, as without this.
   */
  public void prefetchUnits(String ns, String spec, List<String> names) {
    List<byte[]> keys = new ArrayList<>(names.size());
    for (String name : names) {
      keys.add(Keys.unit(ns, spec, name));
    }
    prefetch(keys);
  }

  /** Reads the keys' range in one scan, if it holds at most as many other keys again, and tells the store. */
  private void prefetch(List<byte[]> keys) {
    if (keys.size() < 2) {
      return;
    }
    keys.sort(Arrays::compareUnsigned);
    Map<ByteKey, byte[]> found = new HashMap<>();
    try (KeyValueIterator it = store.range(keys.get(0), successor(keys.get(keys.size() - 1)))) {
      for (int budget = 2 * keys.size(); it.hasNext(); budget--) {
        if (budget == 0) {
          return; // the keys are spread among others: read each by key
        }
        KeyValueIterator.Entry entry = it.next();
        found.put(new ByteKey(entry.key()), entry.value());
      }
    }
    for (byte[] key : keys) {
      store.known(key, found.get(new ByteKey(key)));
    }
  }

  /** Units in name order, strictly after {@code afterName} (null = from the start), at most {@code limit}. */
  public List<WorkUnitRecord> units(String ns, String spec, String afterName, int limit) {
    byte[] prefix = Keys.units(ns, spec);
    byte[] from = afterName == null ? prefix : successor(Keys.unit(ns, spec, afterName));
    return collectUnits(ns, from, Keys.prefixEnd(prefix), limit);
  }

  /** Units in key order from a range of their records, each with its started-units entry's changes if any. */
  protected List<WorkUnitRecord> collectUnits(String ns, byte[] from, byte[] to, int limit) {
    StartedEntries started = startedUnits(ns);
    return collect(from, to, limit, e -> ValueCodec.decode(started.valueOf(e.key(), e.value()), WorkUnitRecord.class));
  }

  /** The best available units of a spec: priority descending, then name ascending. Costs O(limit · log n). */
  public List<String> bestAvailableUnits(String ns, String spec, int limit) {
    byte[] prefix = Keys.availableUnits(ns, spec);
    byte[] end = Keys.prefixEnd(prefix);
    if (hints == null) {
      return collect(prefix, end, limit, e -> availableUnit(ns, spec, e));
    }
    List<String> names = new ArrayList<>();
    byte[] first = end;
    try (KeyValueIterator it = store.range(hints.availableScanStart(ns, spec, prefix), end)) {
      while (it.hasNext() && names.size() < limit) {
        KeyValueIterator.Entry entry = it.next();
        if (names.isEmpty()) {
          first = entry.key();
        }
        names.add(availableUnit(ns, spec, entry));
      }
    }
    hints.scanned(ns, spec, first);
    return names;
  }

  /**
   * The best available units of a spec that {@code accept} takes, in index order, at most {@code limit}, reading
   * at most {@code limit + maxSkipped} index entries: a request for replicas skips the units its host already
   * has, and stops after {@code maxSkipped} of them rather than scan the spec. {@code accept} may read, not write.
   */
  public List<String> bestAvailableUnits(
      String ns, String spec, int limit, int maxSkipped, java.util.function.Predicate<String> accept) {
    byte[] prefix = Keys.availableUnits(ns, spec);
    byte[] end = Keys.prefixEnd(prefix);
    List<String> names = new ArrayList<>();
    byte[] first = end;
    long budget = (long) limit + maxSkipped;
    byte[] start = hints == null ? prefix : hints.availableScanStart(ns, spec, prefix);
    try (KeyValueIterator it = store.range(start, end)) {
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
    if (hints != null) {
      hints.scanned(ns, spec, first);
    }
    return names;
  }

  /**
   * The unit of an available-index entry. The entry carries the unit's stored value when the unit holds no attempt
   * (see {@link CoordinateState#writeUnit}): the store is told, so that reading the unit costs no lookup.
   */
  private String availableUnit(String ns, String spec, KeyValueIterator.Entry entry) {
    String name = Keys.availableUnitName(entry.key(), ns, spec);
    byte[] unitKey = Keys.unit(ns, spec, name);
    if (entry.value().length > 0) {
      store.known(unitKey, entry.value());
    }
    if (!ns.equals(scannedNs) || !spec.equals(scannedSpec)) {
      scannedUnitKeys.clear();
      scannedNs = ns;
      scannedSpec = spec;
    }
    scannedUnitKeys.put(name, unitKey);
    return name;
  }

  /**
   * The key of a unit that a scan of its spec's available index listed, {@code name} being the instance that scan
   * returned, so that a request does not build it twice; else built ({@link Keys#unit}).
   */
  protected byte[] scannedUnitKey(String ns, String spec, String name) {
    byte[] key = ns.equals(scannedNs) && spec.equals(scannedSpec) ? scannedUnitKeys.get(name) : null;
    return key != null ? key : Keys.unit(ns, spec, name);
  }

  public WorkUnitRecord unit(String ns, UnitRef ref) {
    return unit(ns, ref.spec(), ref.name());
  }

  // --- job trees (SEMANTICS §5) ---

  /** A parent's children in one state, in (spec, name) order (parked: by attempt first), at most {@code limit}. */
  public List<UnitRef> children(String ns, UnitRef parent, ChildState state, int limit) {
    byte[] prefix = Keys.children(ns, parent, state);
    return collect(prefix, limit, e -> Keys.childRef(e.key(), prefix, state));
  }

  /** The children parked under one attempt of the parent (0: while it had none). */
  public List<UnitRef> childrenParkedUnder(String ns, UnitRef parent, long attemptSeq) {
    byte[] list = Keys.children(ns, parent, ChildState.PARKED);
    return collect(Keys.childrenParkedUnder(ns, parent, attemptSeq), Integer.MAX_VALUE,
        e -> Keys.childRef(e.key(), list, ChildState.PARKED));
  }

  public List<UnitRef> heirs(String ns, UnitRef predecessor, int limit) {
    byte[] prefix = Keys.heirs(ns, predecessor);
    return collect(prefix, limit, e -> Keys.heirRef(e.key(), prefix));
  }

  /** How many children the unit has in this state: a counter, never a scan. */
  public long childCount(String ns, UnitRef parent, ChildState state) {
    return ValueCodec.decodeLong(store.get(Keys.familyCount(ns, parent, state.code())));
  }

  public long heirCount(String ns, UnitRef predecessor) {
    return ValueCodec.decodeLong(store.get(Keys.familyCount(ns, predecessor, Keys.HEIRS_KIND)));
  }

  // --- attempts ---

  /** An attempt: held by its unit's value (the unit's latest), or in a record of its own. */
  public AttemptRecord attempt(String ns, long seq) {
    byte[] unitKey = attemptUnitKey(ns, seq);
    if (unitKey != null) {
      byte[] stored = unitValue(ns, unitKey);
      if (UnitValue.attemptSeq(stored) == seq) {
        return ValueCodec.decode(UnitValue.attempt(stored), AttemptRecord.class);
      }
    }
    return ValueCodec.decode(store.get(Keys.attempt(ns, seq)), AttemptRecord.class);
  }

  /** The key of the unit whose value holds the attempt, or null (its entry in the attempt's block). */
  protected byte[] attemptUnitKey(String ns, long seq) {
    return AttemptBlocks.unitKeyIn(store.get(Keys.attemptUnitsBlock(ns, AttemptBlocks.block(seq))), seq);
  }

  /** A unit's attempts, oldest first. */
  public List<AttemptRecord> unitAttempts(String ns, String spec, String unit) {
    // the list names the attempts in records of their own; the latest, held by the unit's value, comes last
    List<AttemptRecord> attempts = attemptsOf(Keys.unitAttempts(ns, spec, unit), ns);
    byte[] stored = unitValue(ns, Keys.unit(ns, spec, unit));
    if (UnitValue.hasAttempt(stored)) {
      long held = UnitValue.attemptSeq(stored);
      if (attempts.isEmpty() || attempts.get(attempts.size() - 1).seq() < held) {
        attempts.add(ValueCodec.decode(UnitValue.attempt(stored), AttemptRecord.class));
      }
    }
    return attempts;
  }

  /** A worker's pending attempts, oldest first. */
  public List<AttemptRecord> workerActiveAttempts(String ns, String worker) {
    return attempts(ns, AttemptBlocks.seqsUnder(store, Keys.workerActiveAttempts(ns, worker)));
  }

  /** A worker's attempts, oldest first. */
  public List<AttemptRecord> workerAttempts(String ns, String worker) {
    return attempts(ns, AttemptBlocks.seqsUnder(store, Keys.workerAttempts(ns, worker)));
  }

  // --- workers ---

  public WorkerRecord worker(String ns, String name) {
    return ValueCodec.decode(store.get(Keys.worker(ns, name)), WorkerRecord.class);
  }

  public List<WorkerRecord> workers(String ns) {
    return collect(Keys.allWorkers(ns), Integer.MAX_VALUE, e -> ValueCodec.decode(e.value(), WorkerRecord.class));
  }

  public List<String> workerChildren(String ns, String parent) {
    byte[] prefix = Keys.workerChildren(ns, parent);
    return collect(prefix, Integer.MAX_VALUE, e -> Keys.stringAfter(e.key(), prefix));
  }

  // --- time indexes ---

  /** Delayed units whose not-before time is at or before {@code now}: due for release. */
  public List<Keys.DelayedUnitKey> dueDelayedUnits(long now, int limit) {
    return dueEntries(Keys.delayedUnitsStart(), hints == null ? null : hints.delayed, now + 1, limit,
        (entry, due) -> due.add(Keys.parseDelayedUnit(entry.key())));
  }

  /**
   * Pending attempts whose expiration is strictly before {@code now} ({@code expiration == now} is alive), at most
   * {@code limit}. The index lists them by block: a block taken in part is seen again by the next step.
   */
  public List<Keys.AttemptDeadlineKey> dueAttemptDeadlines(long now, int limit) {
    return dueEntries(Keys.attemptDeadlinesStart(), hints == null ? null : hints.deadlines, now, limit,
        (entry, due) -> {
          Keys.AttemptDeadlineBlockKey key = Keys.parseAttemptDeadlineBlock(entry.key());
          List<Long> seqs = new ArrayList<>();
          AttemptBlocks.addSeqs(key.block(), entry.value(), seqs);
          for (int i = 0; i < seqs.size() && due.size() < limit; i++) {
            due.add(new Keys.AttemptDeadlineKey(key.expiration(), key.namespace(), seqs.get(i)));
          }
        });
  }

  /** Finished or failed units whose purge time ({@code retention}) is at or before {@code now}. */
  public List<Keys.PurgeKey> duePurges(long now, int limit) {
    return dueEntries(Keys.purgesStart(), hints == null ? null : hints.purges, now + 1, limit,
        (entry, due) -> due.add(Keys.parsePurge(entry.key())));
  }

  /** Kept answers whose expiry is at or before {@code now}: due to be forgotten. */
  public List<Keys.AnswerKey> dueAnswers(long now, int limit) {
    return dueEntries(Keys.answerExpiriesStart(), hints == null ? null : hints.answers, now + 1, limit,
        (entry, due) -> due.add(Keys.parseAnswerExpiry(entry.key())));
  }

  /**
   * The answer kept for a command with this {@code request_id} from this requester (see {@link Keys#answer}), or
   * null; one whose time is up ({@code expiresAt <= now}) counts as none, whether or not the time step forgot it yet.
   */
  public Answer answer(String ns, String requester, String type, String requestId, long now) {
    Answer answer = Answer.decode(store.get(Keys.answer(ns, requester, type, requestId)));
    return answer == null || answer.expiresAt() <= now ? null : answer;
  }

  /**
   * The entries of a time index (keys {@code [tag][time]...}) with time before {@code exclusiveBound}, at
   * at most {@code limit}, each entry adding what it lists. With a floor (the engine's), the scan starts there, is skipped when nothing can be
   * due, and looks one entry further to learn when the next one is due.
   */
  private <T> List<T> dueEntries(byte[] indexPrefix, TimeFloor floor, long exclusiveBound, int limit,
      java.util.function.BiConsumer<KeyValueIterator.Entry, List<T>> expand) {
    List<T> due = new ArrayList<>();
    if (floor == null) {
      byte[] end = new KeyWriter().tag(indexPrefix[0]).int64(exclusiveBound).toBytes();
      try (KeyValueIterator it = store.range(indexPrefix, end)) {
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
    try (KeyValueIterator it = store.range(start, Keys.prefixEnd(indexPrefix))) {
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

  // --- helpers ---

  private List<AttemptRecord> attemptsOf(byte[] indexPrefix, String ns) {
    return attempts(ns, collect(indexPrefix, Integer.MAX_VALUE, e -> Keys.trailingSeq(e.key())));
  }

  private List<AttemptRecord> attempts(String ns, List<Long> seqs) {
    List<AttemptRecord> attempts = new ArrayList<>();
    for (Long seq : seqs) {
      AttemptRecord attempt = attempt(ns, seq);
      if (attempt != null) {
        attempts.add(attempt);
      }
    }
    return attempts;
  }

  protected <T> List<T> collect(byte[] prefix, int limit, Function<KeyValueIterator.Entry, T> map) {
    return collect(prefix, Keys.prefixEnd(prefix), limit, map);
  }

  protected <T> List<T> collect(byte[] from, byte[] to, int limit, Function<KeyValueIterator.Entry, T> map) {
    List<T> out = new ArrayList<>();
    if (limit <= 0) {
      return out;
    }
    try (KeyValueIterator it = store.range(from, to)) {
      while (it.hasNext() && out.size() < limit) {
        out.add(map.apply(it.next()));
      }
    }
    return out;
  }

  /** The smallest key strictly greater than {@code key}. */
  private static byte[] successor(byte[] key) {
    byte[] next = Arrays.copyOf(key, key.length + 1);
    return next;
  }
}
