package io.coordinate.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.TopicNames;
import io.coordinate.query.KafkaCommandGateway;
import io.coordinate.query.QueryServer;
import io.coordinate.storage.InMemoryKeyValueStore;
import io.coordinate.testing.FixedLocator;
import io.coordinate.testing.RunningApp;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POST .../commands} repeated with one key, through a real broker, the app and its HTTP server, and through a
 * second HTTP server with a gateway of its own (as another instance): the repeat gets the first answer, whichever
 * instance takes it; another key gets other units.
 */
class IdempotentCommandsIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    static Path dataDir;

    private static RunningApp app;
    private static KafkaCommandGateway otherGateway;
    private static QueryServer otherInstance;

    @BeforeAll
    static void start() throws Exception {
        app = RunningApp.start(dataDir);
        otherGateway = new KafkaCommandGateway(app.env().bootstrapServers(), TopicNames.unprefixed());
        otherInstance = new QueryServer(
                        new FixedLocator(new InMemoryKeyValueStore()),
                        otherGateway,
                        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT))
                .start(0);
    }

    @AfterAll
    static void stop() {
        otherInstance.close();
        otherGateway.close();
        app.close();
    }

    private static void spec(String ns, int units) {
        app.call(ns, "{\"command\":\"set_work_spec\",\"work_spec\":{\"name\":\"s\"}}");
        StringBuilder items = new StringBuilder();
        for (int i = 1; i <= units; i++) {
            items.append(i == 1 ? "" : ",").append("{\"name\":\"u").append(i).append("\"}");
        }
        app.call(ns, "{\"command\":\"add_work_units\",\"work_spec_name\":\"s\",\"work_units\":[" + items + "]}");
    }

    private static CompletableFuture<HttpResponse<String>> post(int port, String ns, String key, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + port + "/api/namespaces/" + ns + "/commands"))
                .timeout(WAIT)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (key != null) {
            request.header("Idempotency-Key", key);
        }
        return HTTP.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The answer of a POST that must be 200. */
    private static JsonNode ok(CompletableFuture<HttpResponse<String>> response) {
        HttpResponse<String> answer = response.join();
        assertThat(answer.statusCode()).as("answer %s", answer.body()).isEqualTo(200);
        return Json.parse(answer.body());
    }

    private static List<String> attemptIds(JsonNode answer) {
        List<String> ids = new ArrayList<>();
        answer.at("/result/attempts")
                .forEach(attempt -> ids.add(attempt.get("attempt_id").asText()));
        return ids;
    }

    private static String request(String worker, String requestId) {
        return "{\"command\":\"request_attempts\",\"worker\":\"" + worker + "\",\"count\":1"
                + (requestId == null ? "" : ",\"request_id\":\"" + requestId + "\"") + "}";
    }

    private static String counts(String ns) {
        return app.client()
                .get("/api/namespaces/" + ns + "/work-specs/s")
                .body()
                .get("counts")
                .toString();
    }

    @Test
    void theSameRequestPostedTwiceWithOneKeyGetsTheSameAttempts() {
        String ns = "idem-http";
        spec(ns, 5);
        int here = app.env().httpPort();
        int there = otherInstance.port();

        JsonNode first = ok(post(here, ns, null, request("w1", "k-1")));
        JsonNode again = ok(post(here, ns, null, request("w1", "k-1")));
        JsonNode elsewhere = ok(post(there, ns, null, request("w1", "k-1")));
        JsonNode byHeader = ok(post(there, ns, "k-1", request("w1", null)));

        assertThat(attemptIds(first)).hasSize(1);
        assertThat(again).as("the same answer").isEqualTo(first);
        assertThat(elsewhere).as("through another instance's gateway").isEqualTo(first);
        assertThat(byHeader).as("the header names the same key").isEqualTo(first);
        assertThat(first.get("request_id").asText()).isEqualTo("k-1");
        assertThat(first.at("/result/request_id").asText()).isEqualTo("k-1");
        assertThat(counts(ns)).isEqualTo("{\"available\":4,\"pending\":1}");

        JsonNode headerFirst = ok(post(here, ns, "k-2", request("w1", null)));
        JsonNode headerAgain = ok(post(there, ns, "k-2", request("w1", null)));
        JsonNode otherKey = ok(post(here, ns, null, request("w1", "k-3")));
        JsonNode noKey = ok(post(here, ns, null, request("w1", null)));
        JsonNode noKeyAgain = ok(post(here, ns, null, request("w1", null)));

        assertThat(headerAgain).isEqualTo(headerFirst);
        assertThat(headerFirst.get("request_id").asText()).isEqualTo("k-2");
        List<String> all = new ArrayList<>();
        for (JsonNode answer : List.of(first, headerFirst, otherKey, noKey, noKeyAgain)) {
            assertThat(attemptIds(answer)).hasSize(1);
            all.addAll(attemptIds(answer));
        }
        assertThat(all)
                .as("each other key, and each request without one, gets another unit")
                .doesNotHaveDuplicates();
        assertThat(noKey.get("request_id").isNull()).isTrue();
        assertThat(counts(ns)).isEqualTo("{\"pending\":5}");
    }

    @Test
    void concurrentRepeatsThroughOneGatewayOrTwoAllGetTheFirstAnswer() {
        String ns = "idem-concurrent";
        spec(ns, 3);
        List<CompletableFuture<HttpResponse<String>>> sent = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            sent.add(post(app.env().httpPort(), ns, "same", request("w1", null)));
            sent.add(post(otherInstance.port(), ns, "same", request("w1", null)));
        }

        JsonNode first = ok(sent.get(0));
        assertThat(attemptIds(first)).hasSize(1);
        for (CompletableFuture<HttpResponse<String>> response : sent) {
            JsonNode answer = ok(response);
            assertThat(attemptIds(answer)).isEqualTo(attemptIds(first));
            assertThat(answer.get("request_id").asText()).isEqualTo("same");
        }
        assertThat(counts(ns)).isEqualTo("{\"available\":2,\"pending\":1}");
    }
}
