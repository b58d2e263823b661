package io.coordinate.engine.state.codec;

import io.coordinate.engine.state.db.IndexRebuild;
import io.coordinate.engine.state.db.SplitStore;
import io.coordinate.engine.state.model.Answer;
import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.engine.state.model.ChildState;
import io.coordinate.engine.state.model.NamespaceRecord;
import io.coordinate.engine.state.model.UnitFamily;
import io.coordinate.engine.state.model.UnitRef;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.engine.state.model.WorkSpecRecord;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.engine.state.model.WorkerRecord;
import io.coordinate.storage.KeyRanges;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The one owner of every key layout of the state. All records and indexes live in one ordered key space, kept in
 * two stores (records and derived indexes, see below); the first byte separates the key spaces:
 *
 * <pre>
 * 01 [ns]                                   namespace registry          → NamespaceRecord
 * 02 [ns]                                   attempt sequence            → long (kept by destroy_namespace)
 * 03 [not_before][ns][spec][unit]           delayed units, by due time  → empty
 * 04 [expiration][ns][block]               pending attempts, by expiry → bitmap of the block ((AttemptBlocks))
 * 05 [purge_at][ns][spec][unit]             finished/failed units to purge (retention) → empty
 * 09 [expires_at][ns][requester][type][request_id]  answers kept for repeats, by expiry → empty
 * 10 [ns] 'S' [spec]                        work spec                   → WorkSpecRecord
 * 10 [ns] 'K' [spec][status]                unit count by status        → long
 * 10 [ns] 'U' [spec][unit]                  work unit                   → WorkUnitRecord + its latest attempt
 * 10 [ns] 'V' [spec][priority desc][unit]   available units, best first → the unit's value (a covering index;
 *                                           empty while the unit's value holds an attempt)
 * 10 [ns] 'T' [spec][since]                how many available units became available at that time, oldest
 *                                           first → long (since: {@link WorkUnitRecord#availableSince}; unknown =
 *                                           Long.MIN_VALUE)
 * 10 [ns] 'H' [spec][unit][attempt seq]     a unit's attempts in records of their own ('A'; not the one its value holds) → empty
 * 10 [ns] 'A' [attempt seq]                 attempt not held by its unit → AttemptRecord
 * 10 [ns] 'X' [block]                      the units holding the block's attempts → their keys ((AttemptBlocks))
 * 10 [ns] 'O' [block]                      layout 3 and before only: units started by the block's attempts
 *                                           → their keys and what the start added (folded into 'U' by a rebuild)
 * 10 [ns] 'R' [requester][type][request_id]  the answer of a command with a request_id ({@link Answer})
 * 10 [ns] 'W' [worker]                      worker                      → WorkerRecord
 * 10 [ns] 'C' [parent][child]               worker children             → empty
 * 10 [ns] 'P' [worker][block]             a worker's active attempts  → bitmap of the block
 * 10 [ns] 'Q' [worker][block]               a worker's attempts         → bitmap of the block
 * 10 [ns] 'F' [parent] 'p' [attempt seq][child]  children parked under an attempt of the parent → empty
 * 10 [ns] 'F' [parent] 'o'|'c' [child]      open / closed children      → empty
 * 10 [ns] 'G' [predecessor][heir]           heirs                       → empty
 * 10 [ns] 'N' [unit] 'p'|'o'|'c'|'h'        counts of those four lists  → long
 * </pre>
 *
 * A unit written here as {@code [unit]} is its spec then its name ({@link UnitRef}). A {@code [block]} is an
 * attempt number divided by 64: the attempt indexes that one request fills for many attempts at once hold one
 * entry per 64 consecutive attempts, whose value tells which of them it lists ((AttemptBlocks)).
 * Family entries and counts are derived from the members' {@link UnitFamily} by
 * the state modules of engine.state.db: nothing else writes them.
 *
 * <p>Two kinds of keys: <b>records</b> (namespaces, sequences, specs, units, attempts, workers, answers: 01, 02, 06
 * and the tags S, U, O, A, W, R) are the truth, kept in a changelogged store; every other key is a <b>derived index</b> (the
 * time indexes, counts, available units, attempt and worker lists, job trees), a function of the records that
 * {@link IndexRebuild} can recompute, kept in a local store with no changelog ({@link SplitStore}). That halves
 * what each state change sends to Kafka.
 *
 * <pre>
 * 06                                        state version (records)     → long, one step per command
 * 07                                        index version (indexes)     → long, equal to 06 when in step
 * 08                                        index layout (indexes)      → long, {@link IndexRebuild#LAYOUT}
 * </pre>
 *
 * Store names and this layout are part of the changelog format: changing them is a migration.
 *
 * <p>The stream thread and the HTTP API's threads build keys through it at once, so what it reuses (the last
 * encoded prefixes and unit key) is kept per thread, never shared.
 */
public final class Keys {

  public static final byte NAMESPACES = 0x01;
  public static final byte SEQUENCES = 0x02;
  public static final byte DELAYED_UNITS = 0x03;
  public static final byte ATTEMPT_DEADLINES = 0x04;
  public static final byte PURGES = 0x05;
  public static final byte STATE_VERSION = 0x06;
  public static final byte INDEX_VERSION = 0x07;
  public static final byte INDEX_LAYOUT = 0x08;
  public static final byte ANSWER_EXPIRIES = 0x09;
  public static final byte NAMESPACE_DATA = 0x10;

  public static final byte SPEC = 'S';
  public static final byte COUNT = 'K';
  public static final byte UNIT = 'U';
  public static final byte AVAILABLE = 'V';
  public static final byte AVAILABLE_SINCE = 'T';
  public static final byte UNIT_ATTEMPTS = 'H';
  public static final byte ATTEMPT = 'A';
  public static final byte ATTEMPT_UNIT = 'X';
  public static final byte STARTED_UNITS = 'O';
  public static final byte WORKER = 'W';
  public static final byte ANSWER = 'R';
  public static final byte WORKER_CHILD = 'C';
  public static final byte WORKER_ACTIVE = 'P';
  public static final byte WORKER_ATTEMPTS = 'Q';
  public static final byte CHILD = 'F';
  public static final byte HEIR = 'G';
  public static final byte FAMILY_COUNT = 'N';
  /** The count kind of the heirs list; the children lists count under their {@link ChildState} code. */
  public static final byte HEIRS_KIND = 'h';

  private Keys() {}

  // --- key spaces across namespaces ---

  public static byte[] namespace(String ns) {
    return new KeyWriter().tag(NAMESPACES).string(ns).toBytes();
  }

  public static byte[] allNamespaces() {
    return new byte[] {NAMESPACES};
  }

  public static String namespaceName(byte[] key) {
    return new KeyReader(key, 1).string();
  }

  public static byte[] sequence(String ns) {
    return new KeyWriter().tag(SEQUENCES).string(ns).toBytes();
  }

  public static byte[] delayedUnit(long notBefore, String ns, String spec, String unit) {
    return new KeyWriter().tag(DELAYED_UNITS).int64(notBefore).string(ns).string(spec).string(unit).toBytes();
  }

  /** The delayed-unit keys due at or before {@code time} start at this key's space and end here. */
  public static byte[] delayedUnitsBefore(long exclusiveTime) {
    return new KeyWriter().tag(DELAYED_UNITS).int64(exclusiveTime).toBytes();
  }

  public static byte[] delayedUnitsStart() {
    return new byte[] {DELAYED_UNITS};
  }

  public static DelayedUnitKey parseDelayedUnit(byte[] key) {
    KeyReader reader = new KeyReader(key, 1);
    long time = reader.int64();
    return new DelayedUnitKey(time, reader.string(), reader.string(), reader.string());
  }

  /** The deadline entry of a block of attempts that expire at {@code expiration}. */
  public static byte[] attemptDeadlineBlock(long expiration, String ns, long block) {
    return new KeyWriter().tag(ATTEMPT_DEADLINES).int64(expiration).string(ns).int64(block).toBytes();
  }

  public static byte[] attemptDeadlinesBefore(long exclusiveTime) {
    return new KeyWriter().tag(ATTEMPT_DEADLINES).int64(exclusiveTime).toBytes();
  }

  public static byte[] attemptDeadlinesStart() {
    return new byte[] {ATTEMPT_DEADLINES};
  }

  public static AttemptDeadlineBlockKey parseAttemptDeadlineBlock(byte[] key) {
    KeyReader reader = new KeyReader(key, 1);
    long time = reader.int64();
    return new AttemptDeadlineBlockKey(time, reader.string(), reader.int64());
  }

  /** A finished or failed unit to purge at {@code purgeAt} (a spec's {@code retention}, docs/replication.md#retention). */
  public static byte[] purge(long purgeAt, String ns, String spec, String unit) {
    return new KeyWriter().tag(PURGES).int64(purgeAt).string(ns).string(spec).string(unit).toBytes();
  }

  public static byte[] purgesBefore(long exclusiveTime) {
    return new KeyWriter().tag(PURGES).int64(exclusiveTime).toBytes();
  }

  public static byte[] purgesStart() {
    return new byte[] {PURGES};
  }

  public static PurgeKey parsePurge(byte[] key) {
    KeyReader reader = new KeyReader(key, 1);
    long time = reader.int64();
    return new PurgeKey(time, reader.string(), reader.string(), reader.string());
  }

  /**
   * When the answer recorded under {@link #answer} expires: the time step forgets the answers due by reading these
   * from the front, as it does the other time indexes.
   */
  public static byte[] answerExpiry(long expiresAt, String ns, String requester, String type, String requestId) {
    return new KeyWriter().tag(ANSWER_EXPIRIES).int64(expiresAt).string(ns).string(requester).string(type)
        .string(requestId).toBytes();
  }

  public static byte[] answerExpiriesStart() {
    return new byte[] {ANSWER_EXPIRIES};
  }

  public static AnswerKey parseAnswerExpiry(byte[] key) {
    KeyReader reader = new KeyReader(key, 1);
    long time = reader.int64();
    return new AnswerKey(time, reader.string(), reader.string(), reader.string(), reader.string());
  }

  // --- records and derived indexes ---

  /** Whether the key is a derived index entry (see the class comment) rather than a record. */
  public static boolean isIndex(byte[] key) {
    if (key.length == 0) {
      return false;
    }
    return switch (key[0]) {
      case NAMESPACES, SEQUENCES, STATE_VERSION -> false;
      case NAMESPACE_DATA -> {
        int tag = dataTagOffset(key);
        yield tag >= 0 && !isRecordTag(key[tag]);
      }
      default -> true;
    };
  }

  /** The end of the group of keys that {@code from} starts in (one top-level space, or one tag of a namespace's
   * data), all of one kind; null when {@code from} is too short to name its group. */
  public static byte[] groupEnd(byte[] from) {
    if (from.length == 0) {
      return null;
    }
    if (from[0] != NAMESPACE_DATA) {
      return new byte[] {(byte) (from[0] + 1)};
    }
    int tag = dataTagOffset(from);
    return tag < 0 ? null : prefixEnd(Arrays.copyOf(from, tag + 1));
  }

  /** Where the tag of a {@code 10 [ns] tag ...} key is; -1 for any other key. */
  public static int namespaceTagOffset(byte[] key) {
    return key.length > 0 && key[0] == NAMESPACE_DATA ? dataTagOffset(key) : -1;
  }

  public static boolean isRecordTag(byte tag) {
    return tag == SPEC || tag == UNIT || tag == STARTED_UNITS || tag == ATTEMPT || tag == WORKER || tag == ANSWER;
  }

  /**
   * What a key is, for reports: the tag of a namespace's data ({@code 'U'} a unit, {@code 'O'} a started-units
   * entry, ...), else its top-level space as two hex digits.
   */
  public static String kind(byte[] key) {
    if (key.length == 0) {
      return "?";
    }
    if (key[0] == NAMESPACE_DATA) {
      int tag = dataTagOffset(key);
      return tag < 0 ? "namespace" : String.valueOf((char) key[tag]);
    }
    return String.format("%02x", key[0]);
  }

  /** Where the tag after {@code 10 [ns]} is, or -1 when the key ends before it. */
  private static int dataTagOffset(byte[] key) {
    for (int i = 1; i + 1 < key.length; i++) {
      if (key[i] == 0) {
        if (key[i + 1] == 1) {
          return i + 2 < key.length ? i + 2 : -1;
        }
        i++; // 0x00 0xFF: an escaped zero byte of the name
      }
    }
    return -1;
  }

  public static byte[] stateVersion() {
    return new byte[] {STATE_VERSION};
  }

  public static byte[] indexVersion() {
    return new byte[] {INDEX_VERSION};
  }

  public static byte[] indexLayout() {
    return new byte[] {INDEX_LAYOUT};
  }

  /** What a record key holds, for {@link IndexRebuild}: a unit, an attempt, a worker, or something else. */
  public static byte recordTag(byte[] key) {
    int tag = namespaceTagOffset(key);
    return tag < 0 ? 0 : key[tag];
  }

  /** The namespace of a {@code 10 [ns] ...} key. */
  public static String dataNamespace(byte[] key) {
    return new KeyReader(key, 1).string();
  }

  // --- one namespace ---

  /** Every key of one namespace's data. */
  public static byte[] namespaceData(String ns) {
    return ns(ns).toBytes();
  }

  public static byte[] spec(String ns, String spec) {
    return specPrefix(ns, SPEC, spec).toBytes();
  }

  public static byte[] allSpecs(String ns) {
    return ns(ns).tag(SPEC).toBytes();
  }

  public static byte[] count(String ns, String spec, UnitStatus status) {
    return specPrefix(ns, COUNT, spec).tag(status.code()).toBytes();
  }

  public static byte[] counts(String ns, String spec) {
    return specPrefix(ns, COUNT, spec).toBytes();
  }

  public static UnitStatus countStatus(byte[] key) {
    return UnitStatus.fromCode(key[key.length - 1]);
  }

  /**
   * A unit's key. One step of a unit builds it several times over (the handler, the start or end of its attempt,
   * the write), so each thread keeps the last one it built; a key array is never changed once built.
   */
  public static byte[] unit(String ns, String spec, String unit) {
    Memo memo = MEMO.get();
    UnitKey last = memo.unit;
    if (last != null && last.unit.equals(unit) && last.spec.equals(spec) && last.ns.equals(ns)) {
      return last.bytes;
    }
    byte[] key = specPrefix(memo, ns, UNIT, spec).string(unit).toBytes();
    memo.unit = new UnitKey(ns, spec, unit, key);
    return key;
  }

  private record UnitKey(String ns, String spec, String unit, byte[] bytes) {}

  public static byte[] units(String ns, String spec) {
    return specPrefix(ns, UNIT, spec).toBytes();
  }

  public static byte[] available(String ns, String spec, double priority, String unit) {
    return specPrefix(ns, AVAILABLE, spec).float64Descending(priority).string(unit).toBytes();
  }

  public static byte[] availableUnits(String ns, String spec) {
    return specPrefix(ns, AVAILABLE, spec).toBytes();
  }

  /** The unit name at the end of an {@link #available} key. */
  public static String availableUnitName(byte[] key, String ns, String spec) {
    int offset = availableUnits(ns, spec).length + 8;
    return new KeyReader(key, offset).string();
  }

  /**
   * The count of a spec's available units that became available at {@code since}: the first entry of a spec is
   * its oldest waiting units'. A count rather than an entry per unit, so that a batch added at once, or started
   * from one such time, moves one key. Units whose time is unknown (stored before units had one) count first,
   * under {@link Long#MIN_VALUE}.
   */
  public static byte[] availableSince(String ns, String spec, Long since) {
    return specPrefix(ns, AVAILABLE_SINCE, spec).int64(since == null ? Long.MIN_VALUE : since).toBytes();
  }

  public static byte[] availableSinceUnits(String ns, String spec) {
    return specPrefix(ns, AVAILABLE_SINCE, spec).toBytes();
  }

  /** Where a spec's entries of a known time start: past those of the units whose time is unknown. */
  public static byte[] availableSinceKnown(String ns, String spec) {
    return specPrefix(ns, AVAILABLE_SINCE, spec).int64(Long.MIN_VALUE + 1).toBytes();
  }

  /** The time in an {@link #availableSince} key of the spec. */
  public static long availableSinceTime(byte[] key, String ns, String spec) {
    return new KeyReader(key, availableSinceUnits(ns, spec).length).int64();
  }

  public static byte[] unitAttempt(String ns, String spec, String unit, long attemptSeq) {
    return specPrefix(ns, UNIT_ATTEMPTS, spec).string(unit).int64(attemptSeq).toBytes();
  }

  public static byte[] unitAttempts(String ns, String spec, String unit) {
    return specPrefix(ns, UNIT_ATTEMPTS, spec).string(unit).toBytes();
  }

  public static byte[] attempt(String ns, long attemptSeq) {
    return ns(ns).tag(ATTEMPT).int64(attemptSeq).toBytes();
  }

  /** Index entry: which units' values hold the attempts of a block (see {@link UnitValue}). */
  public static byte[] attemptUnitsBlock(String ns, long block) {
    return ns(ns).tag(ATTEMPT_UNIT).int64(block).toBytes();
  }

  /** A namespace's started-units entries, which stores of index layout 3 and before hold. */
  public static byte[] startedUnitsBlocks(String ns) {
    return ns(ns).tag(STARTED_UNITS).toBytes();
  }

  /**
   * The answer of a command that carried a {@code request_id}: by its requester (the worker of a
   * {@code request_attempts}, the {@code reply_to} of any other command) and its type, so that two clients' ids
   * never meet.
   */
  public static byte[] answer(String ns, String requester, String type, String requestId) {
    return ns(ns).tag(ANSWER).string(requester).string(type).string(requestId).toBytes();
  }

  /** The names in an {@link #answer} key, with the expiry its record holds. */
  public static AnswerKey parseAnswer(byte[] key, long expiresAt) {
    KeyReader reader = new KeyReader(key, 1);
    String ns = reader.string();
    reader.tag();
    return new AnswerKey(expiresAt, ns, reader.string(), reader.string(), reader.string());
  }

  public static byte[] worker(String ns, String worker) {
    return ns(ns).tag(WORKER).string(worker).toBytes();
  }

  public static byte[] allWorkers(String ns) {
    return ns(ns).tag(WORKER).toBytes();
  }

  public static byte[] workerChild(String ns, String parent, String child) {
    return ns(ns).tag(WORKER_CHILD).string(parent).string(child).toBytes();
  }

  public static byte[] workerChildren(String ns, String parent) {
    return ns(ns).tag(WORKER_CHILD).string(parent).toBytes();
  }

  public static byte[] workerActiveBlock(String ns, String worker, long block) {
    return ns(ns).tag(WORKER_ACTIVE).string(worker).int64(block).toBytes();
  }

  public static byte[] workerActiveAttempts(String ns, String worker) {
    return ns(ns).tag(WORKER_ACTIVE).string(worker).toBytes();
  }

  public static byte[] workerAttemptBlock(String ns, String worker, long block) {
    return ns(ns).tag(WORKER_ATTEMPTS).string(worker).int64(block).toBytes();
  }

  public static byte[] workerAttempts(String ns, String worker) {
    return ns(ns).tag(WORKER_ATTEMPTS).string(worker).toBytes();
  }

  // --- job trees (docs/children-and-heirs.md) ---

  /** A child's entry under its parent; {@code parkedUnder} is only part of the key for {@code PARKED}. */
  public static byte[] child(String ns, UnitRef parent, ChildState state, long parkedUnder, UnitRef child) {
    KeyWriter key = ns(ns).tag(CHILD).string(parent.spec()).string(parent.name()).tag(state.code());
    if (state == ChildState.PARKED) {
      key.int64(parkedUnder);
    }
    return key.string(child.spec()).string(child.name()).toBytes();
  }

  /** The entries of one of a parent's three lists. */
  public static byte[] children(String ns, UnitRef parent, ChildState state) {
    return ns(ns).tag(CHILD).string(parent.spec()).string(parent.name()).tag(state.code()).toBytes();
  }

  public static byte[] childrenParkedUnder(String ns, UnitRef parent, long attemptSeq) {
    return ns(ns).tag(CHILD).string(parent.spec()).string(parent.name()).tag(ChildState.PARKED.code())
        .int64(attemptSeq).toBytes();
  }

  /** The child named by an entry found under {@link #children}{@code (ns, parent, state)}. */
  public static UnitRef childRef(byte[] key, byte[] listPrefix, ChildState state) {
    KeyReader reader = new KeyReader(key, listPrefix.length);
    if (state == ChildState.PARKED) {
      reader.int64();
    }
    return new UnitRef(reader.string(), reader.string());
  }

  public static byte[] heir(String ns, UnitRef predecessor, UnitRef heir) {
    return ns(ns).tag(HEIR).string(predecessor.spec()).string(predecessor.name()).string(heir.spec())
        .string(heir.name()).toBytes();
  }

  public static byte[] heirs(String ns, UnitRef predecessor) {
    return ns(ns).tag(HEIR).string(predecessor.spec()).string(predecessor.name()).toBytes();
  }

  public static UnitRef heirRef(byte[] key, byte[] heirsPrefix) {
    KeyReader reader = new KeyReader(key, heirsPrefix.length);
    return new UnitRef(reader.string(), reader.string());
  }

  /** How many entries a unit's list holds: {@code kind} is a {@link ChildState} code or {@link #HEIRS_KIND}. */
  public static byte[] familyCount(String ns, UnitRef unit, byte kind) {
    return ns(ns).tag(FAMILY_COUNT).string(unit.spec()).string(unit.name()).tag(kind).toBytes();
  }

  /** Everything a unit holds as parent or predecessor: its lists and their counts. */
  public static List<byte[]> familyOf(String ns, UnitRef unit) {
    return List.of(
        ns(ns).tag(CHILD).string(unit.spec()).string(unit.name()).toBytes(),
        heirs(ns, unit),
        ns(ns).tag(FAMILY_COUNT).string(unit.spec()).string(unit.name()).toBytes());
  }

  /** The string that follows {@code prefix} in {@code key}: a child name, a unit name, ... */
  public static String stringAfter(byte[] key, byte[] prefix) {
    return new KeyReader(key, prefix.length).string();
  }

  /** The attempt sequence number (or block number) at the end of a key. */
  public static long trailingSeq(byte[] key) {
    return new KeyReader(key, key.length - 8).int64();
  }

  /** The smallest key greater than every key starting with {@code prefix}. */
  public static byte[] prefixEnd(byte[] prefix) {
    return KeyRanges.prefixEnd(prefix);
  }

  static KeyWriter ns(String ns) {
    return ns(MEMO.get(), ns);
  }

  private static KeyWriter ns(Memo memo, String ns) {
    Prefix last = memo.namespace;
    if (last == null || !last.matches(ns, null)) {
      last = new Prefix(ns, null, new KeyWriter().tag(NAMESPACE_DATA).string(ns).toBytes());
      memo.namespace = last;
    }
    return new KeyWriter(last.bytes);
  }

  /**
   * {@code 10 [ns] tag [spec]}, the start of a spec's units, available units, counts and attempt lists: a command's
   * keys nearly all share their namespace and spec, so the last prefix of each tag is kept encoded.
   */
  private static KeyWriter specPrefix(String ns, byte tag, String spec) {
    return specPrefix(MEMO.get(), ns, tag, spec);
  }

  private static KeyWriter specPrefix(Memo memo, String ns, byte tag, String spec) {
    Prefix last = memo.spec[tag & 0xFF];
    if (last == null || !last.matches(ns, spec)) {
      last = new Prefix(ns, spec, ns(memo, ns).tag(tag).string(spec).toBytes());
      memo.spec[tag & 0xFF] = last;
    }
    return new KeyWriter(last.bytes);
  }

  /** An encoded key prefix and the names it encodes. */
  private record Prefix(String ns, String spec, byte[] bytes) {
    boolean matches(String ns, String spec) {
      return this.ns.equals(ns) && Objects.equals(this.spec, spec);
    }
  }

  /** The last prefixes and unit key one thread encoded: each thread keeps its own, so none sees another's. */
  private static final class Memo {
    UnitKey unit;
    Prefix namespace;
    final Prefix[] spec = new Prefix[256];
  }

  // Encoding the names again for every key of a command cost the engine a visible share of its time per unit.
  private static final ThreadLocal<Memo> MEMO = ThreadLocal.withInitial(Memo::new);

  /** A parsed {@link #delayedUnit} key. */
  public record DelayedUnitKey(long notBefore, String namespace, String spec, String unit) {}

  /** A pending attempt due at {@code expiration}, one of those an {@link #attemptDeadlineBlock} entry lists. */
  public record AttemptDeadlineKey(long expiration, String namespace, long attemptSeq) {}

  /** A parsed {@link #attemptDeadlineBlock} key. */
  public record AttemptDeadlineBlockKey(long expiration, String namespace, long block) {}

  /** A parsed {@link #answerExpiry} key: the {@link #answer} it names and when it expires. */
  public record AnswerKey(long expiresAt, String namespace, String requester, String type, String requestId) {
    public byte[] answerKey() {
      return answer(namespace, requester, type, requestId);
    }

    public byte[] expiryKey() {
      return answerExpiry(expiresAt, namespace, requester, type, requestId);
    }
  }

  /** A parsed {@link #purge} key. */
  public record PurgeKey(long purgeAt, String namespace, String spec, String unit) {}
}
