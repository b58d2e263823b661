package io.coordinate.query;

import static io.coordinate.query.EngineFixture.T0;
import static io.coordinate.query.QueryTestSupport.assertAnswer;
import static io.coordinate.query.QueryTestSupport.assertError;
import static io.coordinate.query.QueryTestSupport.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.config.HttpSettings;
import io.coordinate.protocol.Json;
import io.coordinate.testing.FixedLocator;
import io.coordinate.testing.Poll;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What bounds a client's hold on the server: open connections, their idle time, the size of a body; and the JSON
 * answers Jetty gives to requests that never reach a route.
 */
class HttpBoundsTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    private final FakeGateway gateway = new FakeGateway();
    private QueryServer server;
    private Http http;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private void start(HttpSettings settings) {
        gateway.answer = command ->
                CompletableFuture.completedFuture((ObjectNode) json("{'request_id':'gw-1','ok':true,'result':{}}"));
        server = new QueryServer(
                        new FixedLocator(new EngineFixture().store),
                        gateway,
                        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
                        () -> T0,
                        Duration.ofSeconds(3))
                .withHttpSettings(settings)
                .start(0);
        http = new Http(server.port());
    }

    @Test
    void jettysOwnErrorsAreJson() {
        start(HttpSettings.DEFAULTS);
        String host = "Host: 127.0.0.1\r\nConnection: close\r\n\r\n";
        assertJettyError(http.raw("GET /api/%zz HTTP/1.1\r\n" + host), 400, "bad_request", "Bad Request");
        assertJettyError(http.raw("GET /health HTTP/1.1\r\nConnection: close\r\n\r\n"), 400, "bad_request", "No Host");
        assertJettyError(
                http.raw("GET /health HTTP/9.9\r\n" + host), 505, "http_version_not_supported", "Unknown Version");
        assertJettyError(
                http.raw("GET /health HTTP/1.1\r\nX-Big: " + "a".repeat(20_000) + "\r\n" + host),
                431,
                "headers_too_large",
                "Request Header Fields Too Large");
        assertJettyError(
                http.raw("GET /" + "a".repeat(9_000) + " HTTP/1.1\r\n" + host), 414, "uri_too_long", "URI Too Long");
    }

    private static void assertJettyError(Http.Raw answer, int status, String code, String message) {
        assertThat(answer.status()).as(answer.body()).isEqualTo(status);
        assertThat(answer.headers().get("content-type")).isEqualTo("application/json");
        assertThat(Json.parse(answer.body())).isEqualTo(Responses.error(code, message));
    }

    @Test
    void aBodyOverTheLimitIs413AndSendsNothing() {
        start(HttpSettings.DEFAULTS);
        String command = "{\"command\":\"deactivate_worker\",\"worker\":\"w\"}";
        byte[] exact = (command + " ".repeat(CommandRoutes.MAX_BODY_BYTES - command.length()))
                .getBytes(StandardCharsets.UTF_8);
        byte[] over = (command + " ".repeat(CommandRoutes.MAX_BODY_BYTES + 1 - command.length()))
                .getBytes(StandardCharsets.UTF_8);
        String message = "a command's body is at most 1000000 bytes";
        assertError(
                http.send(commands().POST(HttpRequest.BodyPublishers.ofByteArray(over))),
                413,
                "body_too_large",
                message);
        // Chunked: no length is declared, so the body is read up to the limit and no further.
        assertError(
                http.send(commands()
                        .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(over)))),
                413,
                "body_too_large",
                message);
        assertThat(gateway.calls).isEmpty();
        assertAnswer(
                http.send(commands().POST(HttpRequest.BodyPublishers.ofByteArray(exact))),
                200,
                "{'request_id':null,'ok':true,'result':{}}");
        assertThat(gateway.calls).hasSize(1);
    }

    private HttpRequest.Builder commands() {
        return HttpRequest.newBuilder(http.uri("/api/namespaces/n/commands"))
                .header("Content-Type", "application/json");
    }

    @Test
    void aConnectionThatSendsNothingIsClosedAfterTheIdleTimeout() throws IOException {
        start(new HttpSettings(8, Duration.ofSeconds(1), List.of(), List.of()));
        try (Socket silent = new Socket("127.0.0.1", server.port());
                Socket afterOne = new Socket("127.0.0.1", server.port())) {
            afterOne.getOutputStream()
                    .write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            for (Socket socket : List.of(silent, afterOne)) {
                socket.setSoTimeout((int) WAIT.toMillis());
                assertThat(drain(socket.getInputStream()))
                        .as("the server closed the connection")
                        .isTrue();
            }
        }
    }

    /** Reads until the end of the stream: true when the server closed it, false when it stayed open till the timeout. */
    private static boolean drain(InputStream in) {
        try {
            while (in.read() >= 0) {
                // the answer to the one request, if any
            }
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Test
    void atTheLimitNewConnectionsWaitForAFreeOneAndTheLogSaysSo() throws Exception {
        start(new HttpSettings(2, Duration.ofSeconds(60), List.of(), List.of()));
        try (StderrCapture log = new StderrCapture();
                Socket first = new Socket("127.0.0.1", server.port());
                Socket second = new Socket("127.0.0.1", server.port());
                Socket waiting = new Socket("127.0.0.1", server.port())) {
            Poll.until(
                    "the log line",
                    WAIT,
                    log::text,
                    text -> text.contains("HTTP reached its limit of 2 open "
                            + "connections (--http-max-connections): new ones wait until one closes, and idle ones close after 60 s "
                            + "(1 time(s) since the last such line)"));
            waiting.getOutputStream()
                    .write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
                            .getBytes(StandardCharsets.US_ASCII));
            CompletableFuture<String> answer = CompletableFuture.supplyAsync(() -> {
                try {
                    return new String(waiting.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            first.close();
            assertThat(answer.get(WAIT.toSeconds(), TimeUnit.SECONDS)).startsWith("HTTP/1.1 200 OK");
        }
    }

    @Test
    void theLimitIsLoggedAtMostOnceAMinute() {
        ConnectionCap cap = new ConnectionCap(5, Duration.ofSeconds(10), new ServerConnector(new Server()));
        long minute = ConnectionCap.LOG_INTERVAL.toNanos();
        assertThat(cap.reached(0))
                .isEqualTo(
                        "HTTP reached its limit of 5 open connections (--http-max-connections): "
                                + "new ones wait until one closes, and idle ones close after 10 s (1 time(s) since the last such line)");
        assertThat(cap.reached(1)).isNull();
        assertThat(cap.reached(minute - 1)).isNull();
        assertThat(cap.reached(minute)).endsWith("(3 time(s) since the last such line)");
        assertThat(cap.reached(minute + 5)).isNull();
    }

    /** Collects what is written to stderr (where slf4j-simple logs) while open; it still reaches the console. */
    private static final class StderrCapture implements AutoCloseable {

        private final PrintStream original = System.err;
        private final ByteArrayOutputStream captured = new ByteArrayOutputStream();

        StderrCapture() {
            System.setErr(new PrintStream(
                    new OutputStream() {
                        @Override
                        public void write(int b) {
                            original.write(b);
                            synchronized (captured) {
                                captured.write(b);
                            }
                        }
                    },
                    true,
                    StandardCharsets.UTF_8));
        }

        String text() {
            synchronized (captured) {
                return captured.toString(StandardCharsets.UTF_8);
            }
        }

        @Override
        public void close() {
            System.setErr(original);
        }
    }
}
