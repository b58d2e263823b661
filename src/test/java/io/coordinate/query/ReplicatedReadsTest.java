package io.coordinate.query;

import static io.coordinate.query.EngineFixture.T0;
import static io.coordinate.query.QueryTestSupport.assertAnswer;
import static io.coordinate.query.QueryTestSupport.body;
import static io.coordinate.query.QueryTestSupport.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.testing.FixedLocator;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What HTTP (and so the dashboard) shows of a replicated unit whose deadlines passed since the last time step: the
 * unit as that time step leaves it (docs/replication.md, "What you see"). Two replicas on two hosts, a round that
 * cannot lose one ({@code max_total_results} 2): the first deadline decides it with bit 8, and the second replica,
 * still running then, was not needed.
 */
class ReplicatedReadsTest {

    private static final String ROUND = "{'round':1,'min_quorum':2,'target_nresults':2,'needed':0,'error_mask':8,"
            + "'canonical_attempt_id':null,'assimilated_at':%s,'replicas':["
            + "{'attempt_id':'1','worker':'w1','host':'h1','outcome':'no_reply','validate_state':'init'},"
            + "{'attempt_id':'2','worker':'w2','host':'h2','outcome':'didnt_need','validate_state':'init'}]}";
    private static final String FAILED = "{'name':'u','status':'failed','priority':0,"
            + "'data':{'traceback':'replicas: too many total replicas','error_mask':8},'not_before':null,"
            + "'active_attempt':null,'attempt_count':2,'last_error':'lease expired','next_attempt_at':null,"
            + "'retrying':false}";

    private final EngineFixture engine = new EngineFixture();
    private final AtomicLong clock = new AtomicLong(T0 + 3000);
    private QueryServer server;
    private Http http;

    @BeforeEach
    void start() {
        engine.apply(
                T0,
                "{'command':'set_work_spec','namespace':'n','work_spec':{'name':'s','min_quorum':2,"
                        + "'max_error_results':1,'max_total_results':2,'delay_bound':1}}");
        engine.apply(
                T0, "{'command':'add_work_units','namespace':'n','work_spec_name':'s','work_units':[{'name':'u'}]}");
        engine.apply(T0, "{'command':'worker_heartbeat','namespace':'n','worker':'w1','parent':'h1'}");
        engine.apply(T0, "{'command':'worker_heartbeat','namespace':'n','worker':'w2','parent':'h2'}");
        engine.apply(T0, "{'command':'request_attempts','namespace':'n','worker':'w1'}");
        engine.apply(T0 + 500, "{'command':'request_attempts','namespace':'n','worker':'w2'}");
        server = new QueryServer(
                        new FixedLocator(engine.store),
                        new FakeGateway(),
                        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
                        clock::get,
                        Duration.ofSeconds(5))
                .start(0);
        http = new Http(server.port());
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aReadBeforeTheTimeStepShowsTheRoundItWillStore() {
        assertReads("null");

        engine.engine.advanceTime(clock.get(), Integer.MAX_VALUE);

        assertReads("'2026-01-01T00:00:03.000Z'");
    }

    /** The list (filtered by status, as the dashboard asks), the spec's counts, the unit and its replicas. */
    private void assertReads(String assimilatedAt) {
        assertAnswer(
                http.get("/api/namespaces/n/work-specs/s/work-units?status=failed"),
                200,
                "{'work_units':[" + FAILED + "],'next':null}");
        assertThat(body(http.get("/api/namespaces/n/work-specs/s")).get("counts"))
                .isEqualTo(json("{'failed':1}"));
        JsonNode unit = body(http.get("/api/namespaces/n/work-specs/s/work-units/u"));
        assertThat(unit.get("status").asText()).isEqualTo("failed");
        assertThat(unit.get("data"))
                .isEqualTo(json("{'traceback':'replicas: too many total replicas','error_mask':8}"));
        assertThat(unit.get("replication")).isEqualTo(json(String.format(ROUND, assimilatedAt)));
        assertThat(body(http.get("/api/namespaces/n/attempts/2")).get("replica"))
                .isEqualTo(json("{'host':'h2','outcome':'didnt_need','validate_state':'init','canonical':false}"));
    }
}
