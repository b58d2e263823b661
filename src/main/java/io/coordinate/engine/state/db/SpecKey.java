package io.coordinate.engine.state.db;

/** A spec by namespace and name: a key of the modules' per-spec maps. */
record SpecKey(String ns, String name) {
    boolean is(String otherNs, String otherName) {
        return ns.equals(otherNs) && name.equals(otherName);
    }
}
