package io.coordinate.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.engine.state.codec.KeyFamily;
import io.coordinate.engine.state.codec.KeySpace;
import io.coordinate.engine.state.codec.ValueCodec;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.storage.KeyValueIterator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * When each spec's oldest available unit became available ({@code UnitState.oldestAvailableSince}): the rule of
 * docs/reference.md ("Unit statuses"), as of the reader's now, in step with the counts as of now. Every test also
 * passes the index rebuild check ({@link IndexRebuildCheck}).
 */
class OldestAvailableTest {

    private final EngineHarness h = new EngineHarness();
    private final long t0 = h.now();

    private Long oldest(String spec) {
        return h.reader().units().oldestAvailableSince("ns", spec, h.now());
    }

    private long available(String spec) {
        return h.views().counts(spec).getOrDefault(UnitStatus.AVAILABLE, 0L);
    }

    @Test
    void startingTheOldestUnitLeavesTheNextOldest() {
        h.setSpec("{\"name\":\"spec\"}");
        assertThat(oldest("spec")).as("no unit").isNull();
        h.addUnits("spec", "a");
        h.advanceSeconds(5);
        h.addUnits("spec", "b");
        h.advanceSeconds(5);
        assertThat(oldest("spec")).isEqualTo(t0);

        assertThat(h.requestOne().unit()).isEqualTo("a");

        assertThat(oldest("spec")).isEqualTo(t0 + 5_000);
        h.requestOne();
        assertThat(oldest("spec")).as("nothing available").isNull();
        assertThat(available("spec")).isZero();
    }

    @Test
    void theTimeIsNotThePriority() {
        h.setSpec("{\"name\":\"spec\"}");
        h.addUnitsJson("spec", "[{\"name\":\"low\",\"priority\":1}]");
        h.advanceSeconds(10);
        h.addUnitsJson("spec", "[{\"name\":\"high\",\"priority\":9}]");
        h.advanceSeconds(10);
        h.send(
                        "prioritize_work_units",
                        "work_spec_name",
                        "spec",
                        "priority",
                        20,
                        "query",
                        EngineHarness.json("{\"names\":[\"low\"]}"))
                .ok();
        h.addUnitsJson("spec", "[{\"name\":\"low\",\"data\":{\"again\":true},\"priority\":20}]");

        assertThat(oldest("spec"))
                .as("a change or re-add of an available unit keeps its time")
                .isEqualTo(t0);
        assertThat(h.requestOne().unit()).isEqualTo("low");
        assertThat(oldest("spec")).isEqualTo(t0 + 10_000);
    }

    @Test
    void resetRetryAndExpiryPutAUnitBackWithANewTime() {
        h.setSpec("{\"name\":\"spec\"}");
        h.addUnits("spec", "a");
        EngineHarness.Attempt attempt = h.requestOne("lifetime", 600);
        h.advanceSeconds(10);
        h.finish(attempt).ok();
        h.advanceSeconds(10);
        h.reset("spec", "{\"names\":[\"a\"]}").ok();
        assertThat(oldest("spec")).as("reset").isEqualTo(t0 + 20_000);

        attempt = h.requestOne("lifetime", 600);
        h.advanceSeconds(10);
        h.retry(attempt, 0).ok();
        assertThat(oldest("spec")).as("retry without delay").isEqualTo(t0 + 30_000);

        attempt = h.requestOne("lifetime", 600);
        h.advanceSeconds(10);
        h.expire(attempt).ok();
        assertThat(oldest("spec")).as("expire_attempt").isEqualTo(t0 + 40_000);

        h.requestOne("lifetime", 60);
        h.advanceSeconds(90);
        assertThat(oldest("spec"))
                .as("its lease ran out at the expiration, before any time step")
                .isEqualTo(t0 + 100_000);
        assertThat(available("spec")).isEqualTo(1);
        h.punctuate();
        assertThat(oldest("spec")).as("the time step records the same time").isEqualTo(t0 + 100_000);
        assertThat(h.reader().units().get("ns", "spec", "a").availableSince()).isEqualTo(t0 + 100_000);
    }

