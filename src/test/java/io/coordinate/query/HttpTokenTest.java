package io.coordinate.query;

import static io.coordinate.query.EngineFixture.T0;
import static io.coordinate.query.QueryTestSupport.assertAnswer;
import static io.coordinate.query.QueryTestSupport.assertError;
import static io.coordinate.query.QueryTestSupport.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import io.coordinate.testing.FixedLocator;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** An instance with a token: mutations need it, reads do not, and forwarded requests carry it. */
class HttpTokenTest {

    private static final String TOKEN = "s3cret-tok3n";
    private static final String COMMAND = "{\"command\":\"destroy_namespace\"}";

    private final FakeGateway gateway = new FakeGateway();
    private final EngineFixture engine = new EngineFixture();
    private final FixedLocator locator = new FixedLocator(engine.store);
    private QueryServer server;
    private Http http;

    @BeforeEach
    void start() {
        engine.apply(T0, "{'command':'set_work_spec','namespace':'n','work_spec':{'name':'s'}}");
        gateway.answer = command ->
                CompletableFuture.completedFuture((ObjectNode) json("{'request_id':'gw-1','ok':true,'result':{}}"));
        server = new QueryServer(
                        locator,
                        gateway,
                        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
                        () -> T0,
                        Duration.ofSeconds(3),
                        TOKEN)
                .start(0);
        http = new Http(server.port());
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private HttpRequest.Builder post(String path, String authorization) {
        HttpRequest.Builder request = HttpRequest.newBuilder(http.uri(path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(COMMAND));
        return authorization == null ? request : request.header("Authorization", authorization);
    }

    @Test
    void aCommandWithoutTheTokenIs401AndNothingIsSent() {
        var answer = http.send(post("/api/namespaces/n/commands", null));
        assertError(
                answer,
                401,
                "unauthorized",
                "this instance needs the header \"Authorization: Bearer <token>\" for POST requests");
        assertThat(answer.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
        assertThat(gateway.calls).isEmpty();
    }

    @Test
    void aCommandWithAnotherTokenOrSchemeIs401AndNothingIsSent() {
        for (String wrong : List.of("Bearer " + TOKEN + "x", "Bearer s3cret", "Bearer ", "Basic " + TOKEN, TOKEN)) {
            var answer = http.send(post("/api/namespaces/n/commands", wrong));
            assertThat(answer.statusCode()).as(wrong).isEqualTo(401);
            assertThat(QueryTestSupport.body(answer).at("/error/code").asText())
                    .as(wrong)
                    .isEqualTo("unauthorized");
        }
        assertError(
                http.send(post("/api/namespaces/n/commands", "Bearer nope")),
                401,
                "unauthorized",
                "the bearer token is not this instance's");
        assertThat(gateway.calls).isEmpty();
    }

    @Test
    void aCommandWithTheTokenIsSent() {
        assertAnswer(
                http.send(post("/api/namespaces/n/commands", "Bearer " + TOKEN)),
                200,
                "{'request_id':null,'ok':true,'result':{}}");
        assertAnswer(
                http.send(post("/api/namespaces/n/commands", "bearer " + TOKEN)),
                200,
                "{'request_id':null,'ok':true,'result':{}}");
        assertThat(gateway.calls).hasSize(2);
        assertThat(gateway.calls.get(0).command()).isEqualTo(json("{'command':'destroy_namespace','namespace':'n'}"));
    }

    @Test
    void everyMethodButGetAndHeadNeedsTheToken() {
        for (String method : List.of("PUT", "DELETE", "PATCH", "POST")) {
            var answer = http.send(HttpRequest.newBuilder(http.uri("/api/namespaces/n"))
                    .method(method, HttpRequest.BodyPublishers.noBody()));
            assertThat(answer.statusCode()).as(method).isEqualTo(401);
        }
        assertThat(gateway.calls).isEmpty();
    }

    @Test
    void readsStayOpen() {
        assertAnswer(http.get("/health"), 200, "{'status':'RUNNING'}");
        assertThat(http.get("/api/namespaces/n/work-specs").statusCode()).isEqualTo(200);
        assertThat(http.send(HttpRequest.newBuilder(http.uri("/health"))
                                .method("HEAD", HttpRequest.BodyPublishers.noBody()))
                        .statusCode())
                .isEqualTo(200);
    }

    @Test
    void aForwardedReadCarriesTheToken() throws IOException {
        List<String> seen = new CopyOnWriteArrayList<>();
        HttpServer owner = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        owner.createContext("/", exchange -> {
            seen.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
            byte[] body = "{\"namespace\":\"m\"}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        owner.start();
        try {
            locator.locations.put(
                    "m",
                    new NamespaceLocator.Remote(
                            "127.0.0.1:" + owner.getAddress().getPort()));
            assertAnswer(http.get("/api/namespaces/m/summary"), 200, "{'namespace':'m'}");
            assertThat(seen).containsExactly("Bearer " + TOKEN);
        } finally {
            owner.stop(0);
        }
    }
}
