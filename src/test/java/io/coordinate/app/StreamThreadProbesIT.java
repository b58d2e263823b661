package io.coordinate.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.cli.DevEnvironment;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.TopicNames;
import io.coordinate.testing.KafkaTestClient;
import io.coordinate.testing.KafkaTestClient.HttpAnswer;
import io.coordinate.testing.Poll;
import io.coordinate.testing.RefusingConsumerInterceptor;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The probes when stream threads fail. A stream thread is made to fail by a command whose output the producer refuses
 * (a lower {@code max.request.size} than the engine's limit): it is replaced, and the new thread skips the command.
 */
class StreamThreadProbesIT {

    private static final TopicNames TOPICS = TopicNames.unprefixed();

    @TempDir
    Path dataDir;

    @AfterEach
    void stopRefusing() {
        RefusingConsumerInterceptor.refuse = false;
    }

    /**
     * A stream thread that dies and cannot be replaced (a process out of file descriptors could not build the new one)
     * leaves Kafka Streams saying RUNNING with nothing processed: liveness must fail, readiness too, and the app says it
     * stopped (the CLI then exits with code 5). The replacement fails here on a main consumer that cannot be built
     * ({@link RefusingConsumerInterceptor}).
     */
    @Test
    void aStreamThreadThatCannotBeReplacedFailsLivenessAndReadiness() throws Exception {
        try (DevEnvironment env = DevEnvironment.start(
                        0,
                        0,
                        dataDir,
                        c -> c.withKafkaProperties(Map.of(
                                "producer.max.request.size",
                                "200000",
                                "main.consumer.interceptor.classes",
                                RefusingConsumerInterceptor.class.getName())));
                KafkaTestClient client = new KafkaTestClient(env.bootstrapServers(), env.httpPort())) {
            assertThat(client.get("/health/live")).isEqualTo(answer(200, "{'status':'UP','streams':'RUNNING'}"));

            RefusingConsumerInterceptor.refuse = true;
            client.send(
                    TOPICS.commands(),
                    "lost",
                    "{\"command\":\"set_work_spec\",\"namespace\":\"lost\"," + "\"work_spec\":{\"name\":\"s\"}}");
            client.send(TOPICS.commands(), "lost", bigAdd("lost", "big"));

            HttpAnswer live = Poll.until(
                    "liveness to fail",
                    Duration.ofSeconds(60),
                    () -> client.get("/health/live"),
                    a -> a.status() != 200);
            String reason = env.application().stopped().get();
            assertThat(reason)
                    .startsWith("no stream thread has been alive for 10 s, and none was started in place of "
                            + "the failed one (the last failure: org.apache.kafka.streams.errors.StreamsException: ");
            assertThat(live)
                    .isEqualTo(new HttpAnswer(
                            503,
                            Json.object()
                                    .put("status", "DOWN")
                                    .put("streams", "RUNNING")
                                    .put("error", reason)));
            assertThat(client.get("/health/ready"))
                    .isEqualTo(new HttpAnswer(
                            503, Json.object().put("status", "FAILING").put("error", reason)));
        }
    }

    /**
     * Three failures in a row are a failure loop, but once the stream thread commits again (it skipped the three
     * commands and ran the next one) the cause is gone: readiness answers RUNNING at once, not ten minutes later.
     */
    @Test
    void readinessRecoversAsSoonAsTheStreamThreadCommitsAfterAFailureLoop() throws Exception {
        try (DevEnvironment env = DevEnvironment.start(
                        0, 0, dataDir, c -> c.withKafkaProperties(Map.of("producer.max.request.size", "200000")));
                KafkaTestClient client = new KafkaTestClient(env.bootstrapServers(), env.httpPort())) {
            // The app remembers a refused command by its partition and offset for the JVM's life (RefusedOutputs), and
            // the
            // other test's is at offset 1: two commands first put these at offsets 2 to 4, whatever the partitions.
            for (String spec : new String[] {"s", "t"}) {
                client.send(
                        TOPICS.commands(),
                        "loop",
                        "{\"command\":\"set_work_spec\",\"namespace\":\"loop\"," + "\"work_spec\":{\"name\":\"" + spec
                                + "\"}}");
            }
            for (int i = 1; i <= 3; i++) {
                client.send(TOPICS.commands(), "loop", bigAdd("loop", "big-" + i));
            }
            client.send(
                    TOPICS.commands(),
                    "loop",
                    "{\"command\":\"add_work_units\",\"namespace\":\"loop\","
                            + "\"work_spec_name\":\"s\",\"work_units\":[{\"name\":\"small\"}],\"reply_to\":\"it-loop\","
                            + "\"request_id\":\"small\"}");
            assertThat(client.awaitValues(TOPICS.replies(), "it-loop", 1)
                            .get(0)
                            .get("ok")
                            .asBoolean())
                    .isTrue();

            Poll.until(
                    "readiness after the loop",
                    Duration.ofSeconds(30),
                    () -> client.get("/health/ready"),
                    a -> a.equals(answer(200, "{'status':'RUNNING'}")));
            assertThat(failedThreads(client.getText("/metrics"))).isEqualTo(3.0);
            assertThat(client.get("/health/live")).isEqualTo(answer(200, "{'status':'UP','streams':'RUNNING'}"));
        }
    }

    /** An add of one unit whose changelog record the producer refuses (250 KB of data, over its 200,000 bytes). */
    private static String bigAdd(String namespace, String unit) {
        return "{\"command\":\"add_work_units\",\"namespace\":\"" + namespace + "\",\"work_spec_name\":\"s\","
                + "\"work_units\":[{\"name\":\"" + unit + "\",\"data\":{\"b\":\"" + "x".repeat(250_000) + "\"}}]}";
    }

    private static double failedThreads(String metrics) {
        return metrics.lines()
                .filter(l -> l.startsWith("kafka_stream_failed_stream_threads_total{"))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .sum();
    }

    private static HttpAnswer answer(int status, String singleQuotedJson) {
        return new HttpAnswer(status, Json.parse(singleQuotedJson.replace('\'', '"')));
    }
}
