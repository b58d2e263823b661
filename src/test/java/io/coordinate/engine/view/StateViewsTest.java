package io.coordinate.engine.view;

import static io.coordinate.engine.EngineHarness.assertJson;
import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.engine.EngineHarness;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The views are exact on read: between two commands (and without the time step) an attempt past its
 * expiration is shown expired and counted as its unit's resting status, a due delayed unit as available.
 */
class StateViewsTest {

    private final EngineHarness h = new EngineHarness();

    @Test
    void countsMoveDueDelayedUnitsToAvailableWhateverTheirNameOrder() {
        h.setSpec("{\"name\":\"spec\"}");
        h.addUnitsJson(
                "spec",
                "[{\"name\":\"a\",\"delay\":60},{\"name\":\"b\",\"delay\":10}," + "{\"name\":\"c\",\"delay\":30}]");

        h.advanceSeconds(40);

        assertJson(h.counts("spec"), "{\"available\":2,\"delayed\":1}");
        assertThat(h.units("spec", "{\"statuses\":[\"available\"]}")).containsExactly("b", "c");
        h.advanceSeconds(20); // not_before == now is due
        assertJson(h.counts("spec"), "{\"available\":3}");
    }

    @Test
    void countsMoveExpiredPendingUnitsToTheirRestingStatus() {
        h.setSpec("{\"name\":\"spec\"}");
        h.addUnits("spec", "a", "b", "c");
        h.request("count", 2, "lifetime", 60); // a and b
        h.addUnitsJson("spec", "[{\"name\":\"b\",\"delay\":600}]"); // b stays pending, with a later not-before

        h.advanceSeconds(60);
        assertJson(h.counts("spec"), "{\"available\":1,\"pending\":2}"); // expiration == now: still pending
        h.advance(Duration.ofMillis(1));
        assertJson(h.counts("spec"), "{\"available\":2,\"delayed\":1}");
        assertThat(h.status("spec", "b")).isEqualTo("delayed");
        assertThat(h.meta("spec").get("pending_count").asInt()).isZero();
        assertThat(h.workerView("worker").get("active_attempts")).isEmpty();

        h.punctuate();
        assertJson(h.counts("spec"), "{\"available\":2,\"delayed\":1}");
    }
}
