package io.coordinate.engine.state.db;

import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.engine.EngineHarness;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The time step skips its scan until the next entry is due, yet never misses one added meanwhile. */
class TimeFloorTest {

    @Test
    void aFloorIsRaisedToTheNextDueTimeAndLoweredByAnEarlierInsert() {
        TimeFloor floor = new TimeFloor();
        assertThat(floor.nothingDueBefore(100)).isFalse();
        floor.scanStarted();
        floor.learned(500);
        floor.commit();
        assertThat(floor.floor()).isEqualTo(500);
        assertThat(floor.nothingDueBefore(500)).isTrue();
        assertThat(floor.nothingDueBefore(501)).isFalse();

        floor.inserted(200);
        assertThat(floor.floor()).isEqualTo(200);

        floor.scanStarted();
        floor.learned(900);
        floor.inserted(300); // inserted during the step, after the scan: the floor may not pass it
        floor.commit();
        assertThat(floor.floor()).isEqualTo(300);
    }

    @Test
    void anAttemptWithAShorterLeaseThanTheKnownNextDeadlineStillExpiresOnTime() {
        EngineHarness engine = new EngineHarness();
        engine.setSpec("{\"name\":\"s\"}");
        engine.addUnits("s", "long", "short");
        engine.request("lifetime", 600, "work_specs", java.util.List.of("s"), "count", 1); // "long", 10 min
        engine.advance(Duration.ofSeconds(1));
        engine.punctuate(); // learns: the next deadline is in ~10 min
        engine.request("lifetime", 5, "count", 1); // "short", 5 s: below the learned floor

        engine.advance(Duration.ofSeconds(6));
        // The time step itself must expire it (views are exact on read anyway, so look at its events).
        assertThat(expired(engine.punctuate())).containsExactly("short");
        assertThat(expired(engine.punctuate())).isEmpty();

        engine.advance(Duration.ofMinutes(10));
        assertThat(expired(engine.punctuate())).containsExactly("long");
    }

    private static java.util.List<String> expired(io.coordinate.engine.EngineResult step) {
        java.util.List<String> units = new java.util.ArrayList<>();
        step.events()
                .forEach(batch -> batch.value().get("events").forEach(e -> {
                    if (e.get("type").asText().equals("attempt_expired")) {
                        units.add(e.get("work_unit_name").asText());
                    }
                }));
        return units;
    }
}
