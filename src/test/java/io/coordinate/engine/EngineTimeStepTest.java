package io.coordinate.engine;

import static io.coordinate.engine.EngineHarness.assertJson;
import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.engine.state.model.AttemptStatus;
import io.coordinate.engine.state.model.UnitStatus;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The punctuator's time step: eager expiry and release, in batches, re-checking every index entry. */
class EngineTimeStepTest {

    private final EngineHarness h = new EngineHarness();
    private final Engine engine = h.engine();

    @Test
    void expiresAtMostTheLimitPerStepAndTheRestLater() {
        h.setSpec("{\"name\":\"spec\"}");
        h.addUnits("spec", "a", "b", "c", "d", "e");
        h.request("count", 5, "lifetime", 60);

        h.advanceSeconds(60);
        assertThat(engine.advanceTime(h.now(), 2).events())
                .as("expiration == now is not yet expired")
                .isEmpty();
        h.advance(Duration.ofMillis(1));

        assertThat(expiredBy(engine.advanceTime(h.now(), 2))).isEqualTo(2);
        assertThat(h.reader().units().counts("ns", "spec").get(UnitStatus.PENDING))
                .isEqualTo(3);
        assertThat(expiredBy(engine.advanceTime(h.now(), 2))).isEqualTo(2);
        assertThat(expiredBy(engine.advanceTime(h.now(), 2))).isEqualTo(1);
        assertThat(engine.advanceTime(h.now(), 2).isEmpty()).isTrue();
        assertJson(h.counts("spec"), "{\"available\":5}");
        assertThat(h.reader().timeIndexes().dueAttemptDeadlines(Long.MAX_VALUE, 10))
                .isEmpty();
    }

    private static long expiredBy(EngineResult result) {
        assertThat(result.events()).hasSize(1);
        long expired = 0;
        for (var event : result.events().get(0).value().get("events")) {
            if (event.get("type").asText().equals("attempt_expired")) {
                expired++;
            }
        }
        return expired;
    }

    @Test
    void aCommandSeesDueExpiriesAndReleasesFirst() {
        h.setSpec("{\"name\":\"spec\"}");
        h.addUnitsJson("spec", "[{\"name\":\"a\"},{\"name\":\"b\",\"delay\":30}]");
        EngineHarness.Attempt attempt = h.requestOne("lifetime", 10);

        h.advanceSeconds(31);
        EngineHarness.Reply reply = h.send("request_attempts", "worker", "other", "count", 2);

        assertThat(reply.ok().get("attempts"))
                .extracting(a -> a.get("work_unit_name").asText())
                .containsExactly("a", "b");
        assertThat(h.reader().attempts().get("ns", Long.parseLong(attempt.id())).status())
                .isEqualTo(AttemptStatus.EXPIRED);
        assertThat(reply.result().events())
                .as("the time step's record, then the command's")
                .hasSize(2);
        assertThat(h.finish(attempt).errorCode()).isEqualTo("not_pending");
    }

    @Test
    void staleEntriesAreDroppedWithoutEvents() {
        h.setSpec("{\"name\":\"spec\"}");
        h.addUnitsJson("spec", "[{\"name\":\"a\"},{\"name\":\"b\",\"delay\":30}]");
        h.requestOne();
        h.send("delete_work_spec", "work_spec_name", "spec").ok();
        assertThat(h.reader().timeIndexes().dueDelayedUnits(Long.MAX_VALUE - 1, 10))
                .hasSize(1);

        h.advance(Duration.ofHours(1));
        EngineResult result = engine.advanceTime(h.now(), 10);

        assertThat(result.isEmpty()).isTrue();
        assertThat(h.reader().timeIndexes().dueDelayedUnits(Long.MAX_VALUE - 1, 10))
                .isEmpty();
        assertThat(h.reader().timeIndexes().dueAttemptDeadlines(Long.MAX_VALUE, 10))
                .isEmpty();
    }
}
