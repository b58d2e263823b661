package io.coordinate.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class MetricsSettingsTest {

    @Test
    void theCapComesFromTheEnvironmentOrIs200() {
        assertThat(MetricsSettings.maxSpecs(Map.<String, String>of()::get)).isEqualTo(200);
        assertThat(MetricsSettings.maxSpecs(Map.of("COORDINATE_METRICS_MAX_SPECS", " 15 ")::get))
                .isEqualTo(15);
        assertThat(MetricsSettings.maxSpecs(Map.of("COORDINATE_METRICS_MAX_SPECS", "0")::get))
                .isZero();
        assertThatThrownBy(() -> MetricsSettings.maxSpecs(Map.of("COORDINATE_METRICS_MAX_SPECS", "-1")::get))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("COORDINATE_METRICS_MAX_SPECS must be a whole number ≥ 0, not \"-1\"");
    }

    @Test
    void theCapOfNamespacesComesFromTheEnvironmentOrIs50() {
        assertThat(MetricsSettings.maxNamespaces(Map.<String, String>of()::get)).isEqualTo(50);
        assertThat(MetricsSettings.maxNamespaces(Map.of("COORDINATE_METRICS_MAX_NAMESPACES", "7")::get))
                .isEqualTo(7);
        assertThat(MetricsSettings.maxNamespaces(Map.of("COORDINATE_METRICS_MAX_NAMESPACES", "0")::get))
                .isZero();
        assertThatThrownBy(
                        () -> MetricsSettings.maxNamespaces(Map.of("COORDINATE_METRICS_MAX_NAMESPACES", "many")::get))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("COORDINATE_METRICS_MAX_NAMESPACES must be a whole number ≥ 0, not \"many\"");
    }
}
