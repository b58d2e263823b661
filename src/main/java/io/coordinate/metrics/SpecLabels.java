package io.coordinate.metrics;

import io.micrometer.core.instrument.Tags;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The label values of each namespace's and each (namespace, work spec) pair's series, under two caps, so that the
 * series stay bounded whatever the number of namespaces and specs. The first {@code maxNamespaces} namespaces get
 * their own {@code namespace} label; every later one is summed into {@code namespace="_other",work_spec="_other"}.
 * Within the labelled namespaces, the first {@code maxSpecs} pairs get their own; every later pair is summed into
 * its namespace's {@code work_spec="_other"}. A namespace or pair keeps its labels until it is released (gone from
 * this instance), which frees its place.
 */
final class SpecLabels {

    static final String OTHER = "_other";

    /** A pair's label values; {@code own} false when they are a {@code _other} sum. */
    record Labels(String namespace, String spec, boolean own, Tags tags) {
        Labels(String namespace, String spec, boolean own) {
            this(namespace, spec, own, Tags.of("namespace", namespace, "work_spec", spec));
        }
    }

    /** The labels of every pair of the namespaces past the cap. */
    static final Labels OTHER_NAMESPACES = new Labels(OTHER, OTHER, false);

    private final int maxSpecs;
    private final int maxNamespaces;
    private final Set<String> ownNamespaces = new HashSet<>();
    private final Set<String> ownPairs = new HashSet<>();
    /** By the namespace label of the sum: how many pairs it holds. */
    private final Map<String, Integer> otherPairs = new HashMap<>();

    SpecLabels(int maxSpecs, int maxNamespaces) {
        this.maxSpecs = maxSpecs;
        this.maxNamespaces = maxNamespaces;
    }

    /**
     * The namespace's label: its name while there is room, else {@code _other}. A namespace named {@code _other} takes
     * no place: its series are those of the sum anyway.
     */
    synchronized String assignNamespace(String ns) {
        if (!ns.equals(OTHER) && ownNamespaces.size() < maxNamespaces && ownNamespaces.add(ns)) {
            return ns;
        }
        return OTHER;
    }

    /** Frees the place of a namespace given {@code label} by {@link #assignNamespace}. */
    synchronized void releaseNamespace(String ns, String label) {
        if (!label.equals(OTHER)) {
            ownNamespaces.remove(ns);
        }
    }

    /** The labels of a pair of namespace {@code ns}, labelled {@code namespaceLabel}. */
    synchronized Labels assign(String ns, String namespaceLabel, String spec) {
        if (namespaceLabel.equals(OTHER)) {
            otherPairs.merge(OTHER, 1, Integer::sum);
            return OTHER_NAMESPACES;
        }
        if (ownPairs.size() < maxSpecs && ownPairs.add(key(ns, spec))) {
            return new Labels(ns, spec, true);
        }
        otherPairs.merge(ns, 1, Integer::sum);
        return new Labels(ns, OTHER, false);
    }

    /** Frees the pair's place; true when nothing carries its labels any more (their series can go). */
    synchronized boolean release(String ns, String spec, Labels labels) {
        if (labels.own()) {
            ownPairs.remove(key(ns, spec));
            return true;
        }
        Integer left = otherPairs.merge(labels.namespace(), -1, Integer::sum);
        if (left != null && left <= 0) {
            otherPairs.remove(labels.namespace());
            return true;
        }
        return false;
    }

    private static String key(String ns, String spec) {
        return ns.length() + ":" + ns + spec; // the length keeps ("a", "bc") apart from ("ab", "c")
    }
}
