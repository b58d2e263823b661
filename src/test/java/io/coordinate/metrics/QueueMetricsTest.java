package io.coordinate.metrics;

import static io.coordinate.metrics.EngineDriver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.engine.EngineResult;
import io.coordinate.protocol.ErrorCode;
import io.coordinate.protocol.Json;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The counters and histograms as real engine results feed them, read back exactly from the registry. */
class QueueMetricsTest {

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final QueueMetrics metrics = new QueueMetrics(registry, 200);
    private final EngineDriver engine = new EngineDriver(metrics);

    private double count(String name, String ns, String spec) {
        return registry.get(name)
                .tags("namespace", ns, "work_spec", spec)
                .counter()
                .count();
    }

    private double commands(String type, String outcome) {
        return registry.get(QueueMetrics.COMMANDS)
                .tags("type", type, "outcome", outcome)
                .counter()
                .count();
    }

    @Test
    void countsWhatEachCommandAndTimeStepDid() {
        engine.apply(T0, "{'command':'set_work_spec','namespace':'n','work_spec':{'name':'s'}}");
        engine.apply(
                T0,
                "{'command':'add_work_units','namespace':'n','work_spec_name':'s','work_units':["
                        + "{'name':'u1'},{'name':'u2'},{'name':'u3'},{'name':'u4'}]}");
        EngineResult request = engine.apply(
                T0 + 400, T0 + 1000, "{'command':'request_attempts','namespace':'n','worker':'w','count':3}");
        List<String> ids = EngineDriver.attemptIds(request);
        assertThat(ids).hasSize(3);
        engine.apply(T0 + 2000, "{'command':'finish_attempt','namespace':'n','attempt_id':'" + ids.get(0) + "'}");
        engine.apply(T0 + 2000, "{'command':'fail_attempt','namespace':'n','attempt_id':'" + ids.get(1) + "'}");
        engine.apply(
                T0 + 2000, "{'command':'retry_attempt','namespace':'n','attempt_id':'" + ids.get(2) + "','delay':600}");
        engine.apply(T0 + 2000, "{'command':'finish_attempt','namespace':'n','attempt_id':'999'}");
        engine.apply(T0 + 3000, "{'command':'request_attempts','namespace':'n','worker':'w','count':1,'lifetime':10}");
        engine.tick(T0 + 14_000); // the last attempt's 10 s have run out

        assertThat(count("coordinate.units.added", "n", "s")).isEqualTo(4);
        assertThat(count("coordinate.units.finished", "n", "s")).isEqualTo(1);
        assertThat(count("coordinate.units.failed", "n", "s")).isEqualTo(1);
        assertThat(count("coordinate.units.retried", "n", "s")).isEqualTo(1);
        assertThat(count("coordinate.attempts.started", "n", "s")).isEqualTo(4);
        assertThat(count("coordinate.attempts.expired", "n", "s")).isEqualTo(1);
        assertThat(count("coordinate.replicas.validated", "n", "s")).isEqualTo(0);
        assertThat(count("coordinate.units.assimilated", "n", "s")).isEqualTo(0);
        assertThat(commands("set_work_spec", "ok")).isEqualTo(1);
        assertThat(commands("add_work_units", "ok")).isEqualTo(1);
        assertThat(commands("request_attempts", "ok")).isEqualTo(2);
        assertThat(commands("finish_attempt", "ok")).isEqualTo(1);
        assertThat(commands("finish_attempt", "no_such_attempt")).isEqualTo(1);
        assertThat(commands("fail_attempt", "ok")).isEqualTo(1);
        assertThat(commands("retry_attempt", "ok")).isEqualTo(1);

        Timer handling = registry.get(QueueMetrics.HANDLING)
                .tags("type", "request_attempts")
                .timer();
        assertThat(handling.count()).isEqualTo(2);
        assertThat(handling.totalTime(TimeUnit.NANOSECONDS)).isEqualTo(2000); // the driver reports 1000 ns each
        Timer assignment = registry.get(QueueMetrics.ASSIGNMENT).timer();
        assertThat(assignment.count()).isEqualTo(2); // both requests got work
        assertThat(assignment.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(600); // 600 + 0: the second read at once
    }

    @Test
    void countsFailedAttemptsAndWhatARetryPolicyDid() {
        engine.apply(
                T0,
                "{'command':'set_work_spec','namespace':'n','work_spec':{'name':'s',"
                        + "'retry':{'max_attempts':2,'initial_delay':0}}}");
        engine.apply(
                T0,
                "{'command':'add_work_units','namespace':'n','work_spec_name':'s','work_units':["
                        + "{'name':'u1'},{'name':'u2'}]}");
        List<String> ids = EngineDriver.attemptIds(
                engine.apply(T0, "{'command':'request_attempts','namespace':'n','worker':'w','count':2}"));
        engine.apply(
                T0, "{'command':'fail_attempt','namespace':'n','attempt_id':'" + ids.get(0) + "','retryable':true}");
        engine.apply(T0, "{'command':'fail_attempt','namespace':'n','attempt_id':'" + ids.get(1) + "'}");
        engine.apply(T0 + 1000, "{'command':'request_attempts','namespace':'n','worker':'w','lifetime':10}");
        engine.tick(T0 + 12_000); // u1's second lease runs out: its policy's 2 attempts are spent
        engine.apply(
                T0 + 12_000,
                "{'command':'add_work_units','namespace':'n','work_spec_name':'s','work_units':[{'name':'u3'}]}");
        engine.apply(T0 + 12_000, "{'command':'request_attempts','namespace':'n','worker':'w','lifetime':10}");
        engine.tick(T0 + 23_000); // u3's first lease runs out: retried

        assertThat(count("coordinate.attempts.failed", "n", "s")).isEqualTo(2);
        assertThat(count("coordinate.retries", "n", "s")).isEqualTo(2);
        assertThat(count("coordinate.retries.exhausted", "n", "s")).isEqualTo(1);
        assertThat(count("coordinate.attempts.expired", "n", "s")).isEqualTo(2);
        assertThat(count("coordinate.units.failed", "n", "s")).isEqualTo(2);
        assertThat(count("coordinate.units.retried", "n", "s")).isEqualTo(0);
    }

    @Test
    void replicasValidatedAndTheUnitAssimilated() {
        engine.apply(T0, "{'command':'set_work_spec','namespace':'n','work_spec':{'name':'s','min_quorum':2}}");
        engine.apply(
                T0, "{'command':'add_work_units','namespace':'n','work_spec_name':'s','work_units':[{'name':'u'}]}");
        engine.apply(T0, "{'command':'worker_heartbeat','namespace':'n','worker':'w1','parent':'h1'}");
        engine.apply(T0, "{'command':'worker_heartbeat','namespace':'n','worker':'w2','parent':'h2'}");
        for (String worker : List.of("w1", "w2")) {
            EngineResult request = engine.apply(
                    T0 + 1000, "{'command':'request_attempts','namespace':'n','worker':'" + worker + "','count':1}");
            engine.apply(
                    T0 + 2000,
                    "{'command':'finish_attempt','namespace':'n','attempt_id':'"
                            + EngineDriver.attemptIds(request).get(0) + "','data':{'result':7}}");
        }
        assertThat(count("coordinate.attempts.started", "n", "s")).isEqualTo(2);
        assertThat(count("coordinate.replicas.validated", "n", "s")).isEqualTo(2);
        assertThat(count("coordinate.units.assimilated", "n", "s")).isEqualTo(1);
        assertThat(count("coordinate.units.finished", "n", "s")).isEqualTo(1);
    }

    @Test
    void aRequestThatGetsNoWorkIsNoAssignment() {
        engine.apply(T0, "{'command':'set_work_spec','namespace':'n','work_spec':{'name':'s'}}");
        engine.apply(T0, T0 + 500, "{'command':'request_attempts','namespace':'n','worker':'w','count':3}");
        assertThat(registry.get(QueueMetrics.ASSIGNMENT).timer().count()).isZero();
        assertThat(commands("request_attempts", "ok")).isEqualTo(1);
    }

    @Test
    void recordsRefusedBeforeTheEngineAndDeadLetters() {
        metrics.refused(ErrorCode.MALFORMED_JSON);
        metrics.deadLettered(ErrorCode.MALFORMED_JSON);
        metrics.deadLettered(ErrorCode.MALFORMED_JSON);
        metrics.deadLettered(ErrorCode.TOO_LARGE);
        assertThat(commands("unknown", "malformed_json")).isEqualTo(1);
        assertThat(registry.get(QueueMetrics.DEAD_LETTERS)
                        .tags("error_code", "malformed_json")
                        .counter()
                        .count())
                .isEqualTo(2);
        assertThat(registry.get(QueueMetrics.DEAD_LETTERS)
                        .tags("error_code", "too_large")
                        .counter()
                        .count())
                .isEqualTo(1);
    }

    @Test
    void histogramsHaveTheirBuckets() {
        engine.apply(T0, "{'command':'set_work_spec','namespace':'n','work_spec':{'name':'s'}}");
        String scrape = registry.scrape();
        assertThat(scrape.lines())
                .contains("coordinate_command_handling_seconds_bucket{type=\"set_work_spec\",le=\"5.0E-5\"} 1")
                .contains("coordinate_command_handling_seconds_bucket{type=\"set_work_spec\",le=\"1.0\"} 1")
                .contains("coordinate_command_handling_seconds_bucket{type=\"set_work_spec\",le=\"+Inf\"} 1")
                .contains("coordinate_request_assignment_seconds_bucket{le=\"60.0\"} 0");
        assertThat(scrape.lines().filter(l -> l.startsWith("coordinate_command_handling_seconds_bucket{")))
                .hasSize(15);
    }

    /** The JSON as a client reads it (numbers as the parser types them, not as they were built). */
    private static JsonNode asParsed(JsonNode node) {
        return Json.parse(node.toString());
    }

    @Test
    void throughputPerSpecInMinuteBuckets() {
        engine.apply(T0, "{'command':'set_work_spec','namespace':'n','work_spec':{'name':'s'}}");
        engine.apply(
                T0 + 5_000,
                "{'command':'add_work_units','namespace':'n','work_spec_name':'s','work_units':["
                        + "{'name':'u1'},{'name':'u2'},{'name':'u3'}]}");
        EngineResult request =
                engine.apply(T0 + 61_000, "{'command':'request_attempts','namespace':'n','worker':'w','count':2}");
        List<String> ids = EngineDriver.attemptIds(request);
        engine.apply(T0 + 125_000, "{'command':'finish_attempt','namespace':'n','attempt_id':'" + ids.get(0) + "'}");
        engine.apply(T0 + 125_000, "{'command':'fail_attempt','namespace':'n','attempt_id':'" + ids.get(1) + "'}");

        assertThat(asParsed(metrics.throughput("n", List.of("s", "idle"), T0 + 130_000)))
                .isEqualTo(Json.parse(
                        ("{'namespace':'n','bucket_seconds':60,'buckets':15,'end':'2026-01-01T00:03:00.000Z','work_specs':["
                                        + "{'name':'s','added':[0,0,0,0,0,0,0,0,0,0,0,0,3,0,0],'finished':[0,0,0,0,0,0,0,0,0,0,0,0,0,0,1],"
                                        + "'failed':[0,0,0,0,0,0,0,0,0,0,0,0,0,0,1]},"
                                        + "{'name':'idle','added':[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],'finished':[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],"
                                        + "'failed':[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]}]}")
                                .replace('\'', '"')));
        // 14 minutes on, the add has left the window; the finish is in its oldest bucket
        assertThat(asParsed(metrics.throughput("n", List.of("s"), T0 + 120_000 + 14 * 60_000))
                        .get("work_specs")
                        .get(0))
                .isEqualTo(Json.parse(("{'name':'s','added':[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],"
                                + "'finished':[1,0,0,0,0,0,0,0,0,0,0,0,0,0,0],'failed':[1,0,0,0,0,0,0,0,0,0,0,0,0,0,0]}")
                        .replace('\'', '"')));
    }
}
