package io.coordinate.metrics;

import java.util.function.Function;

/** The metrics' settings, read from the environment (docs/monitoring.md, "Metrics"). */
public final class MetricsSettings {

    /** How many (namespace, work spec) pairs get series of their own; the rest are summed as {@code _other}. */
    public static final String MAX_SPECS_ENV = "COORDINATE_METRICS_MAX_SPECS";

    public static final int DEFAULT_MAX_SPECS = 200;
    /** How many namespaces get series of their own; the rest are summed as {@code namespace="_other"}. */
    public static final String MAX_NAMESPACES_ENV = "COORDINATE_METRICS_MAX_NAMESPACES";

    public static final int DEFAULT_MAX_NAMESPACES = 50;

    private MetricsSettings() {}

    /** The cap from {@link #MAX_SPECS_ENV}, else the default; refuses a value that is not a number ≥ 0. */
    public static int maxSpecs(Function<String, String> environment) {
        return cap(environment, MAX_SPECS_ENV, DEFAULT_MAX_SPECS);
    }

    /** The cap from {@link #MAX_NAMESPACES_ENV}, else the default; refuses a value that is not a number ≥ 0. */
    public static int maxNamespaces(Function<String, String> environment) {
        return cap(environment, MAX_NAMESPACES_ENV, DEFAULT_MAX_NAMESPACES);
    }

    private static int cap(Function<String, String> environment, String name, int fallback) {
        String value = environment.apply(name);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            int max = Integer.parseInt(value.strip());
            if (max >= 0) {
                return max;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new IllegalArgumentException(name + " must be a whole number ≥ 0, not \"" + value + "\"");
    }
}
