package io.coordinate.engine.state.codec;

import static io.coordinate.engine.state.codec.KeyFamily.Kind.INDEX;
import static io.coordinate.engine.state.codec.KeyFamily.Kind.RECORD;
import static io.coordinate.engine.state.codec.KeyFamily.Space.NAMESPACE;
import static io.coordinate.engine.state.codec.KeyFamily.Space.TOP;

/**
 * Every family of keys of the state, with its tag byte and its kind: the one list that routes a key to its store.
 * A top-level family's tag is the key's first byte; a namespace's families live under {@code 10 [ns]}
 * ({@link KeySpace#NAMESPACE_DATA}) and their tag follows it. {@code [unit]} is a unit's spec then its name; a
 * {@code [block]} is an attempt number divided by 64 (an entry per 64 consecutive attempts, its value telling which
 * of them it lists). Each module's class ({@code UnitKeys}, {@code AttemptKeys}, ...) builds and parses its
 * families' keys.
 *
 * <p><b>Records</b> are the truth, kept in a changelogged store; <b>indexes</b> are derived from them, kept in a
 * local store with no changelog and derived again from the records when lost (the index rebuild of the state
 * layer). A key of no family counts as an index: only the records listed here are kept. Store names and these
 * layouts are part of the changelog format: changing one is a migration, adding a family is one constant here, its
 * builders in its module's class, and its sample in {@code StoredKeysGoldenTest}.
 */
public enum KeyFamily {
    /** {@code 01 [ns]} → the namespace's record ({@link NamespaceKeys}). */
    NAMESPACES(TOP, 0x01, RECORD),
    /** {@code 02 [ns]} → the last attempt number, kept when the namespace is destroyed ({@link AttemptKeys}). */
    SEQUENCES(TOP, 0x02, RECORD),
    /** {@code 03 [not_before][ns][spec][unit]} → empty: delayed units by due time ({@link TimeIndexKeys}). */
    DELAYED_UNITS(TOP, 0x03, INDEX),
    /** {@code 04 [expiration][ns][block]} → bitmap of the block: pending attempts by expiry ({@link TimeIndexKeys}). */
    ATTEMPT_DEADLINES(TOP, 0x04, INDEX),
    /** {@code 05 [purge_at][ns][spec][unit]} → empty: finished or failed units to purge ({@link TimeIndexKeys}). */
    PURGES(TOP, 0x05, INDEX),
    /** {@code 06} → the records' version, one step per command ({@link KeySpace}). */
    STATE_VERSION(TOP, 0x06, RECORD),
    /** {@code 07} → the version the indexes were derived at, equal to 06 when in step ({@link KeySpace}). */
    INDEX_VERSION(TOP, 0x07, INDEX),
    /** {@code 08} → the indexes' layout ({@link KeySpace}). */
    INDEX_LAYOUT(TOP, 0x08, INDEX),
    /** {@code 09 [expires_at][ns][requester][type][request_id]} → empty: answers by expiry ({@link AnswerKeys}). */
    ANSWER_EXPIRIES(TOP, 0x09, INDEX),
    /** {@code 0A [next_fire][ns][spec]} → empty: scheduled specs by their next fire time ({@link TimeIndexKeys}). */
    SCHEDULE_FIRES(TOP, 0x0A, INDEX),

