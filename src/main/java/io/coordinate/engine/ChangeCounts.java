package io.coordinate.engine;

import java.util.Arrays;

/**
 * How many units and attempts a command (or a time step) moved, by kind, per namespace and spec: what the app's
 * metrics count, kept beside the events so that nobody has to read the events' JSON back. A command nearly always
 * touches one spec, so the entries are a short list searched from the last one used.
 */
public final class ChangeCounts {

    /** The changes counted. */
    public enum Kind {
        /** A unit created (not one brought back by an add of its name: that is a status change). */
        UNIT_ADDED,
        /** A unit's status became finished. */
        UNIT_FINISHED,
        /** A unit's status became failed. */
        UNIT_FAILED,
        /** An attempt ended {@code retryable}: its unit waits to be tried again. */
        UNIT_RETRIED,
        ATTEMPT_STARTED,
        ATTEMPT_EXPIRED,
        /** A replica's validate state became valid or invalid. */
        REPLICA_VALIDATED,
        UNIT_ASSIMILATED,
        /** An attempt failed, permanently or as retryable (docs/reference.md#retries). */
        ATTEMPT_FAILED,
        /** A spec's retry policy scheduled a unit's next attempt. */
        RETRY_SCHEDULED,
        /** A spec's retry policy ran out of attempts for a unit, which failed. */
        RETRIES_EXHAUSTED
    }

    private static final int KINDS = Kind.values().length;

    /** Nothing counted: the result of a command that moved no unit. Never added to. */
    static final ChangeCounts NONE = new ChangeCounts(0);

    private String[] namespaces;
    private String[] specs;
    private int[] counts;
    private int size;
    private int last;

    ChangeCounts() {
        this(2);
    }

    private ChangeCounts(int capacity) {
        namespaces = new String[capacity];
        specs = new String[capacity];
        counts = new int[capacity * KINDS];
    }

    void add(String ns, String spec, Kind kind) {
        add(ns, spec, kind.ordinal(), 1);
    }

    private void add(String ns, String spec, int kind, int n) {
        int entry = entry(ns, spec);
        counts[entry * KINDS + kind] += n;
    }

    private int entry(String ns, String spec) {
        if (size > 0 && spec.equals(specs[last]) && ns.equals(namespaces[last])) {
            return last;
        }
        for (int i = 0; i < size; i++) {
            if (spec.equals(specs[i]) && ns.equals(namespaces[i])) {
                return last = i;
            }
        }
        if (size == namespaces.length) {
            int capacity = Math.max(2, size * 2);
            namespaces = Arrays.copyOf(namespaces, capacity);
            specs = Arrays.copyOf(specs, capacity);
            counts = Arrays.copyOf(counts, capacity * KINDS);
        }
        namespaces[size] = ns;
        specs[size] = spec;
        return last = size++;
    }

    /** How many (namespace, spec) entries there are. */
    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public String namespace(int entry) {
        return namespaces[entry];
    }

    public String spec(int entry) {
        return specs[entry];
    }

    public int count(int entry, Kind kind) {
        return counts[entry * KINDS + kind.ordinal()];
    }

    /** These counts and then {@code other}'s, in a new object (a command's own after its time step's). */
    ChangeCounts plus(ChangeCounts other) {
        if (other.isEmpty()) {
            return this;
        }
        if (isEmpty()) {
            return other;
        }
        ChangeCounts sum = new ChangeCounts(size + other.size);
        for (ChangeCounts part : new ChangeCounts[] {this, other}) {
            for (int i = 0; i < part.size; i++) {
                for (int k = 0; k < KINDS; k++) {
                    int n = part.counts[i * KINDS + k];
                    if (n != 0) {
                        sum.add(part.namespaces[i], part.specs[i], k, n);
                    }
                }
            }
        }
        return sum;
    }
}
