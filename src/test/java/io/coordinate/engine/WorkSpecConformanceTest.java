package io.coordinate.engine;

import static io.coordinate.engine.EngineHarness.assertJson;
import static io.coordinate.engine.EngineHarness.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.engine.EngineHarness.Attempt;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Conformance scenarios 6–15, work specs (docs/architecture.md#conformance-tests). */
class WorkSpecConformanceTest {

    private static final String DEFAULT_META =
            "{\"priority\":0,\"weight\":20,\"paused\":false,\"continuous\":false,\"can_be_continuous\":false,"
                    + "\"interval\":0,\"next_continuous\":null,\"max_running\":0,\"max_attempts_returned\":0,"
                    + "\"max_retries\":0,\"next_work_spec_name\":\"\",\"runtime\":\"\",\"min_gb\":1,"
                    + "\"available_count\":0,\"pending_count\":0}";

    private static final String PREFILLED_DATA =
            "{\"name\":\"spec\",\"min_gb\":1,\"priority\":10,\"weight\":100,\"disabled\":true,\"continuous\":true,"
                    + "\"interval\":60,\"max_running\":10,\"max_getwork\":1,\"max_retries\":20,\"then\":\"spec2\","
                    + "\"runtime\":\"go\"}";

    private static final String PREFILLED_META =
            "{\"priority\":10,\"weight\":100,\"paused\":true,\"continuous\":true,\"can_be_continuous\":true,"
                    + "\"interval\":60,\"next_continuous\":null,\"max_running\":10,\"max_attempts_returned\":1,"
                    + "\"max_retries\":20,\"next_work_spec_name\":\"spec2\",\"runtime\":\"go\",\"min_gb\":1,"
                    + "\"available_count\":0,\"pending_count\":0}";

    private final EngineHarness h = new EngineHarness();

    @Test
    @DisplayName("6. Reload with new data; reload without name → no_work_spec_name; another name → changed_name")
    void scenario06_changeSpecData() {
        h.setSpec("{\"name\":\"spec\",\"min_gb\":1}");

        h.send(
                        "set_work_spec",
                        "work_spec_name",
                        "spec",
                        "work_spec",
                        json("{\"name\":\"spec\",\"min_gb\":2,\"foo\":\"bar\"}"))
                .ok();
        assertJson(h.spec("spec").get("data"), "{\"name\":\"spec\",\"min_gb\":2,\"foo\":\"bar\"}");

        assertThat(h.send("set_work_spec", "work_spec_name", "spec", "work_spec", json("{}"))
                        .errorCode())
                .isEqualTo("no_work_spec_name");
        assertThat(h.send(
                                "set_work_spec",
                                "work_spec_name",
                                "spec",
                                "work_spec",
                                json("{\"name\":\"name\",\"min_gb\":3}"))
                        .errorCode())
                .isEqualTo("changed_name");

        assertJson(h.spec("spec").get("data"), "{\"name\":\"spec\",\"min_gb\":2,\"foo\":\"bar\"}");
        assertThat(h.specNames()).containsExactly("spec");
    }

    @Test
    @DisplayName("7. Data {\"config\": {\"empty_list\": []}} comes back with an empty list, not null")
    void scenario07_dataEmptyList() {
        h.setSpec("{\"name\":\"spec\",\"min_gb\":1,\"config\":{\"empty_list\":[]}}");

        assertThat(h.spec("spec").get("data").get("config").get("empty_list").isArray())
                .isTrue();
        assertThat(h.spec("spec").get("data").get("config").get("empty_list")).isEmpty();
        assertJson(h.spec("spec").get("data"), "{\"name\":\"spec\",\"min_gb\":1,\"config\":{\"empty_list\":[]}}");
    }

    @Test
    @DisplayName("8. Default metadata of {\"name\":\"spec\",\"min_gb\":1}")
    void scenario08_defaultMeta() {
        assertJson(h.setSpec("{\"name\":\"spec\",\"min_gb\":1}").get("meta"), DEFAULT_META);
        assertJson(h.meta("spec"), DEFAULT_META);
        assertJson(h.spec("spec").get("counts"), "{}");
    }

    @Test
    @DisplayName("9. Metadata prefilled from data, at creation and by a reload of a default spec")
    void scenario09_prefilledMeta() {
        h.setSpec(PREFILLED_DATA);
        assertJson(h.meta("spec"), PREFILLED_META);

        h.namespace("reloaded").setSpec("{\"name\":\"spec\",\"min_gb\":1}");
        assertJson(h.meta("spec"), DEFAULT_META);
        h.setSpec(PREFILLED_DATA);
        assertJson(h.meta("spec"), PREFILLED_META);
        assertThat(h.spec("spec2")).as("then need not exist").isNull();
    }

    @Test
    @DisplayName("10. nice 5 → weight 15; nice 100 → 1; nice -80 → 100; weight 50 + nice 5 → 50; neither → 20")
    void scenario10_niceWeight() {
        h.namespace("TestNiceWeight");
        assertThat(weightOf("{\"name\":\"spec\",\"min_gb\":1,\"nice\":5}")).isEqualTo(15);
        assertThat(weightOf("{\"name\":\"spec\",\"min_gb\":1,\"nice\":100}")).isEqualTo(1);
        assertThat(weightOf("{\"name\":\"spec\",\"min_gb\":1,\"nice\":-80}")).isEqualTo(100);
        assertThat(weightOf("{\"name\":\"spec\",\"min_gb\":1,\"weight\":50,\"nice\":5}"))
                .isEqualTo(50);
        assertThat(weightOf("{\"name\":\"spec\",\"min_gb\":1}")).isEqualTo(20);
    }

    private long weightOf(String specJson) {
        h.setSpec(specJson);
        assertThat(h.meta("spec").get("weight").isIntegralNumber()).isTrue();
        return h.meta("spec").get("weight").asLong();
    }

    @Test
    @DisplayName("11. set_work_spec_meta changes the mutable fields only")
    void scenario11_setMeta() {
        h.setSpec("{\"name\":\"spec\",\"min_gb\":1,\"continuous\":true}");
        assertJson(
                h.meta("spec"),
                DEFAULT_META.replace(
                        "\"continuous\":false,\"can_be_continuous\":false",
                        "\"continuous\":true,\"can_be_continuous\":true"));

        h.setSpecMeta(
                "spec",
                "{\"priority\":10,\"weight\":100,\"paused\":true,\"continuous\":false,"
                        + "\"can_be_continuous\":false,\"interval\":60,\"max_running\":10,\"max_attempts_returned\":1,"
                        + "\"max_retries\":20,\"next_work_spec_name\":\"then\",\"available_count\":100,\"pending_count\":50,"
                        + "\"runtime\":\"go\"}");

        assertJson(
                h.meta("spec"),
                "{\"priority\":10,\"weight\":100,\"paused\":true,\"continuous\":false,\"can_be_continuous\":true,"
                        + "\"interval\":60,\"next_continuous\":null,\"max_running\":10,\"max_attempts_returned\":1,"
                        + "\"max_retries\":20,\"next_work_spec_name\":\"\",\"runtime\":\"\",\"min_gb\":1,"
                        + "\"available_count\":0,\"pending_count\":0}");
    }

    @Test
    @DisplayName("12. set_work_spec_meta continuous true on a non-continuous spec: no error, stays false")
    void scenario12_metaContinuous() {
        h.setSpec("{\"name\":\"spec\",\"min_gb\":1}");

        h.setSpecMeta("spec", "{\"continuous\":true}");

        assertThat(h.meta("spec").get("continuous").asBoolean()).isFalse();
        assertThat(h.meta("spec").get("can_be_continuous").asBoolean()).isFalse();
        assertJson(h.meta("spec"), DEFAULT_META);
    }

    @Test
    @DisplayName("13. Counts (available, pending) through expire, retry and finish")
    void scenario13_counts() {
        h.setSpec("{\"name\":\"spec\",\"min_gb\":1}");
        assertCounts(0, 0);
        h.addUnits("spec", "one");
        assertCounts(1, 0);

        h.advanceSeconds(5);
        Attempt first = h.requestOne();
        assertCounts(0, 1);
        h.expire(first).ok();
        assertCounts(1, 0);

        h.advanceSeconds(5);
        Attempt second = h.requestOne();
        assertCounts(0, 1);
        h.retry(second, 0).ok();
        assertCounts(1, 0);

        h.advanceSeconds(5);
        Attempt third = h.requestOne();
        assertCounts(0, 1);
        h.finish(third).ok();
        assertCounts(0, 0);
        assertJson(h.counts("spec"), "{\"finished\":1}");
    }

    private void assertCounts(long available, long pending) {
        assertThat(h.meta("spec").get("available_count").asLong())
                .as("available")
                .isEqualTo(available);
        assertThat(h.meta("spec").get("pending_count").asLong()).as("pending").isEqualTo(pending);
    }

    @Test
    @DisplayName("14. Commands on a deleted spec, or in a destroyed namespace, get no_such_work_spec")
    void scenario14_deletedSpecGone() {
        h.setSpec("{\"name\":\"spec\",\"min_gb\":1}");
        h.addUnits("spec", "u");
        h.send("delete_work_spec", "work_spec_name", "spec").ok();
        assertNoSuchSpecForEveryCommand();

        h.namespace("other").setSpec("{\"name\":\"spec\",\"min_gb\":1}");
        h.addUnits("spec", "u");
        h.send("destroy_namespace").ok();
        assertNoSuchSpecForEveryCommand();
    }

    private void assertNoSuchSpecForEveryCommand() {
        assertThat(h.send("set_work_spec_meta", "work_spec_name", "spec", "meta", json("{}"))
                        .errorCode())
                .isEqualTo("no_such_work_spec");
        assertThat(h.send("add_work_units", "work_spec_name", "spec", "work_units", json("[{\"name\":\"foo\"}]"))
                        .errorCode())
                .isEqualTo("no_such_work_spec");
        assertThat(h.send("delete_work_units", "work_spec_name", "spec", "query", json("{}"))
                        .errorCode())
                .isEqualTo("no_such_work_spec");
        assertThat(h.send("reset_work_units", "work_spec_name", "spec", "query", json("{}"))
                        .errorCode())
                .isEqualTo("no_such_work_spec");
        assertThat(h.send("prioritize_work_units", "work_spec_name", "spec", "query", json("{}"), "priority", 1)
                        .errorCode())
                .isEqualTo("no_such_work_spec");
        assertThat(h.send("delete_work_spec", "work_spec_name", "spec").errorCode())
                .isEqualTo("no_such_work_spec");
        assertThat(h.spec("spec")).isNull();
    }

    @Test
    @DisplayName("15. Continuous spec with interval 86400: one request returns exactly one attempt")
    void scenario15_oneDayInterval() {
        h.setSpec("{\"name\":\"spec\",\"min_gb\":1,\"continuous\":true,\"interval\":86400}");

        Attempt attempt = h.requestOne();

        assertThat(attempt.spec()).isEqualTo("spec");
        assertThat(h.meta("spec").get("next_continuous").asText()).isEqualTo(h.timeIn(Duration.ofDays(1)));
    }
}