    /** {@code 10 [ns] 'S' [spec]} → the work spec ({@link SpecKeys}). */
    SPEC(NAMESPACE, 'S', RECORD),
    /** {@code 10 [ns] 'K' [spec][status]} → how many of the spec's units have that status ({@link UnitKeys}). */
    COUNT(NAMESPACE, 'K', INDEX),
    /** {@code 10 [ns] 'U' [spec][unit]} → the unit with its latest attempt ({@link UnitKeys}). */
    UNIT(NAMESPACE, 'U', RECORD),
    /** {@code 10 [ns] 'V' [spec][priority desc][unit]} → available units best first, covering ({@link UnitKeys}). */
    AVAILABLE(NAMESPACE, 'V', INDEX),
    /** {@code 10 [ns] 'T' [spec][since]} → how many available units became available then ({@link UnitKeys}). */
    AVAILABLE_SINCE(NAMESPACE, 'T', INDEX),
    /** {@code 10 [ns] 'H' [spec][unit][attempt]} → empty: a unit's attempts with a record ({@link AttemptKeys}). */
    UNIT_ATTEMPTS(NAMESPACE, 'H', INDEX),
    /** {@code 10 [ns] 'A' [attempt]} → an attempt its unit does not hold ({@link AttemptKeys}). */
    ATTEMPT(NAMESPACE, 'A', RECORD),
    /** {@code 10 [ns] 'X' [block]} → the units holding the block's attempts ({@link AttemptKeys}). */
    ATTEMPT_UNITS(NAMESPACE, 'X', INDEX),
    /** {@code 10 [ns] 'O' [block]}, index layout 3 and before: units its attempts started, with what each start added. */
    STARTED_UNITS(NAMESPACE, 'O', RECORD),
    /** {@code 10 [ns] 'W' [worker]} → the worker ({@link WorkerKeys}). */
    WORKER(NAMESPACE, 'W', RECORD),
    /** {@code 10 [ns] 'R' [requester][type][request_id]} → a command's answer, kept for repeats ({@link AnswerKeys}). */
    ANSWER(NAMESPACE, 'R', RECORD),
    /** {@code 10 [ns] 'C' [parent][child]} → empty: a worker's children ({@link WorkerKeys}). */
    WORKER_CHILD(NAMESPACE, 'C', INDEX),
    /** {@code 10 [ns] 'P' [worker][block]} → the block's bitmap: a worker's active attempts ({@link AttemptKeys}). */
    WORKER_ACTIVE(NAMESPACE, 'P', INDEX),
    /** {@code 10 [ns] 'Q' [worker][block]} → the block's bitmap: a worker's attempts ({@link AttemptKeys}). */
    WORKER_ATTEMPTS(NAMESPACE, 'Q', INDEX),
    /**
     * {@code 10 [ns] 'F' [parent] 'p' [attempt][child]} children parked under an attempt of the parent, {@code 'o'|'c'
     * [child]} open and closed children → empty ({@link FamilyKeys}).
     */
    CHILD(NAMESPACE, 'F', INDEX),
    /** {@code 10 [ns] 'G' [predecessor][heir]} → empty ({@link FamilyKeys}). */
    HEIR(NAMESPACE, 'G', INDEX),
    /** {@code 10 [ns] 'N' [unit] 'p'|'o'|'c'|'h'} → the number of entries of each of its lists ({@link FamilyKeys}). */
    FAMILY_COUNT(NAMESPACE, 'N', INDEX),
    /** {@code 10 [ns] 'Y' [spec]} → the spec's next free retry slot, epoch millis ({@link SpecKeys}). */
    RETRY_SLOT(NAMESPACE, 'Y', RECORD),
    /** {@code 10 [ns] 'Z' [spec]} → the spec's cron schedule and its next fire time ({@link SpecKeys}). */
    SCHEDULE(NAMESPACE, 'Z', RECORD),
    /** {@code 10 [ns] 'L' [spec]} → the spec's rate-limit tokens and when they were counted ({@link SpecKeys}). */
    RATE_LIMIT_TOKENS(NAMESPACE, 'L', RECORD),
    /** {@code 10 [ns] 'g' [spec][group][priority desc][unit]} → empty: a group's available units ({@link UnitKeys}). */
    GROUP_AVAILABLE(NAMESPACE, 'g', INDEX),
    /** {@code 10 [ns] 'j' [spec][priority desc][group]} → how many of its units are available ({@link UnitKeys}). */
    GROUPS_READY(NAMESPACE, 'j', INDEX),
    /** {@code 10 [ns] 'k' [spec][group]} → how many of the group's units are pending ({@link UnitKeys}). */
    GROUP_PENDING(NAMESPACE, 'k', INDEX),
    /** {@code 10 [ns] 'z' [spec]} → the group the spec's last request took a unit from ({@link UnitKeys}). */
    GROUP_CURSOR(NAMESPACE, 'z', RECORD),
    /**
     * {@code 10 [ns] 'l' [spec][group]} → the group's {@code group_rate_limit} tokens and when they were counted
     * ({@link SpecKeys}).
     */
    GROUP_RATE_LIMIT_TOKENS(NAMESPACE, 'l', RECORD);

    /** Whether a family's keys are records or derived indexes. */
    public enum Kind {
        RECORD,
        INDEX
    }

    /** Where a family's tag is: a key's first byte, or the byte after {@code 10 [ns]}. */
    public enum Space {
        TOP,
        NAMESPACE
    }

    private static final KeyFamily[] TOP_LEVEL = new KeyFamily[256];
    private static final KeyFamily[] IN_NAMESPACE = new KeyFamily[256];

    static {
        for (KeyFamily family : values()) {
            KeyFamily[] byTag = family.space == TOP ? TOP_LEVEL : IN_NAMESPACE;
            if (byTag[family.tag & 0xFF] != null || family.space == TOP && family.tag == KeySpace.NAMESPACE_DATA) {
                throw new IllegalStateException(family + " takes a tag already taken: " + (char) family.tag);
            }
            byTag[family.tag & 0xFF] = family;
        }
    }

    private final Space space;
    private final byte tag;
    private final Kind kind;

    KeyFamily(Space space, int tag, Kind kind) {
        this.space = space;
        this.tag = (byte) tag;
        this.kind = kind;
    }

    public byte tag() {
        return tag;
    }

    public Space space() {
        return space;
    }

    public Kind kind() {
        return kind;
    }

    public boolean isIndex() {
        return kind == INDEX;
    }

    /** The family of a key; null for a key of none (empty, an unknown tag, a namespace's prefix alone). */
    public static KeyFamily of(byte[] key) {
        if (key.length == 0) {
            return null;
        }
        if (key[0] != KeySpace.NAMESPACE_DATA) {
            return TOP_LEVEL[key[0] & 0xFF];
        }
        int tag = KeySpace.namespaceTagOffset(key);
        return tag < 0 ? null : IN_NAMESPACE[key[tag] & 0xFF];
    }

    /** Whether the key is a derived index entry rather than a record: every key of no family is, but a prefix. */
    public static boolean isIndex(byte[] key) {
        KeyFamily family = of(key);
        if (family != null) {
            return family.isIndex();
        }
        return key.length > 0 && (key[0] != KeySpace.NAMESPACE_DATA || KeySpace.namespaceTagOffset(key) >= 0);
    }

    /** Whether the tag after {@code 10 [ns]} is a record family's. */
    public static boolean isRecordTag(byte tag) {
        KeyFamily family = IN_NAMESPACE[tag & 0xFF];
        return family != null && family.kind == RECORD;
    }

    /**
     * What a key is, for reports: the tag of a namespace's data ({@code 'U'} a unit, {@code 'A'} an attempt, ...),
     * else its top-level space as two hex digits.
     */
    public static String kind(byte[] key) {
        if (key.length == 0) {
            return "?";
        }
        if (key[0] == KeySpace.NAMESPACE_DATA) {
            int tag = KeySpace.namespaceTagOffset(key);
            return tag < 0 ? "namespace" : String.valueOf((char) key[tag]);
        }
        return String.format("%02x", key[0]);
    }
}
