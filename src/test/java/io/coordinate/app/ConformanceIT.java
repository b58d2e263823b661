package io.coordinate.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.TopicNames;
import io.coordinate.query.KafkaCommandGateway;
import io.coordinate.testing.KafkaTestClient;
import io.coordinate.testing.RunningApp;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Conformance scenarios that need real concurrency, and chaining, through the real broker. */
class ConformanceIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    static Path dataDir;

    private static RunningApp app;
    private static KafkaCommandGateway gateway;
    private static KafkaTestClient client;

    @BeforeAll
    static void start() throws Exception {
        app = RunningApp.start(dataDir);
        gateway = app.gateway();
        client = app.client();
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    private static JsonNode call(String ns, String json) {
        return app.call(ns, json);
    }

    @Test
    @DisplayName("54. 100 units, 8 concurrent workers: every unit finished exactly once")
    void scenario54_concurrentWorkers() throws Exception {
        call("c54", "{\"command\":\"set_work_spec\",\"work_spec\":{\"name\":\"spec\"}}");
        StringBuilder units = new StringBuilder();
        for (int i = 0; i < 100; i++) {
            units.append(i == 0 ? "" : ",").append(String.format("{\"name\":\"u%03d\"}", i));
        }
        call("c54", "{\"command\":\"add_work_units\",\"work_spec_name\":\"spec\",\"work_units\":[" + units + "]}");

        List<String> done = Collections.synchronizedList(new ArrayList<>());
        ExecutorService workers = Executors.newFixedThreadPool(8);
        List<Future<?>> running = new ArrayList<>();
        for (int w = 0; w < 8; w++) {
            String worker = "worker-" + w;
            running.add(workers.submit(() -> {
                while (true) {
                    JsonNode attempts = call("c54", "{\"command\":\"request_attempts\",\"worker\":\"" + worker + "\"}")
                            .get("attempts");
                    if (attempts.isEmpty()) {
                        return null;
                    }
                    for (JsonNode attempt : attempts) {
                        call(
                                "c54",
                                "{\"command\":\"finish_attempt\",\"attempt_id\":\""
                                        + attempt.get("attempt_id").asText() + "\"}");
                        done.add(attempt.get("work_unit_name").asText());
                    }
                }
            }));
        }
        for (Future<?> worker : running) {
            worker.get(5, TimeUnit.MINUTES);
        }
        workers.shutdown();

        assertThat(done).hasSize(100).doesNotHaveDuplicates();
        JsonNode spec = client.get("/api/namespaces/c54/work-specs/spec").body();
        assertThat(spec.get("counts")).isEqualTo(Json.parse("{\"finished\":100}"));
    }

    @Test
    @DisplayName("55. 8 producers add unit000..unit999 concurrently: no errors, 1000 units")
    void scenario55_concurrentProducers() throws Exception {
        call("c55", "{\"command\":\"set_work_spec\",\"work_spec\":{\"name\":\"spec\"}}");
        List<CompletableFuture<ObjectNode>> replies = new ArrayList<>();
        ExecutorService producers = Executors.newFixedThreadPool(8);
        List<Future<List<CompletableFuture<ObjectNode>>>> sent = new ArrayList<>();
        for (int p = 0; p < 8; p++) {
            sent.add(producers.submit(() -> {
                List<CompletableFuture<ObjectNode>> mine = new ArrayList<>();
                for (int i = 0; i < 1000; i++) {
                    mine.add(gateway.submit(
                            "c55",
                            (ObjectNode) Json.parse(String.format(
                                    "{\"command\":\"add_work_units\",\"work_spec_name\":\"spec\",\"work_units\":[{\"name\":\"unit%03d\"}]}",
                                    i)),
                            TIMEOUT));
                }
                return mine;
            }));
        }
        for (Future<List<CompletableFuture<ObjectNode>>> batch : sent) {
            replies.addAll(batch.get(2, TimeUnit.MINUTES));
        }
        producers.shutdown();
        ConcurrentHashMap<String, Integer> errors = new ConcurrentHashMap<>();
        for (CompletableFuture<ObjectNode> reply : replies) {
            ObjectNode value = reply.get(2, TimeUnit.MINUTES);
            if (!value.get("ok").asBoolean()) {
                errors.merge(value.get("error").get("code").asText(), 1, Integer::sum);
            }
        }

        assertThat(replies).hasSize(8000);
        assertThat(errors).isEmpty();
        JsonNode spec = client.get("/api/namespaces/c55/work-specs/spec").body();
        assertThat(spec.get("counts")).isEqualTo(Json.parse("{\"available\":1000}"));
        JsonNode page = client.get("/api/namespaces/c55/work-specs/spec/work-units?limit=2&previous=unit997")
                .body();
        assertThat(page.get("work_units").get(0).get("name").asText()).isEqualTo("unit998");
        assertThat(page.get("work_units").get(1).get("name").asText()).isEqualTo("unit999");
    }

    @Test
    @DisplayName("38. Chaining through coordinate.chained: output of one becomes units of two")
    void scenario38_chainingEndToEnd() throws Exception {
        call("c38", "{\"command\":\"set_work_spec\",\"work_spec\":{\"name\":\"one\",\"then\":\"two\"}}");
        call("c38", "{\"command\":\"set_work_spec\",\"work_spec\":{\"name\":\"two\",\"disabled\":true}}");
        call("c38", "{\"command\":\"add_work_units\",\"work_spec_name\":\"one\",\"work_units\":[{\"name\":\"u\"}]}");
        JsonNode attempt = call("c38", "{\"command\":\"request_attempts\",\"worker\":\"w\"}")
                .get("attempts")
                .get(0);
        call(
                "c38",
                "{\"command\":\"finish_attempt\",\"attempt_id\":\""
                        + attempt.get("attempt_id").asText() + "\",\"data\":{\"output\":{\"two_b\":{\"k\":\"v\"}}}}");

        KafkaTestClient.HttpAnswer unit = awaitUnit("c38", "two", "two_b");
        assertThat(unit.body().get("status").asText()).isEqualTo("available");
        assertThat(unit.body().get("data")).isEqualTo(Json.parse("{\"k\":\"v\"}"));
        List<JsonNode> chained = client.awaitValues(TopicNames.unprefixed().chained(), "c38", 1);
        assertThat(chained.get(0).get("work_spec_name").asText()).isEqualTo("two");
    }

    private static KafkaTestClient.HttpAnswer awaitUnit(String ns, String spec, String unit) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (true) {
            KafkaTestClient.HttpAnswer answer =
                    client.get("/api/namespaces/" + ns + "/work-specs/" + spec + "/work-units/" + unit);
            if (answer.status() == 200 || System.nanoTime() > deadline) {
                return answer;
            }
            Thread.sleep(100);
        }
    }
}
