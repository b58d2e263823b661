package io.coordinate.engine.state.codec;

import io.coordinate.engine.state.model.UnitStatus;

/**
 * The keys of the units module: the units ({@link KeyFamily#UNIT}), the available ones by priority
 * ({@link KeyFamily#AVAILABLE}) and by the time they became available ({@link KeyFamily#AVAILABLE_SINCE}), and
 * the counts by status ({@link KeyFamily#COUNT}). A unit's delayed and purge entries are {@link TimeIndexKeys}'.
 * The available units of a group are not in {@link KeyFamily#AVAILABLE} but in {@link KeyFamily#GROUP_AVAILABLE},
 * with the groups that have some by priority ({@link KeyFamily#GROUPS_READY}) and the pending counts per group
 * ({@link KeyFamily#GROUP_PENDING}); a spec's round robin among them goes on from {@link KeyFamily#GROUP_CURSOR}.
 */
public final class UnitKeys {

    private UnitKeys() {}

    /**
     * A unit's key. One step of a unit builds it several times over (the handler, the start or end of its attempt,
     * the write), so each thread keeps the last one it built; a key array is never changed once built.
     */
    public static byte[] unit(String ns, String spec, String unit) {
        UnitKey[] kept = LAST_UNIT.get();
        UnitKey last = kept[0];
        if (last != null && last.unit.equals(unit) && last.spec.equals(spec) && last.ns.equals(ns)) {
            return last.bytes;
        }
        byte[] key = KeyPrefixes.spec(ns, KeyFamily.UNIT, spec).string(unit).toBytes();
        kept[0] = new UnitKey(ns, spec, unit, key);
        return key;
    }

    private record UnitKey(String ns, String spec, String unit, byte[] bytes) {}

    /** The last unit key each thread built: a thread's own, so no thread sees another's. */
    private static final ThreadLocal<UnitKey[]> LAST_UNIT = ThreadLocal.withInitial(() -> new UnitKey[1]);

    public static byte[] units(String ns, String spec) {
        return KeyPrefixes.spec(ns, KeyFamily.UNIT, spec).toBytes();
    }

    public static byte[] available(String ns, String spec, double priority, String unit) {
        return KeyPrefixes.spec(ns, KeyFamily.AVAILABLE, spec)
                .float64Descending(priority)
                .string(unit)
                .toBytes();
    }

    public static byte[] availableUnits(String ns, String spec) {
        return KeyPrefixes.spec(ns, KeyFamily.AVAILABLE, spec).toBytes();
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
        return KeyPrefixes.spec(ns, KeyFamily.AVAILABLE_SINCE, spec)
                .int64(since == null ? Long.MIN_VALUE : since)
                .toBytes();
    }

    public static byte[] availableSinceUnits(String ns, String spec) {
        return KeyPrefixes.spec(ns, KeyFamily.AVAILABLE_SINCE, spec).toBytes();
    }

    /** Where a spec's entries of a known time start: past those of the units whose time is unknown. */
    public static byte[] availableSinceKnown(String ns, String spec) {
        return KeyPrefixes.spec(ns, KeyFamily.AVAILABLE_SINCE, spec)
                .int64(Long.MIN_VALUE + 1)
                .toBytes();
    }

    /** The time in an {@link #availableSince} key of the spec. */
    public static long availableSinceTime(byte[] key, String ns, String spec) {
        return new KeyReader(key, availableSinceUnits(ns, spec).length).int64();
    }

    public static byte[] count(String ns, String spec, UnitStatus status) {
        return KeyPrefixes.spec(ns, KeyFamily.COUNT, spec).tag(status.code()).toBytes();
    }

    public static byte[] counts(String ns, String spec) {
        return KeyPrefixes.spec(ns, KeyFamily.COUNT, spec).toBytes();
    }

    public static UnitStatus countStatus(byte[] key) {
        return UnitStatus.fromCode(key[key.length - 1]);
    }

    /** A grouped unit's entry in {@link KeyFamily#GROUP_AVAILABLE}. */
    public static byte[] groupAvailable(String ns, String spec, String group, double priority, String unit) {
        return KeyPrefixes.spec(ns, KeyFamily.GROUP_AVAILABLE, spec)
                .string(group)
                .float64Descending(priority)
                .string(unit)
                .toBytes();
    }

    /** Where the group's available units of that priority start, in name order. */
    public static byte[] groupAvailableAt(String ns, String spec, String group, double priority) {
        return KeyPrefixes.spec(ns, KeyFamily.GROUP_AVAILABLE, spec)
                .string(group)
                .float64Descending(priority)
                .toBytes();
    }

    public static byte[] groupsAvailable(String ns, String spec) {
        return KeyPrefixes.spec(ns, KeyFamily.GROUP_AVAILABLE, spec).toBytes();
    }

    /** The unit name at the end of a {@link #groupAvailable} key under {@code prefix}, its {@link #groupAvailableAt}. */
    public static String groupAvailableUnitName(byte[] key, byte[] prefix) {
        return new KeyReader(key, prefix.length).string();
    }

    /** A group's entry among the spec's groups with available units of {@code priority}. */
    public static byte[] readyGroup(String ns, String spec, double priority, String group) {
        return KeyPrefixes.spec(ns, KeyFamily.GROUPS_READY, spec)
                .float64Descending(priority)
                .string(group)
                .toBytes();
    }

    /** Where the spec's groups with available units of {@code priority} start, in name order. */
    public static byte[] readyGroupsAt(String ns, String spec, double priority) {
        return KeyPrefixes.spec(ns, KeyFamily.GROUPS_READY, spec)
                .float64Descending(priority)
                .toBytes();
    }

    public static byte[] readyGroups(String ns, String spec) {
        return KeyPrefixes.spec(ns, KeyFamily.GROUPS_READY, spec).toBytes();
    }

    /** The priority in a {@link #readyGroup} key of the spec, whose prefix is {@code prefix}. */
    public static double readyGroupPriority(byte[] key, byte[] prefix) {
        return new KeyReader(key, prefix.length).float64Descending();
    }

    /** The group in a {@link #readyGroup} key of the spec, whose prefix is {@code prefix}. */
    public static String readyGroupName(byte[] key, byte[] prefix) {
        return new KeyReader(key, prefix.length + 8).string();
    }

    public static byte[] groupPending(String ns, String spec, String group) {
        return KeyPrefixes.spec(ns, KeyFamily.GROUP_PENDING, spec).string(group).toBytes();
    }

    public static byte[] groupsPending(String ns, String spec) {
        return KeyPrefixes.spec(ns, KeyFamily.GROUP_PENDING, spec).toBytes();
    }

    public static byte[] groupCursor(String ns, String spec) {
        return KeyPrefixes.spec(ns, KeyFamily.GROUP_CURSOR, spec).toBytes();
    }
}
