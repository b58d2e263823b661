package io.coordinate.engine;

import static io.coordinate.engine.EngineHarness.assertJson;
import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.engine.EngineHarness.Attempt;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Conformance scenarios 26–35, work units (docs/architecture.md#conformance-tests): continuous specs, max_running,
 * request filters, not-before times, delayed output and the summary.
 */
class WorkUnitSchedulingConformanceTest {

    private final EngineHarness h = new EngineHarness();

    @Test
    @DisplayName("26. Continuous spec: request → 1; meta continuous false → 0; continuous true → 1")
    void scenario26_continuous() {
        h.setSpec("{\"name\":\"spec\",\"min_gb\":1,\"continuous\":true}");

        makeAttempts(1);
        h.setSpecMeta("spec", "{\"continuous\":false}");
        makeAttempts(0);
        h.setSpecMeta("spec", "{\"continuous\":true}");
        makeAttempts(1);

        assertJson(h.counts("spec"), "{\"finished\":2}");
    }

    /** +5 s, then a default request must give exactly {@code n} attempts, each finished. */
    private void makeAttempts(int n) {
        h.advanceSeconds(5);
        List<Attempt> attempts = h.request();
        assertThat(attempts).hasSize(n);
        attempts.forEach(a -> h.finish(a).ok());
    }

    @Test
    @DisplayName("27. Continuous, interval 60: next_continuous = start + 60 s; +30 s → 0; +30 s → 1; +120 s → 1, 0")
    void scenario27_continuousInterval() {
        h.setSpec("{\"name\":\"spec\",\"min_gb\":1,\"continuous\":true,\"interval\":60}");
        String start = h.nowText();

        Attempt first = h.requestOne();
        h.finish(first).ok();
        assertThat(first.unit()).isEqualTo(String.format("%d.%03d", h.now() / 1000, h.now() % 1000));
        assertThat(h.meta("spec").get("interval").asInt()).isEqualTo(60);
        assertThat(h.meta("spec").get("next_continuous").asText()).isEqualTo(h.timeIn(Duration.ofSeconds(60)));
        assertThat(start).isEqualTo("2026-11-22T10:00:00.000Z");

        h.advanceSeconds(30);
        h.requestNone();
        h.advanceSeconds(30); // now == next_continuous is allowed
        h.finish(h.requestOne()).ok();
        h.advanceSeconds(120);
        h.finish(h.requestOne()).ok();
        h.requestNone();
        assertJson(h.counts("spec"), "{\"finished\":3}");
    }

    @Test
    @DisplayName("28. max_running 1 with 10 units: 1; 0; finish; request count 20 → exactly 1")
    void scenario28_maxRunning() {
        h.setSpec("{\"name\":\"spec\",\"min_gb\":1,\"max_running\":1}");
        for (int i = 0; i < 10; i++) {
            h.addUnits("spec", "u" + i);
        }

        h.advanceSeconds(5);
        Attempt first = h.requestOne();
        h.advanceSeconds(5);
        h.requestNone();
        h.finish(first).ok();
        h.advanceSeconds(5);

        assertThat(h.request("count", 20)).extracting(Attempt::unit).containsExactly("u1");
    }

    @Test
    @DisplayName("29. work_specs filter: default → u1; [three] → u3; [three, two] → u2; [four] → none; [] → u1")
    void scenario29_requestSpecificSpec() {
        h.setSpec("{\"name\":\"one\",\"priority\":20}");
        h.setSpec("{\"name\":\"two\",\"priority\":10}");
        h.setSpec("{\"name\":\"three\",\"priority\":0}");
        h.addUnits("one", "u1").addUnits("two", "u2").addUnits("three", "u3");

        assertThat(requestAndRetry()).isEqualTo("u1");
        assertThat(requestAndRetry("work_specs", List.of("three"))).isEqualTo("u3");
        assertThat(requestAndRetry("work_specs", List.of("three", "two"))).isEqualTo("u2");
        h.advanceSeconds(5);
        h.requestNone("work_specs", List.of("four"));
        assertThat(requestAndRetry("work_specs", List.of())).isEqualTo("u1");
    }

    /** +5 s, request exactly one, give it back with retry delay 0, return its unit. */
    private String requestAndRetry(Object... fields) {
        h.advanceSeconds(5);
        Attempt attempt = h.requestOne(fields);
        h.retry(attempt, 0).ok();
        return attempt.unit();
    }

    @Test
    @DisplayName("30. Runtimes: p and g in some order; then [\"\"] → p; [python…, \"\"] → p; [go] → g")
    void scenario30_byRuntime() {
        h.setSpec("{\"name\":\"p\"}");
        h.setSpec("{\"name\":\"g\",\"runtime\":\"go\"}");
        h.addUnits("p", "p").addUnits("g", "g");

        List<String> seen = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            h.advanceSeconds(5);
            Attempt attempt = h.requestOne();
            seen.add(attempt.unit());
            h.finish(attempt, "{}").ok();
        }
        assertThat(seen).containsExactlyInAnyOrder("p", "g");
        h.advanceSeconds(5);
        h.requestNone();

        h.reset("p", "{}").ok();
        h.reset("g", "{}").ok();
        assertThat(requestAndRetry("runtimes", List.of(""))).isEqualTo("p");
        assertThat(requestAndRetry("runtimes", List.of("python", "python_2", "python_2.7", "")))
                .isEqualTo("p");
        assertThat(requestAndRetry("runtimes", List.of("go"))).isEqualTo("g");
    }

    @Test
    @DisplayName("31. not_before now+5 s → delayed; +10 s → available")
    void scenario31_notBeforeDelayedStatus() {
        h.setSpec("{\"name\":\"spec\",\"min_gb\":1}");
        h.addUnitsJson("spec", "[{\"name\":\"unit\",\"not_before\":\"" + h.timeIn(Duration.ofSeconds(5)) + "\"}]");

        assertThat(h.status("spec", "unit")).isEqualTo("delayed");
        assertJson(h.counts("spec"), "{\"delayed\":1}");
        h.advanceSeconds(10);
        assertThat(h.status("spec", "unit")).isEqualTo("available");
        assertJson(h.counts("spec"), "{\"available\":1}");
    }

    @Test
    @DisplayName("32. not_before now+60 s: order → nothing; +120 s → unit")
    void scenario32_notBeforeAttempt() {
        h.setSpec("{\"name\":\"spec\",\"min_gb\":1}");
        h.addUnitsJson("spec", "[{\"name\":\"unit\",\"not_before\":\"" + h.timeIn(Duration.ofSeconds(60)) + "\"}]");

        assertThat(h.order("spec")).isEmpty();
        h.advanceSeconds(120);
        assertThat(h.order("spec")).containsExactly("unit");
    }

    @Test
    @DisplayName("33. first (priority 0, now) and second (priority 10, +60 s): order → first; +60 s → second")
    void scenario33_notBeforePriority() {
        h.setSpec("{\"name\":\"spec\",\"min_gb\":1}");
        h.addUnitsJson(
                "spec",
                "[{\"name\":\"first\",\"priority\":0}," + "{\"name\":\"second\",\"priority\":10,\"not_before\":\""
                        + h.timeIn(Duration.ofSeconds(60)) + "\"}]");

        assertThat(h.order("spec")).containsExactly("first");
        h.advanceSeconds(60);
        assertThat(h.order("spec")).containsExactly("second");
    }

    @Test
    @DisplayName("34. one (then two): output [[\"u2\", {}, {\"delay\": 90}]]; +5 s → none; +120 s → order u2")
    void scenario34_delayedOutput() {
        h.setSpec("{\"name\":\"one\",\"then\":\"two\"}");
        h.setSpec("{\"name\":\"two\"}");
        h.addUnits("one", "unit");

        Attempt attempt = h.requestOne();
        assertThat(attempt.spec()).isEqualTo("one");
        h.finish(attempt, "{\"output\":[[\"u2\",{},{\"delay\":90}]]}").ok();
        assertThat(h.status("two", "u2")).isEqualTo("delayed");
        assertThat(h.unit("two", "u2").get("not_before").asText()).isEqualTo(h.timeIn(Duration.ofSeconds(90)));

        h.advanceSeconds(5);
        h.requestNone();
        h.advanceSeconds(120);
        assertThat(h.order("two")).containsExactly("u2");
    }

    @Test
    @DisplayName("35. Summary: empty; one unit → [spec available 1]; plus seven units → 4, 1, 1, 1, 1")
    void scenario35_summary() {
        assertJson(h.summary(), "[]");
        h.setSpec("{\"name\":\"spec\",\"min_gb\":1}");
        assertJson(h.summary(), "[{\"name\":\"spec\",\"counts\":{}}]");

        h.addUnits("spec", "unit");
        assertJson(h.summary(), "[{\"name\":\"spec\",\"counts\":{\"available\":1}}]");

        h.sevenUnits("spec");
        assertJson(
                h.summary(),
                "[{\"name\":\"spec\",\"counts\":"
                        + "{\"available\":4,\"pending\":1,\"finished\":1,\"failed\":1,\"delayed\":1}}]");
    }
}
