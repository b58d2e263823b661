package io.coordinate.query;

import static io.coordinate.query.EngineFixture.T0;
import static io.coordinate.query.QueryTestSupport.assertAnswer;
import static io.coordinate.query.QueryTestSupport.assertError;
import static io.coordinate.query.QueryTestSupport.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.config.HttpSettings;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.TopicNames;
import io.coordinate.testing.FixedLocator;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A web page of another site, open in a browser on this machine, can neither change anything (a form or a {@code
 * no-cors} fetch POSTs {@code text/plain}; a page's fetch carries its {@code Origin}) nor read through a name of its
 * own re-pointed at this machine (DNS rebinding: its {@code Host}). The dashboard's own requests and other instances'
 * forwarded ones still pass.
 */
class CrossSiteRequestTest {

    private static final String DESTROY = "{\"command\":\"destroy_namespace\"}";

    private final FakeGateway gateway = new FakeGateway();
    private final EngineFixture engine = new EngineFixture();
    private final FixedLocator locator = new FixedLocator(engine.store);
    private QueryServer server;
    private QueryServer other;
    private Http http;

    @BeforeEach
    void start() {
        engine.apply(T0, "{'command':'set_work_spec','namespace':'n','work_spec':{'name':'s'}}");
        gateway.answer = command -> CompletableFuture.completedFuture(
                (ObjectNode) json("{'request_id':'gw-1','ok':true,'result':{'destroyed':'n'}}"));
        server = server(null, HttpSettings.DEFAULTS).start(0);
        http = new Http(server.port());
    }

    @AfterEach
    void stop() {
        server.close();
        if (other != null) {
            other.close();
        }
    }

    private QueryServer server(String token, HttpSettings settings) {
        return new QueryServer(
                        locator,
                        gateway,
                        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
                        () -> T0,
                        Duration.ofSeconds(3),
                        token)
                .withFeeds(Map.of("bootstrap.servers", "127.0.0.1:9"), TopicNames.unprefixed())
                .withHttpSettings(settings);
    }

    private HttpRequest.Builder post(String path, String contentType) {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(http.uri(path)).POST(HttpRequest.BodyPublishers.ofString(DESTROY));
        return contentType == null ? request : request.header("Content-Type", contentType);
    }

    private String get(String hostHeader, String path) {
        return "GET " + path + " HTTP/1.1\r\nHost: " + hostHeader + "\r\nConnection: close\r\n\r\n";
    }

    @Test
    void aFormOrNoCorsPostIs415AndSendsNothing() {
        for (String type : List.of(
                "text/plain",
                "text/plain;charset=UTF-8",
                "application/x-www-form-urlencoded",
                "multipart/form-data; boundary=x")) {
            assertError(
                    http.send(post("/api/namespaces/n/commands", type)),
                    415,
                    "unsupported_media_type",
                    "POST requests need the header \"Content-Type: application/json\", got \"" + type + "\"");
        }
        assertError(
                http.send(post("/api/namespaces/n/commands", null)),
                415,
                "unsupported_media_type",
                "POST requests need the header \"Content-Type: application/json\"");
        assertError(
                http.send(post("/api/dead-letters/0/5/retry", "text/plain")),
                415,
                "unsupported_media_type",
                "POST requests need the header \"Content-Type: application/json\", got \"text/plain\"");
        assertThat(gateway.calls).isEmpty();
    }

    @Test
    void aPostFromAnotherSitesPageIs403AndSendsNothing() {
        for (String origin : List.of(
                "http://evil.example",
                "http://evil.example:" + server.port(),
                "null",
                "http://127.0.0.1:" + (server.port() - 1),
                "http://localhost")) {
            HttpResponse<String> answer = http.send(
                    post("/api/namespaces/n/commands", "application/json").header("Origin", origin));
            assertError(
                    answer,
                    403,
                    "forbidden_origin",
                    "requests from pages of " + origin + " are refused: add the "
                            + "origin to --http-allowed-origins (COORDINATE_HTTP_ALLOWED_ORIGINS) to let them in");
            assertThat(answer.headers().firstValue("Access-Control-Allow-Origin"))
                    .isEmpty();
        }
        assertThat(http.send(post("/api/dead-letters/0/5/retry", "application/json")
                                .header("Origin", "http://evil.example"))
                        .statusCode())
                .isEqualTo(403);
        // Its EventSource, too: each open stream holds a Kafka consumer.
        assertThat(http.send(HttpRequest.newBuilder(http.uri("/api/namespaces/n/events"))
                                .header("Accept", "text/event-stream")
                                .header("Origin", "http://evil.example"))
                        .statusCode())
                .isEqualTo(403);
        assertThat(gateway.calls).isEmpty();
    }

    @Test
    void theDashboardsOwnPostIsSent() {
        // A browser sends the page's origin with every POST, the dashboard's included.
        assertAnswer(
                http.send(post("/api/namespaces/n/commands", "application/json; charset=utf-8")
                        .header("Origin", "http://127.0.0.1:" + server.port())),
                200,
                "{'request_id':null,'ok':true,'result':{'destroyed':'n'}}");
        Http.Raw viaLocalhost = http.raw("POST /api/namespaces/n/commands HTTP/1.1\r\nHost: localhost:" + server.port()
                + "\r\nOrigin: http://LOCALHOST:" + server.port()
                + "\r\nContent-Type: application/json\r\nContent-Length: "
                + DESTROY.length() + "\r\nConnection: close\r\n\r\n" + DESTROY);
        assertThat(viaLocalhost.status()).isEqualTo(200);
        assertThat(gateway.calls).hasSize(2);
    }

    @Test
    void anotherHostNameIs403ForReadsAndChanges() {
        for (String path : List.of("/api/namespaces", "/api/namespaces/n/summary", "/", "/metrics")) {
            Http.Raw answer = http.raw(get("evil.example:" + server.port(), path));
            assertThat(answer.status()).as(path).isEqualTo(403);
            assertThat(answer.headers().get("content-type")).as(path).startsWith("application/json");
            assertThat(Json.parse(answer.body()))
                    .as(path)
                    .isEqualTo(
                            Responses.error(
                                    "forbidden_host",
                                    "this instance does not answer to the name in \"Host: evil.example:" + server.port()
                                            + "\": add it to "
                                            + "--http-allowed-hosts (COORDINATE_HTTP_ALLOWED_HOSTS) if clients reach it by that name"));
        }
        Http.Raw post = http.raw("POST /api/namespaces/n/commands HTTP/1.1\r\nHost: evil.example\r\n"
                + "Content-Type: application/json\r\nContent-Length: " + DESTROY.length()
                + "\r\nConnection: close\r\n\r\n"
                + DESTROY);
        assertThat(post.status()).isEqualTo(403);
        assertThat(gateway.calls).isEmpty();
    }

    @Test
    void loopbackNamesAndAddressesAreAnswered() {
        int port = server.port();
        for (String host : List.of(
                "127.0.0.1:" + port,
                "localhost:" + port,
                "LocalHost.:" + port,
                "localhost",
                "[::1]:" + port,
                "10.0.0.7:8080",
                "192.0.2.1")) {
            assertThat(http.raw(get(host, "/api/namespaces")).status()).as(host).isEqualTo(200);
        }
        // HTTP/1.0 without Host, as the image's health check asks: no browser sends that.
        assertThat(http.raw("GET /health/live HTTP/1.0\r\n\r\n").status()).isEqualTo(200);
        for (String host : List.of("localhost.evil.example", "127.0.0.1.evil.example", "1.2.3", "256.1.1.1")) {
            assertThat(http.raw(get(host, "/api/namespaces")).status()).as(host).isEqualTo(403);
        }
    }

    @Test
    void configuredHostsAndOriginsAreAnswered() {
        server.close();
        server = server(
                        "tok",
                        new HttpSettings(
                                        8,
                                        Duration.ofSeconds(5),
                                        List.of("Coordinate.Internal"),
                                        List.of("https://ops.example", "http://ops.example:8443"))
                                .allowingHost("node-1"))
                .start(0);
        http = new Http(server.port());
        for (String host : List.of("coordinate.internal:8080", "node-1:" + server.port(), "NODE-1")) {
            assertThat(http.raw(get(host, "/api/namespaces")).status()).as(host).isEqualTo(200);
        }
        // A page of an allowed origin: its preflight passes without the token, then its POST with it.
        HttpResponse<String> preflight = http.send(HttpRequest.newBuilder(http.uri("/api/namespaces/n/commands"))
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                .header("Origin", "https://ops.example")
                .header("Access-Control-Request-Method", "POST")
                .header("Access-Control-Request-Headers", "authorization,content-type"));
        assertThat(preflight.statusCode()).isEqualTo(204);
        assertThat(preflight.headers().map())
                .containsEntry("access-control-allow-origin", List.of("https://ops.example"))
                .containsEntry("access-control-allow-methods", List.of("GET, POST"))
                .containsEntry("access-control-allow-headers", List.of("Authorization, Content-Type, Last-Event-ID"));
        HttpResponse<String> sent = http.send(post("/api/namespaces/n/commands", "application/json")
                .header("Origin", "http://OPS.example:8443")
                .header("Authorization", "Bearer tok"));
        assertAnswer(sent, 200, "{'request_id':null,'ok':true,'result':{'destroyed':'n'}}");
        assertThat(sent.headers().firstValue("Access-Control-Allow-Origin")).hasValue("http://OPS.example:8443");
        assertThat(http.send(post("/api/namespaces/n/commands", "application/json")
                                .header("Origin", "https://ops.example:8443"))
                        .statusCode())
                .isEqualTo(403);
        assertThat(gateway.calls).hasSize(1);
    }

    @Test
    void anyHostAndAnyOriginWithAStar() {
        server.close();
        server = server(null, new HttpSettings(8, Duration.ofSeconds(5), List.of("*"), List.of("*")))
                .start(0);
        http = new Http(server.port());
        assertThat(http.raw(get("evil.example", "/api/namespaces")).status()).isEqualTo(200);
        assertThat(http.send(post("/api/namespaces/n/commands", "application/json")
                                .header("Origin", "null"))
                        .statusCode())
                .isEqualTo(200);
    }

    /**
     * Instances forward reads to each other by the advertised name (here this machine's, as in a container): the owner
     * answers to it because the app adds it to the allowed hosts, and only then.
     */
    @Test
    void forwardingByTheAdvertisedNameKeepsWorking() {
        String name = resolvableHostName();
        EngineFixture ownerEngine = new EngineFixture();
        ownerEngine.apply(T0, "{'command':'set_work_spec','namespace':'m','work_spec':{'name':'s'}}");
        other = new QueryServer(
                        new FixedLocator(ownerEngine.store),
                        new FakeGateway(),
                        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT))
                .withHttpSettings(HttpSettings.DEFAULTS)
                .start("0.0.0.0", 0);
        locator.locations.put("m", new NamespaceLocator.Remote(name + ":" + other.port()));
        HttpResponse<String> refused = http.get("/api/namespaces/m/work-specs");
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(QueryTestSupport.body(refused).at("/error/code").asText()).isEqualTo("forbidden_host");
        other.close();
        other = new QueryServer(
                        new FixedLocator(ownerEngine.store),
                        new FakeGateway(),
                        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT))
                .withHttpSettings(HttpSettings.DEFAULTS.allowingHost(name))
                .start("0.0.0.0", 0);
        locator.locations.put("m", new NamespaceLocator.Remote(name + ":" + other.port()));
        HttpResponse<String> direct = new Http(other.port()).get("/api/namespaces/m/work-specs");
        HttpResponse<String> forwarded = http.get("/api/namespaces/m/work-specs");
        assertThat(direct.statusCode()).isEqualTo(200);
        assertThat(forwarded.statusCode()).isEqualTo(200);
        assertThat(forwarded.body()).isEqualTo(direct.body());
    }

    /** This machine's name, when it resolves to an address of its own, and is no IP address. */
    private static String resolvableHostName() {
        String name;
        try {
            name = InetAddress.getLocalHost().getHostName();
            InetAddress.getByName(name);
        } catch (UnknownHostException e) {
            name = null;
        }
        assumeThat(name).as("this machine's host name resolves").isNotNull();
        assumeThat(RequestGuard.isIpAddress(name) || name.equalsIgnoreCase("localhost"))
                .isFalse();
        return name;
    }
}
