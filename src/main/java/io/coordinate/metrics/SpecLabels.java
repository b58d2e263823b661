package io.coordinate.metrics;

import io.micrometer.core.instrument.Tags;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The label values of each (namespace, work spec) pair's series, under a cap: the first {@code max} pairs get their
 * own; every later pair is summed into its namespace's {@code work_spec="_other"} series. Namespaces are few (an
 * operator makes them), specs are what may grow, so the series stay at most {@code max} plus one per namespace. A
 * pair keeps its labels until it is released (gone from this instance), which frees its place.
 */
final class SpecLabels {

  static final String OTHER = "_other";

  /** A pair's label values; {@code own} false when they are its namespace's {@code _other}. */
  record Labels(String namespace, String spec, boolean own, Tags tags) {
    Labels(String namespace, String spec, boolean own) {
      this(namespace, spec, own, Tags.of("namespace", namespace, "work_spec", spec));
    }
  }

  private final int max;
  private final Set<String> ownPairs = new HashSet<>();
  private final Map<String, Integer> otherPairs = new HashMap<>();

  SpecLabels(int max) {
    this.max = max;
  }

  synchronized Labels assign(String ns, String spec) {
    if (ownPairs.size() < max && ownPairs.add(key(ns, spec))) {
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
    Integer left = otherPairs.merge(ns, -1, Integer::sum);
    if (left != null && left <= 0) {
      otherPairs.remove(ns);
      return true;
    }
    return false;
  }

  /** How many pairs have labels of their own now. */
  synchronized int ownCount() {
    return ownPairs.size();
  }

  private static String key(String ns, String spec) {
    return ns.length() + ":" + ns + spec; // the length keeps ("a", "bc") apart from ("ab", "c")
  }
}