    @Test
    void aDelayedUnitCountsFromItsNotBeforeTime() {
        h.setSpec("{\"name\":\"spec\"}");
        h.addUnitsJson("spec", "[{\"name\":\"later\",\"delay\":60}]");
        h.advanceSeconds(59);
        assertThat(oldest("spec")).isNull();
        assertThat(available("spec")).isZero();

        h.advanceSeconds(1);
        assertThat(oldest("spec")).as("not_before == now: available").isEqualTo(t0 + 60_000);
        assertThat(available("spec")).isEqualTo(1);
        h.advanceSeconds(30);
        h.addUnits("spec", "now");
        assertThat(oldest("spec"))
                .as("the command released it first, from its not_before")
                .isEqualTo(t0 + 60_000);

        EngineHarness.Attempt attempt = h.requestOne("lifetime", 600);
        assertThat(attempt.unit()).isEqualTo("later");
        h.retry(attempt, 20).ok();
        assertThat(oldest("spec")).as("the unit added at +90 s").isEqualTo(t0 + 90_000);
        h.requestOne();
        assertThat(oldest("spec")).as("the retried unit is delayed").isNull();
        h.advanceSeconds(25);
        assertThat(oldest("spec"))
                .as("retried with a delay: from its not_before")
                .isEqualTo(t0 + 110_000);
    }

    @Test
    void blockedChildrenCountFromTheirRelease() {
        h.setSpec("{\"name\":\"spec\"}");
        h.addUnits("spec", "parent");
        EngineHarness.Attempt attempt = h.requestOne("lifetime", 600);
        h.addUnitsJson(
                "spec",
                "[{\"name\":\"child\",\"parent\":{\"work_spec_name\":\"spec\",\"work_unit_name\":\"parent\"}}]");
        assertThat(oldest("spec")).as("a parked child is blocked").isNull();
        h.advanceSeconds(7);
        h.finish(attempt).ok();
        assertThat(oldest("spec")).isEqualTo(t0 + 7_000);
    }

    @Test
    void unitsAvailableSinceOneTimeShareOneCount() {
        h.setSpec("{\"name\":\"spec\"}");
        h.addUnits("spec", "a", "b", "c");
        h.advanceSeconds(1);
        h.addUnits("spec", "d");
        assertThat(countsByTime()).containsExactly(3L, 1L);

        h.request("count", 2);
        assertThat(countsByTime()).containsExactly(1L, 1L);
        assertThat(oldest("spec")).isEqualTo(t0);
        h.requestOne();
        assertThat(countsByTime()).as("a count at zero goes").containsExactly(1L);
        assertThat(oldest("spec")).isEqualTo(t0 + 1_000);
    }

    @Test
    void deletingTheSpecOrTheNamespaceLeavesNoEntries() {
        h.setSpec("{\"name\":\"spec\"}");
        h.setSpec("{\"name\":\"other\"}");
        h.addUnits("spec", "a", "b");
        h.advanceSeconds(1);
        h.addUnits("spec", "c");
        h.addUnits("other", "d");
        assertThat(countsByTime()).containsExactly(1L, 2L, 1L); // other's, then spec's in time order

        h.send("delete_work_spec", "work_spec_name", "spec").ok();
        assertThat(countsByTime()).containsExactly(1L);
        assertThat(oldest("other")).isEqualTo(t0 + 1_000);

        h.send("destroy_namespace").ok();
        assertThat(countsByTime()).isEmpty();
    }

    @Test
    void deletedUnitsLeaveTheIndex() {
        h.setSpec("{\"name\":\"spec\"}");
        h.addUnits("spec", "a");
        h.advance(Duration.ofMillis(1));
        h.addUnits("spec", "b");
        h.send("delete_work_units", "work_spec_name", "spec", "query", EngineHarness.json("{\"names\":[\"a\"]}"))
                .ok();
        assertThat(oldest("spec")).isEqualTo(t0 + 1);
        assertThat(countsByTime()).containsExactly(1L);
    }

    /** The counts of the index by available time, in key order, of every namespace. */
    private List<Long> countsByTime() {
        List<Long> counts = new ArrayList<>();
        try (KeyValueIterator it = h.store().indexes().range(new byte[0], KeySpace.prefixEnd(new byte[0]))) {
            while (it.hasNext()) {
                KeyValueIterator.Entry entry = it.next();
                if (KeyFamily.kind(entry.key()).equals(String.valueOf((char) KeyFamily.AVAILABLE_SINCE.tag()))) {
                    counts.add(ValueCodec.decodeLong(entry.value()));
                }
            }
        }
        return counts;
    }
}
