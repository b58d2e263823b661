package io.coordinate.query;

import static io.coordinate.query.EngineFixture.T0;
import static io.coordinate.query.QueryTestSupport.assertError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coordinate.protocol.TopicNames;
import io.coordinate.testing.FixedLocator;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the event feed and dead-letter routes decide before reading Kafka (here a closed port, never reached): the
 * request's headers and parameters, and the token (for retries; for reads too when the feeds need it). Reading Kafka is tested on a real broker (KafkaCommandGatewayIT,
 * OperatorCommandsIT, SecureKafkaIT).
 */
class FeedRoutesTest {

    private static final String TOKEN = "feed-token";

    private QueryServer server;
    private Http http;

    @BeforeEach
    void start() {
        server = new QueryServer(
                        new FixedLocator(new EngineFixture().store),
                        new FakeGateway(),
                        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
                        () -> T0,
                        Duration.ofSeconds(3),
                        TOKEN)
                .withFeeds(Map.of("bootstrap.servers", "127.0.0.1:9"), TopicNames.unprefixed());
        server.start(0);
        http = new Http(server.port());
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private HttpRequest.Builder events(String query) {
        return HttpRequest.newBuilder(http.uri("/api/namespaces/n/events" + query))
                .header("Accept", "text/event-stream");
    }

    @Test
    void theFeedNeedsTheEventStreamAcceptHeader() {
        assertError(
                http.get("/api/namespaces/n/events"),
                406,
                "not_acceptable",
                "this route is a stream of Server-Sent Events: send the header \"Accept: text/event-stream\"");
    }

    @Test
    void aFromOrLastEventIdThatIsNoOffsetIs400() {
        assertError(
                http.send(events("?from=yesterday")),
                400,
                "bad_request",
                "\"from\" must be now, earliest or an offset (a whole number >= 0), got \"yesterday\"");
        assertError(
                http.send(events("?from=-1")),
                400,
                "bad_request",
                "\"from\" must be now, earliest or an offset (a whole number >= 0), got \"-1\"");
        assertError(
                http.send(events("").header("Last-Event-ID", "x1")),
                400,
                "bad_request",
                "the header Last-Event-ID must be an offset (a whole number >= 0), got \"x1\"");
    }

    @Test
    void aRetryWithoutTheTokenIs401() {
        var answer = http.send(HttpRequest.newBuilder(http.uri("/api/dead-letters/0/5/retry"))
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertError(
                answer,
                401,
                "unauthorized",
                "this instance needs the header \"Authorization: Bearer <token>\" for POST requests");
    }

    @Test
    void withFeedsNeedingTheTokenReadingThemNeedsItAndOtherReadsStayOpen() {
        try (QueryServer guarded = new QueryServer(
                        new FixedLocator(new EngineFixture().store),
                        new FakeGateway(),
                        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
                        () -> T0,
                        Duration.ofSeconds(3),
                        TOKEN)
                .withFeeds(Map.of("bootstrap.servers", "127.0.0.1:9"), TopicNames.unprefixed(), true)
                .start(0)) {
            Http guardedHttp = new Http(guarded.port());
            String needed =
                    "this instance needs the header \"Authorization: Bearer <token>\" for reading the event feed "
                            + "and the dead letters";
            HttpRequest.Builder events = HttpRequest.newBuilder(guardedHttp.uri("/api/namespaces/n/events"))
                    .header("Accept", "text/event-stream");
            var refused = guardedHttp.send(events);
            assertError(refused, 401, "unauthorized", needed);
            assertThat(refused.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
            assertError(guardedHttp.get("/api/dead-letters?namespace=n"), 401, "unauthorized", needed);
            assertError(
                    guardedHttp.send(events.copy().header("Authorization", "Bearer wrong")),
                    401,
                    "unauthorized",
                    "the bearer token is not this instance's");
            // With the token the request goes on to the feed's own checks: here, the missing Accept header.
            assertError(
                    guardedHttp.send(HttpRequest.newBuilder(guardedHttp.uri("/api/namespaces/n/events"))
                            .header("Authorization", "Bearer " + TOKEN)),
                    406,
                    "not_acceptable",
                    "this route is a stream of Server-Sent Events: send the header \"Accept: text/event-stream\"");
            assertThat(guardedHttp.get("/api/namespaces").statusCode()).isEqualTo(200);
        }
    }

    @Test
    void feedsCannotNeedATokenThatIsNotSet() {
        QueryServer open = new QueryServer(
                new FixedLocator(new EngineFixture().store),
                new FakeGateway(),
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
        assertThatThrownBy(
                        () -> open.withFeeds(Map.of("bootstrap.servers", "127.0.0.1:9"), TopicNames.unprefixed(), true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the feeds cannot need the token: this server has none");
    }

    @Test
    void aPreviewKeepsTheFirst2KiBWithoutCuttingACharacter() {
        assertThat(DeadLetterRoutes.preview(null)).isNull();
        assertThat(DeadLetterRoutes.preview("{oops".getBytes(StandardCharsets.UTF_8)))
                .isEqualTo("{oops");
        // 2047 ASCII bytes, then a 2-byte é across the 2 KiB mark: it is left out rather than cut in two.
        String text = "a".repeat(2047) + "é" + "b".repeat(10);
        assertThat(DeadLetterRoutes.preview(text.getBytes(StandardCharsets.UTF_8)))
                .isEqualTo("a".repeat(2047));
        String exact = "a".repeat(2046) + "é" + "b";
        assertThat(DeadLetterRoutes.preview(exact.getBytes(StandardCharsets.UTF_8)))
                .isEqualTo("a".repeat(2046) + "é");
    }
}
