package io.coordinate.metrics;

import java.util.function.Function;

/** The metrics' settings, read from the environment (docs/monitoring.md, "Metrics"). */
public final class MetricsSettings {

  /** How many (namespace, work spec) pairs get series of their own; the rest are summed as {@code _other}. */
  public static final String MAX_SPECS_ENV = "COORDINATE_METRICS_MAX_SPECS";
  public static final int DEFAULT_MAX_SPECS = 200;

  private MetricsSettings() {}

  /** The cap from {@link #MAX_SPECS_ENV}, else the default; refuses a value that is not a number ≥ 0. */
  public static int maxSpecs(Function<String, String> environment) {
    String value = environment.apply(MAX_SPECS_ENV);
    if (value == null || value.isBlank()) {
      return DEFAULT_MAX_SPECS;
    }
    try {
      int max = Integer.parseInt(value.strip());
      if (max >= 0) {
        return max;
      }
    } catch (NumberFormatException e) {
      // refused below
    }
    throw new IllegalArgumentException(MAX_SPECS_ENV + " must be a whole number ≥ 0, not \"" + value + "\"");
  }
}
