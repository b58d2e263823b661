package io.coordinate.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Reads the metric families of a Prometheus text scrape. */
public final class MetricFamilies {

    private MetricFamilies() {}

    /** The families whose names clash once lowercased and stripped to letters and digits, by that stripped name. */
    public static Map<String, List<String>> sameNormalisedName(String scrape) {
        Map<String, List<String>> byNormalised = new TreeMap<>();
        scrape.lines()
                .filter(line -> line.startsWith("# TYPE "))
                .map(line -> line.split(" ")[2])
                .forEach(name -> byNormalised
                        .computeIfAbsent(name.toLowerCase().replaceAll("[^a-z0-9]", ""), k -> new ArrayList<>())
                        .add(name));
        byNormalised.values().removeIf(names -> names.size() < 2);
        return byNormalised;
    }
}
