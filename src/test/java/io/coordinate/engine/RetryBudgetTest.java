package io.coordinate.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.engine.EngineHarness.Attempt;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@code max_retries}: a reset or a re-add gives a unit that ran out of attempts a fresh budget. */
class RetryBudgetTest {

    private final EngineHarness engine = new EngineHarness();

    @Test
    void resetGivesAUnitFailedForTooManyRetriesANewBudget() {
        engine.setSpec("{\"name\":\"m\",\"max_retries\":1}");
        engine.addUnits("m", "r");
        engine.requestOne();
        engine.advance(Duration.ofHours(1)); // the attempt expires
        engine.requestNone();
        assertThat(engine.status("m", "r")).isEqualTo("failed");
        EngineHarness.assertJson(engine.unitData("m", "r"), "{\"traceback\":\"too many retries\"}");

        engine.reset("m", "{}");
        Attempt again = engine.requestOne();

        assertThat(again.unit()).isEqualTo("r");
        assertThat(engine.status("m", "r")).isEqualTo("pending");
        assertThat(engine.unit("m", "r").get("attempts")).hasSize(3); // history kept: expired, auto-failed, new
    }

    @Test
    void reAddingAFailedUnitAlsoGivesItANewBudget() {
        engine.setSpec("{\"name\":\"m\",\"max_retries\":1}");
        engine.addUnits("m", "r");
        engine.requestOne();
        engine.advance(Duration.ofHours(1));
        engine.requestNone();

        engine.addUnits("m", "r");

        assertThat(engine.requestOne().unit()).isEqualTo("r");
    }
}
