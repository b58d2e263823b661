package io.coordinate.query;

import static io.coordinate.query.EngineFixture.T0;
import static io.coordinate.query.QueryTestSupport.assertAnswer;
import static io.coordinate.query.QueryTestSupport.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.engine.EngineResult;
import io.coordinate.metrics.QueueGauges;
import io.coordinate.metrics.QueueMetrics;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.TopicNames;
import io.coordinate.streams.CoordinateTopology;
import io.coordinate.testing.FixedLocator;
import io.coordinate.testing.MetricFamilies;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The queue metrics as the query server serves them: on /metrics, and the throughput route. */
class QueueMetricsRoutesTest {

    private final EngineFixture engine = new EngineFixture();
    private final AtomicLong clock = new AtomicLong(T0 + 2000);
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final QueueMetrics metrics = new QueueMetrics(registry, 200);
    private QueryServer server;
    private Http http;

    @BeforeEach
    void start() {
        apply(T0, "{'command':'set_work_spec','namespace':'n','work_spec':{'name':'spec'}}");
        apply(
                T0,
                "{'command':'add_work_units','namespace':'n','work_spec_name':'spec','work_units':[{'name':'u1'},"
                        + "{'name':'u2'}]}");
        FixedLocator locator = new FixedLocator(engine.store);
        QueueGauges gauges = new QueueGauges(registry, metrics, locator::localStores, clock::get, 1000);
        server = new QueryServer(locator, new FakeGateway(), registry, clock::get, Duration.ofSeconds(5))
                .withQueueMetrics(metrics, gauges)
                .start(0);
        http = new Http(server.port());
    }

    private void apply(long now, String json) {
        EngineResult result = engine.apply(now, json);
        metrics.command(
                io.coordinate.protocol.Command.of(
                                (com.fasterxml.jackson.databind.node.ObjectNode) Json.parse(json.replace('\'', '"')))
                        .type(),
                result,
                now,
                now,
                1000);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void metricsShowTheQueueAsOfTheScrape() {
        List<String> lines = http.get("/metrics").body().lines().toList();
        assertThat(lines)
                .contains("coordinate_units{namespace=\"n\",status=\"available\",work_spec=\"spec\"} 2.0")
                .contains("coordinate_units{namespace=\"n\",status=\"pending\",work_spec=\"spec\"} 0.0")
                .contains("coordinate_running_attempts{namespace=\"n\",work_spec=\"spec\"} 0.0")
                .contains("coordinate_active_workers{namespace=\"n\"} 0.0")
                .contains("coordinate_units_added_total{namespace=\"n\",work_spec=\"spec\"} 2.0")
                .contains("coordinate_commands_total{outcome=\"ok\",type=\"add_work_units\"} 1.0");

        apply(T0 + 2000, "{'command':'request_attempts','namespace':'n','worker':'w','count':1}");
        clock.set(T0 + 3000); // a second on: the gauges are read again
        assertThat(http.get("/metrics").body().lines())
                .contains("coordinate_units{namespace=\"n\",status=\"available\",work_spec=\"spec\"} 1.0")
                .contains("coordinate_units{namespace=\"n\",status=\"pending\",work_spec=\"spec\"} 1.0")
                .contains("coordinate_running_attempts{namespace=\"n\",work_spec=\"spec\"} 1.0")
                .contains("coordinate_active_workers{namespace=\"n\"} 1.0");
    }

    @Test
    void throughputOfEachSpecOverTheLast15Minutes() {
        assertAnswer(
                http.get("/api/namespaces/n/throughput"),
                200,
                "{'namespace':'n','bucket_seconds':60,'buckets':15,"
                        + "'end':'2026-01-01T00:01:00.000Z','work_specs':[{'name':'spec','added':[0,0,0,0,0,0,0,0,0,0,0,0,0,0,2],"
                        + "'finished':[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],'failed':[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]}]}");
        assertError(http.get("/api/namespaces/nope/throughput"), 404, "no_such_namespace", "no namespace \"nope\"");
    }

    @Test
    void countersOfASpecByTheirPrometheusNames() {
        registry.counter("coordinate.retries", "namespace", "n", "work_spec", "spec")
                .increment(3);
        registry.counter("coordinate.retries", "namespace", "n", "work_spec", "other")
                .increment(5);
        // a spec the metrics have not seen (applied without them, as by the instance before this one)
        engine.apply(T0, "{'command':'set_work_spec','namespace':'n','work_spec':{'name':'quiet'}}");

        assertAnswer( // before /metrics, whose gauges make every spec's meters
                http.get("/api/namespaces/n/work-specs/quiet/counters"),
                200,
                "{'namespace':'n','work_spec_name':'quiet','counters':{}}");
        JsonNode spec = QueryTestSupport.body(http.get("/api/namespaces/n/work-specs/spec/counters"));
        assertThat(spec.get("namespace").asText()).isEqualTo("n");
        assertThat(spec.get("work_spec_name").asText()).isEqualTo("spec");
        assertThat(spec.at("/counters/coordinate_units_added_total").asLong()).isEqualTo(2);
        assertThat(spec.at("/counters/coordinate_units_finished_total").asLong())
                .isZero();
        assertThat(spec.at("/counters/coordinate_retries_total").asLong()).isEqualTo(3);
        assertThat(http.get("/metrics").body().lines()) // the same name as on /metrics
                .contains("coordinate_retries_total{namespace=\"n\",work_spec=\"spec\"} 3.0");
        assertError(
                http.get("/api/namespaces/n/work-specs/nope/counters"),
                404,
                "no_such_work_spec",
                "no work spec \"nope\" in namespace \"n\"");
    }

    /**
     * Every metric family the app publishes, Kafka Streams' included (bound as the app binds them), has a name no
     * other family shares once case and punctuation are ignored.
     */
    @Test
    void noMetricNameAppearsUnderTwoSpellings(@TempDir Path stateDir) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "names-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        try (KafkaStreams streams = new KafkaStreams(
                        CoordinateTopology.build(
                                TopicNames.unprefixed(), Duration.ofSeconds(1), Duration.ofMillis(100), 1),
                        props);
                KafkaStreamsMetrics streamsMetrics = new KafkaStreamsMetrics(streams)) {
            streamsMetrics.bindTo(registry);
            metrics.refused(io.coordinate.protocol.ErrorCode.MALFORMED_JSON);
            metrics.deadLettered(io.coordinate.protocol.ErrorCode.MALFORMED_JSON);
            String scrape = http.get("/metrics").body();
            assertThat(scrape).contains("# TYPE kafka_stream_");
            assertThat(MetricFamilies.sameNormalisedName(scrape)).isEmpty();
        }
    }
}
