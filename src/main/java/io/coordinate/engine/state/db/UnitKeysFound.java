package io.coordinate.engine.state.db;

import java.util.HashMap;
import java.util.Map;

/**
 * The keys of units that one command found in an index, by name, for one spec at a time (the last one): a scan of
 * the available index lists each unit with its key and its entry's, and an attempt's entry names its unit's key. A
 * request then reads and starts each unit it hands out, and a finish reads each unit it finishes, by keys built
 * once. A unit's keys go at its first write, which may move its available entry.
 */
final class UnitKeysFound {

    /** A unit's key and its entry's in the available index ({@code 'V'}, null when not found by a scan). */
    record Keys(byte[] unit, byte[] available) {}

    private final Map<String, Keys> found = new HashMap<>();
    private String ns;
    private String spec;

    /** A unit listed by a scan of the spec's available index, with its entry's key. */
    void listed(String ns, String spec, String name, byte[] unitKey, byte[] availableKey) {
        if (!ns.equals(this.ns) || !spec.equals(this.spec)) {
            found.clear();
            this.ns = ns;
            this.spec = spec;
        }
        found.put(name, new Keys(unitKey, availableKey));
    }

    /** A unit named by an attempt's entry. */
    void named(String ns, String spec, String name, byte[] unitKey) {
        Keys keys = get(ns, spec, name);
        if (keys == null) {
            listed(ns, spec, name, unitKey, null);
        }
    }

    /** The unit's keys if this command found it and did not write it since, else null. */
    Keys get(String ns, String spec, String name) {
        return !found.isEmpty() && ns.equals(this.ns) && spec.equals(this.spec) ? found.get(name) : null;
    }

    /** {@link #get}, forgotten: the unit is being written. */
    Keys take(String ns, String spec, String name) {
        Keys keys = get(ns, spec, name);
        if (keys != null) {
            found.remove(name);
        }
        return keys;
    }
}
