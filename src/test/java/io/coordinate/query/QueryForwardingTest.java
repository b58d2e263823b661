package io.coordinate.query;

import static io.coordinate.query.EngineFixture.T0;
import static io.coordinate.query.Http.enc;
import static io.coordinate.query.QueryTestSupport.assertAnswer;
import static io.coordinate.query.QueryTestSupport.assertRetryLater;
import static io.coordinate.query.QueryTestSupport.body;
import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.testing.FixedLocator;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two instances over real HTTP: A owns namespaces "n", "a b/ü" and "shared"; B owns "m" and "shared" (as
 * during a rebalance, when two stores briefly hold one name) and locates "n" and "a b/ü" at A.
 */
class QueryForwardingTest {

    private final EngineFixture engineA = new EngineFixture();
    private final EngineFixture engineB = new EngineFixture();
    private FixedLocator locatorA;
    private FixedLocator locatorB;
    private QueryServer serverA;
    private QueryServer serverB;
    private Http httpA;
    private Http httpB;

    @BeforeEach
    void start() {
        for (String ns : new String[] {"n", "a b/ü"}) {
            engineA.apply(T0, "{'command':'set_work_spec','namespace':'" + ns + "','work_spec':{'name':'s p/ä'}}");
            engineA.apply(
                    T0,
                    "{'command':'add_work_units','namespace':'" + ns + "','work_spec_name':'s p/ä',"
                            + "'work_units':[{'name':'u1'},{'name':'u/2'},{'name':'u3','delay':60}]}");
        }
        engineA.apply(T0, "{'command':'worker_heartbeat','namespace':'shared','worker':'w'}");
        engineB.apply(T0, "{'command':'worker_heartbeat','namespace':'m','worker':'w'}");
        engineB.apply(T0, "{'command':'worker_heartbeat','namespace':'shared','worker':'w'}");
        locatorA = new FixedLocator(engineA.store);
        locatorB = new FixedLocator(engineB.store);
        serverA = server(locatorA);
        serverB = server(locatorB);
        httpA = new Http(serverA.port());
        httpB = new Http(serverB.port());
        locatorB.locations.put("n", new NamespaceLocator.Remote(address(serverA)));
        locatorB.locations.put("a b/ü", new NamespaceLocator.Remote(address(serverA)));
        locatorA.others.add(address(serverB));
        locatorB.others.add(address(serverA));
    }

    @AfterEach
    void stop() {
        serverA.close();
        serverB.close();
    }

    @Test
    void aReadOfAnotherInstancesNamespaceIsAnsweredByTheOwner() {
        String units = "/work-specs/" + enc("s p/ä") + "/work-units";
        for (String ns : new String[] {"n", "a b/ü"}) {
            String base = "/api/namespaces/" + enc(ns);
            for (String path : new String[] {
                "/summary",
                "/work-specs",
                "/work-specs/" + enc("s p/ä"),
                units,
                units + "?limit=1&previous=u1",
                units + "?status=available,delayed&name=u1&name=u3",
                units + "/" + enc("u/2"),
                units + "/missing",
                "/workers",
                "/attempts/7"
            }) {
                HttpResponse<String> owner = httpA.get(base + path);
                HttpResponse<String> forwarded = httpB.get(base + path);
                assertThat(forwarded.statusCode()).as(path).isEqualTo(owner.statusCode());
                assertThat(forwarded.body()).as(path).isEqualTo(owner.body());
                assertThat(forwarded.headers().firstValue("Content-Type"))
                        .isEqualTo(owner.headers().firstValue("Content-Type"));
            }
        }
        assertAnswer(
                httpB.get("/api/namespaces/n" + units + "?limit=1&previous=u1"),
                200,
                "{'work_units':[{'name':'u3','status':'delayed','priority':0,'data':{},"
                        + "'not_before':'2026-01-01T00:01:00.000Z','active_attempt':null,'attempt_count':0,"
                        + "'last_error':null,'next_attempt_at':'2026-01-01T00:01:00.000Z','retrying':false}],"
                        + "'next':null}");
    }

    @Test
    void namespacesAreMergedOverInstances() {
        assertAnswer(httpB.get("/api/namespaces"), 200, "{'namespaces':['a b/ü','m','n','shared']}");
        assertAnswer(httpA.get("/api/namespaces"), 200, "{'namespaces':['a b/ü','m','n','shared']}");
        assertAnswer(httpB.get("/api/namespaces?local=true"), 200, "{'namespaces':['m','shared']}");
    }

    @Test
    void aNamespaceListingNeedsEveryInstance() throws IOException {
        locatorB.others.add("127.0.0.1:" + closedPort());
        HttpResponse<String> answer = httpB.get("/api/namespaces");
        assertThat(answer.statusCode()).isEqualTo(503);
        assertThat(answer.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(body(answer).at("/error/code").asText()).isEqualTo("unavailable");
    }

    @Test
    void aForwardedRequestIsNeverForwardedAgain() {
        // Stale metadata on both sides: each thinks the other owns "loop".
        locatorA.locations.put("loop", new NamespaceLocator.Remote(address(serverB)));
        locatorB.locations.put("loop", new NamespaceLocator.Remote(address(serverA)));
        assertRetryLater(
                httpB.get("/api/namespaces/loop/summary"),
                "namespace moved again while the request was forwarded to this instance");
    }

    @Test
    void theOwnersRetryAfterReachesTheClient() {
        locatorA.locations.put("busy", new NamespaceLocator.Unavailable("restoring"));
        locatorB.locations.put("busy", new NamespaceLocator.Remote(address(serverA)));
        assertRetryLater(
                httpB.get("/api/namespaces/busy/summary"), "namespace \"busy\" is not readable now: restoring");
    }

    @Test
    void anOwnerThatDoesNotAnswerIs503() throws IOException {
        int port = closedPort();
        locatorB.locations.put("gone", new NamespaceLocator.Remote("127.0.0.1:" + port));
        HttpResponse<String> answer = httpB.get("/api/namespaces/gone/summary");
        assertThat(answer.statusCode()).isEqualTo(503);
        assertThat(answer.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(body(answer).at("/error/code").asText()).isEqualTo("unavailable");
        assertThat(body(answer).at("/error/message").asText())
                .startsWith("owner 127.0.0.1:" + port + " did not answer");
    }

    private static QueryServer server(FixedLocator locator) {
        return new QueryServer(
                        locator,
                        new FakeGateway(),
                        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
                        () -> T0,
                        Duration.ofSeconds(5))
                .start(0);
    }

    private static String address(QueryServer server) {
        return "127.0.0.1:" + server.port();
    }

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
