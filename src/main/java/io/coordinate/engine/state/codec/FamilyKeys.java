package io.coordinate.engine.state.codec;

import io.coordinate.engine.state.model.ChildState;
import io.coordinate.engine.state.model.UnitRef;
import java.util.List;

/**
 * The keys of the job trees (the family module): a parent's children ({@link KeyFamily#CHILD}), a predecessor's
 * heirs ({@link KeyFamily#HEIR}) and the counts of those lists ({@link KeyFamily#FAMILY_COUNT}). All are derived
 * from the members' family links by the state modules: nothing else writes them.
 */
public final class FamilyKeys {

    /** The count kind of the heirs list; the children lists count under their {@link ChildState} code. */
    public static final byte HEIRS_KIND = 'h';

    private FamilyKeys() {}

    /** A child's entry under its parent; {@code parkedUnder} is only part of the key for {@code PARKED}. */
    public static byte[] child(String ns, UnitRef parent, ChildState state, long parkedUnder, UnitRef child) {
        KeyWriter key = of(ns, KeyFamily.CHILD, parent).tag(state.code());
        if (state == ChildState.PARKED) {
            key.int64(parkedUnder);
        }
        return key.string(child.spec()).string(child.name()).toBytes();
    }

    /** The entries of one of a parent's three lists. */
    public static byte[] children(String ns, UnitRef parent, ChildState state) {
        return of(ns, KeyFamily.CHILD, parent).tag(state.code()).toBytes();
    }

    public static byte[] childrenParkedUnder(String ns, UnitRef parent, long attemptSeq) {
        return of(ns, KeyFamily.CHILD, parent)
                .tag(ChildState.PARKED.code())
                .int64(attemptSeq)
                .toBytes();
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
        return of(ns, KeyFamily.HEIR, predecessor)
                .string(heir.spec())
                .string(heir.name())
                .toBytes();
    }

    public static byte[] heirs(String ns, UnitRef predecessor) {
        return of(ns, KeyFamily.HEIR, predecessor).toBytes();
    }

    public static UnitRef heirRef(byte[] key, byte[] heirsPrefix) {
        KeyReader reader = new KeyReader(key, heirsPrefix.length);
        return new UnitRef(reader.string(), reader.string());
    }

    /** How many entries a unit's list holds: {@code kind} is a {@link ChildState} code or {@link #HEIRS_KIND}. */
    public static byte[] familyCount(String ns, UnitRef unit, byte kind) {
        return of(ns, KeyFamily.FAMILY_COUNT, unit).tag(kind).toBytes();
    }

    /** Everything a unit holds as parent or predecessor: its lists and their counts. */
    public static List<byte[]> familyOf(String ns, UnitRef unit) {
        return List.of(
                of(ns, KeyFamily.CHILD, unit).toBytes(),
                heirs(ns, unit),
                of(ns, KeyFamily.FAMILY_COUNT, unit).toBytes());
    }

    /** {@code 10 [ns] tag [unit]}: the start of the unit's entries of that family. */
    private static KeyWriter of(String ns, KeyFamily family, UnitRef unit) {
        return KeyPrefixes.namespace(ns, family).string(unit.spec()).string(unit.name());
    }
}
