package io.coordinate.query;

import static io.coordinate.query.QueryTestSupport.assertAnswer;

import io.coordinate.testing.FixedLocator;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The probes over real HTTP, with the Kafka Streams state, the restores and the failure loop set by the test. */
class HealthRoutesTest {

    private final FixedLocator locator = new FixedLocator();
    private QueryServer server;
    private Http http;

    @BeforeEach
    void start() {
        server = new QueryServer(
                        locator,
                        new FakeGateway(),
                        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
                        System::currentTimeMillis,
                        Duration.ofSeconds(5))
                .start(0);
        http = new Http(server.port());
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void runningIsLiveAndReady() {
        assertAnswer(http.get("/health/live"), 200, "{'status':'UP','streams':'RUNNING'}");
        assertAnswer(http.get("/health/ready"), 200, "{'status':'RUNNING'}");
        assertAnswer(http.get("/health"), 200, "{'status':'RUNNING'}");
    }

    @Test
    void aRebalanceWithARestoreIsLiveButNotReady() {
        locator.state = "REBALANCING";
        locator.restoring = "restoring 2 store partitions from the changelog: 1500 of about 4000 records (37%)";

        assertAnswer(http.get("/health/live"), 200, "{'status':'UP','streams':'REBALANCING'}");
        String notReady = "{'status':'REBALANCING',"
                + "'reason':'restoring 2 store partitions from the changelog: 1500 of about 4000 records (37%)'}";
        assertAnswer(http.get("/health/ready"), 503, notReady);
        assertAnswer(http.get("/health"), 503, notReady);

        locator.restoring = null;
        assertAnswer(http.get("/health/ready"), 503, "{'status':'REBALANCING'}");
    }

    @Test
    void startingAndStoppingAreLiveButNotReady() {
        for (String state : List.of("CREATED", "PENDING_SHUTDOWN")) {
            locator.state = state;
            assertAnswer(http.get("/health/live"), 200, "{'status':'UP','streams':'" + state + "'}");
            assertAnswer(http.get("/health/ready"), 503, "{'status':'" + state + "'}");
        }
    }

    /** Kafka Streams never leaves these states: only a restart helps, which a failed liveness probe asks for. */
    @Test
    void aTerminalStateIsNeitherLiveNorReady() {
        for (String state : List.of("ERROR", "PENDING_ERROR", "NOT_RUNNING")) {
            locator.state = state;
            assertAnswer(http.get("/health/live"), 503, "{'status':'DOWN','streams':'" + state + "'}");
            assertAnswer(http.get("/health/ready"), 503, "{'status':'" + state + "'}");
            assertAnswer(http.get("/health"), 503, "{'status':'" + state + "'}");
        }
    }

    /**
     * Kafka Streams replaces a failed stream thread itself, and a restarted process would replay the same records the
     * same way: a failure loop is for readiness and alerts to say, not a reason to restart.
     */
    @Test
    void aFailureLoopIsLiveButNotReady() {
        locator.failure = "3 stream thread failures in the last 10 minutes, the last: boom";

        assertAnswer(http.get("/health/live"), 200, "{'status':'UP','streams':'RUNNING'}");
        String failing =
                "{'status':'FAILING','error':'3 stream thread failures in the last 10 minutes, the last: boom'}";
        assertAnswer(http.get("/health/ready"), 503, failing);
        assertAnswer(http.get("/health"), 503, failing);
    }

    /**
     * Kafka Streams says RUNNING (or REBALANCING), but no stream thread runs and none will: the failed one could not be
     * replaced. Nothing is processed until a restart, which a failed liveness probe asks for.
     */
    @Test
    void noLiveStreamThreadIsNeitherLiveNorReady() {
        String stopped = "no stream thread has been alive for 10 s, and none was started in place of the failed one "
                + "(the last failure: java.lang.NoClassDefFoundError: io/coordinate/engine/handlers/Lookups)";
        locator.stopped = stopped;
        locator.failure = "3 stream thread failures in the last 10 minutes, the last: boom";

        assertAnswer(http.get("/health/live"), 503, "{'status':'DOWN','streams':'RUNNING','error':'" + stopped + "'}");
        assertAnswer(http.get("/health/ready"), 503, "{'status':'FAILING','error':'" + stopped + "'}");
        assertAnswer(http.get("/health"), 503, "{'status':'FAILING','error':'" + stopped + "'}");

        locator.state = "REBALANCING";
        assertAnswer(
                http.get("/health/live"), 503, "{'status':'DOWN','streams':'REBALANCING','error':'" + stopped + "'}");
        assertAnswer(http.get("/health/ready"), 503, "{'status':'REBALANCING'}");
    }
}
