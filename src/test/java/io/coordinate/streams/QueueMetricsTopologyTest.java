package io.coordinate.streams;

import static io.coordinate.streams.TopologyDrivers.START;
import static io.coordinate.streams.TopologyDrivers.TOPICS;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.metrics.QueueMetrics;
import io.coordinate.protocol.Json;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The processor feeds the queue metrics: each command once, the punctuator's expiries, refused records. */
class QueueMetricsTopologyTest {

    @TempDir
    Path stateDir;

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private TopologyTestDriver driver;
    private TestInputTopic<byte[], byte[]> commands;
    private TestOutputTopic<String, String> assignments;

    @BeforeEach
    void start() {
        driver = TopologyDrivers.start(stateDir, 1, new QueueMetrics(registry, 200));
        var bytes = Serdes.ByteArray();
        var strings = Serdes.String();
        commands = driver.createInputTopic(
                TOPICS.commands(), bytes.serializer(), bytes.serializer(), START, Duration.ZERO);
        assignments = driver.createOutputTopic(TOPICS.assignments(), strings.deserializer(), strings.deserializer());
    }

    @AfterEach
    void stop() {
        driver.close();
    }

    private void send(String json) {
        send(json, START);
    }

    private void send(String json, java.time.Instant timestamp) {
        commands.pipeInput(
                "n".getBytes(StandardCharsets.UTF_8),
                json.replace('\'', '"').getBytes(StandardCharsets.UTF_8),
                timestamp);
    }

    private double count(String name) {
        return registry.get(name)
                .tags("namespace", "n", "work_spec", "s")
                .counter()
                .count();
    }

    private double commands(String type, String outcome) {
        return registry.get("coordinate.commands")
                .tags("type", type, "outcome", outcome)
                .counter()
                .count();
    }

    @Test
    void commandsExpiriesAndRefusedRecordsAreCountedOnce() {
        send("{'command':'set_work_spec','namespace':'n','work_spec':{'name':'s'}}");
        send("{'command':'add_work_units','namespace':'n','work_spec_name':'s','work_units':[{'name':'u1'},"
                + "{'name':'u2'},{'name':'u3'}]}");
        // stamped 250 ms before the driver's wall clock: that is how long the app saw the request wait
        send(
                "{'command':'request_attempts','namespace':'n','worker':'w','count':2,'lifetime':10}",
                START.minusMillis(250));
        JsonNode assignment = Json.parse(assignments.readValue());
        String first = assignment.get("attempts").get(0).get("attempt_id").asText();
        send("{'command':'finish_attempt','namespace':'n','attempt_id':'" + first + "'}");
        send("{'command':'finish_attempt','namespace':'n','attempt_id':'999'}");
        commands.pipeInput("n".getBytes(StandardCharsets.UTF_8), "not json".getBytes(StandardCharsets.UTF_8));

        driver.advanceWallClockTime(Duration.ofSeconds(11)); // the punctuator expires the second attempt

        assertThat(count("coordinate.units.added")).isEqualTo(3);
        assertThat(count("coordinate.attempts.started")).isEqualTo(2);
        assertThat(count("coordinate.units.finished")).isEqualTo(1);
        assertThat(count("coordinate.attempts.expired")).isEqualTo(1);
        assertThat(count("coordinate.units.failed")).isEqualTo(0);
        assertThat(commands("set_work_spec", "ok")).isEqualTo(1);
        assertThat(commands("add_work_units", "ok")).isEqualTo(1);
        assertThat(commands("request_attempts", "ok")).isEqualTo(1);
        assertThat(commands("finish_attempt", "ok")).isEqualTo(1);
        assertThat(commands("finish_attempt", "no_such_attempt")).isEqualTo(1);
        assertThat(commands("unknown", "malformed_json")).isEqualTo(1);
        assertThat(registry.get("coordinate.dead.letters")
                        .tags("error_code", "malformed_json")
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(registry.find("coordinate.commands").counters()).hasSize(6);
        Timer wait = registry.get("coordinate.request.assignment").timer();
        assertThat(wait.count()).isEqualTo(1);
        assertThat(wait.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(250);
        assertThat(registry.get("coordinate.command.handling")
                        .tags("type", "finish_attempt")
                        .timer()
                        .count())
                .isEqualTo(2);
    }

    /**
     * A producer may stamp its records as it likes: one stamped years ago gave one sample of decades, which stayed in
     * the histogram's sum (and max) for good. Only waits from a second ahead of the app's clock to an hour behind it
     * are samples; ahead counts as no wait.
     */
    @Test
    void requestsStampedFarFromTheAppsClockGiveNoAssignmentSample() {
        send("{'command':'set_work_spec','namespace':'n','work_spec':{'name':'s'}}");
        send("{'command':'add_work_units','namespace':'n','work_spec_name':'s','work_units':[{'name':'u1'},"
                + "{'name':'u2'},{'name':'u3'},{'name':'u4'},{'name':'u5'},{'name':'u6'}]}");
        String request = "{'command':'request_attempts','namespace':'n','worker':'w','count':1}";
        send(request, START.minus(Duration.ofDays(3650))); // skipped
        send(request, START.minusSeconds(3601)); // skipped
        send(request, START.plusSeconds(2)); // skipped: the producer's clock is too far ahead
        send(request, START.minusSeconds(3600));
        send(request, START.minusMillis(250));
        send(request, START.plusMillis(800)); // a clock a little ahead: no wait

        assertThat(assignments.readValuesToList()).hasSize(6);
        assertThat(count("coordinate.attempts.started")).isEqualTo(6);
        Timer wait = registry.get("coordinate.request.assignment").timer();
        assertThat(wait.count()).isEqualTo(3);
        assertThat(wait.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(3_600_250);
        assertThat(wait.max(TimeUnit.MILLISECONDS)).isEqualTo(3_600_000);
    }
}
