package io.coordinate.query;

import static io.coordinate.query.EngineFixture.T0;
import static io.coordinate.query.Http.enc;
import static io.coordinate.query.QueryTestSupport.assertAnswer;
import static io.coordinate.query.QueryTestSupport.assertError;
import static io.coordinate.query.QueryTestSupport.assertRetryLater;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.testing.FixedLocator;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every read route of one instance whose namespaces are all local, against state made by the real engine, over
 * real HTTP. The state: spec "spec" with units u1 (priority 5, leased by w1 as attempt 1 at T0+1s), u2, u3
 * (delayed 60 s) and "a b/ü"; the server's clock reads T0+2s unless a test moves it.
 */
class QueryServerTest {

    private static final String SPEC =
            "{'name':'spec','data':{'name':'spec','min_gb':1},'meta':{'priority':0,'weight':20,'paused':false,"
                    + "'continuous':false,'can_be_continuous':false,'interval':0,'next_continuous':null,'max_running':0,"
                    + "'max_attempts_returned':0,'max_retries':0,'next_work_spec_name':'','runtime':'','min_gb':1,"
                    + "'available_count':2,'pending_count':1},'counts':{'delayed':1,'available':2,'pending':1}}";
    /** The retry fields of a unit that never ran and is not delayed. */
    private static final String NEVER_RAN =
            "'attempt_count':0,'last_error':null,'next_attempt_at':null,'retrying':false";

    private static final String UNIT_AB =
            "{'name':'a b/ü','status':'available','priority':0,'data':{},'not_before':null,'active_attempt':null,"
                    + NEVER_RAN + "}";
    private static final String UNIT_U1 =
            "{'name':'u1','status':'pending','priority':5,'data':{'k':1},'not_before':null,'active_attempt':'1',"
                    + "'attempt_count':1,'last_error':null,'next_attempt_at':null,'retrying':false}";
    private static final String UNIT_U2 =
            "{'name':'u2','status':'available','priority':0,'data':{},'not_before':null,'active_attempt':null,"
                    + NEVER_RAN + "}";
    private static final String UNIT_U3 = "{'name':'u3','status':'delayed','priority':0,'data':{},"
            + "'not_before':'2026-01-01T00:01:00.000Z','active_attempt':null,'attempt_count':0,'last_error':null,"
            + "'next_attempt_at':'2026-01-01T00:01:00.000Z','retrying':false}";
    private static final String ATTEMPT_1 = "{'attempt_id':'1','work_spec_name':'spec','work_unit_name':'u1',"
            + "'worker':'w1','status':'pending','data':{'k':1},'start_time':'2026-01-01T00:00:01.000Z',"
            + "'expiration_time':'2026-01-01T00:15:01.000Z','end_time':null,'active':true}";
    private static final String WORKER_W1 = "{'name':'w1','parent':null,'children':[],'active':true,'mode':'run',"
            + "'data':{'host':'h'},'expiration':'2026-01-01T00:15:00.000Z','expired':false,"
            + "'last_update':'2026-01-01T00:00:00.000Z','active_attempts':['1'],'attempts':['1'],'child_attempts':[]}";

    private final EngineFixture engine = new EngineFixture();
    private final AtomicLong clock = new AtomicLong(T0 + 2000);
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private FixedLocator locator;
    private QueryServer server;
    private Http http;

    @BeforeEach
    void start() {
        engine.apply(T0, "{'command':'set_work_spec','namespace':'n','work_spec':{'name':'spec','min_gb':1}}");
        engine.apply(
                T0,
                "{'command':'add_work_units','namespace':'n','work_spec_name':'spec','work_units':["
                        + "{'name':'u1','data':{'k':1},'priority':5},{'name':'u2'},{'name':'u3','delay':60},{'name':'a b/ü'}]}");
        engine.apply(
                T0, "{'command':'worker_heartbeat','namespace':'n','worker':'w1','mode':'run','data':{'host':'h'}}");
        engine.apply(T0 + 1000, "{'command':'request_attempts','namespace':'n','worker':'w1','count':1}");
        locator = new FixedLocator(engine.store);
        server = new QueryServer(locator, new FakeGateway(), registry, clock::get, Duration.ofSeconds(5)).start(0);
        http = new Http(server.port());
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void listsNamespacesSorted() {
        engine.apply(T0, "{'command':'worker_heartbeat','namespace':'a b/ü','worker':'w'}");
        assertAnswer(http.get("/api/namespaces"), 200, "{'namespaces':['a b/ü','n']}");
    }

    @Test
    void summaryCountsUnitsBySpecAndStatus() {
        engine.apply(T0, "{'command':'set_work_spec','namespace':'n','work_spec':{'name':'empty'}}");
        assertAnswer(
                http.get("/api/namespaces/n/summary"),
                200,
                "{'namespace':'n',"
                        + "'counts':{'delayed':1,'available':2,'pending':1},"
                        + "'work_specs':[{'name':'empty','counts':{},'oldest_available_since':null,'oldest_available_age_seconds':null},"
                        + "{'name':'spec','counts':{'delayed':1,'available':2,'pending':1},"
                        + "'oldest_available_since':'2026-01-01T00:00:00.000Z','oldest_available_age_seconds':2.0}]}");
    }

    @Test
    void summaryTellsWhenEachSpecsOldestAvailableUnitBecameAvailableAsOfNow() {
        engine.apply(T0, "{'command':'set_work_spec','namespace':'n','work_spec':{'name':'later'}}");
        engine.apply(
                T0,
                "{'command':'add_work_units','namespace':'n','work_spec_name':'later','work_units':["
                        + "{'name':'d1','delay':120},{'name':'d2','delay':30}]}");
        engine.apply(
                T0 + 1000,
                "{'command':'request_attempts','namespace':'n','worker':'w1','count':2," + "'work_specs':['spec']}");
        clock.set(T0 + 61_500);
        assertAnswer(
                http.get("/api/namespaces/n/summary"),
                200,
                "{'namespace':'n',"
                        + "'counts':{'delayed':1,'available':2,'pending':3},'work_specs':["
                        + "{'name':'later','counts':{'delayed':1,'available':1},"
                        + "'oldest_available_since':'2026-01-01T00:00:30.000Z','oldest_available_age_seconds':31.5},"
                        + "{'name':'spec','counts':{'available':1,'pending':3},"
                        + "'oldest_available_since':'2026-01-01T00:01:00.000Z','oldest_available_age_seconds':1.5}]}");
    }

    @Test
    void unknownNamespaceIs404OnEveryNamespaceRoute() {
        for (String route : new String[] {
            "/summary",
            "/work-specs",
            "/work-specs/spec",
            "/work-specs/spec/work-units",
            "/work-specs/spec/work-units/u1",
            "/workers",
            "/workers/w1",
            "/attempts/1"
        }) {
            assertError(http.get("/api/namespaces/nope" + route), 404, "no_such_namespace", "no namespace \"nope\"");
        }
    }

    @Test
    void workSpecs() {
        assertAnswer(http.get("/api/namespaces/n/work-specs"), 200, "{'work_specs':[" + SPEC + "]}");
        assertAnswer(http.get("/api/namespaces/n/work-specs/spec"), 200, SPEC);
        assertError(
                http.get("/api/namespaces/n/work-specs/other"),
                404,
                "no_such_work_spec",
                "no work spec \"other\" in namespace \"n\"");
        assertError(
                http.get("/api/namespaces/n/work-specs/other/work-units"),
                404,
                "no_such_work_spec",
                "no work spec \"other\" in namespace \"n\"");
        assertError(
                http.get("/api/namespaces/n/work-specs/other/work-units/u1"),
                404,
                "no_such_work_spec",
                "no work spec \"other\" in namespace \"n\"");
    }

    @Test
    void workUnitsInNameOrder() {
        assertAnswer(
                http.get("/api/namespaces/n/work-specs/spec/work-units"),
                200,
                "{'work_units':[" + UNIT_AB + "," + UNIT_U1 + "," + UNIT_U2 + "," + UNIT_U3 + "],'next':null}");
    }

    @Test
    void workUnitsFilteredByGroupShowTheirGroup() {
        engine.apply(
                T0,
                "{'command':'add_work_units','namespace':'n','work_spec_name':'spec','work_units':["
                        + "{'name':'g1','group':'acme'},{'name':'g2','group':'globex'},{'name':'g3','group':'acme'}]}");
        com.fasterxml.jackson.databind.JsonNode page =
                io.coordinate.protocol.Json.parse(http.get("/api/namespaces/n/work-specs/spec/work-units?group=acme")
                        .body());
        assertThat(page.get("work_units").findValuesAsText("name")).containsExactly("g1", "g3");
        assertThat(page.get("work_units").findValuesAsText("group")).containsExactly("acme", "acme");
    }

    @Test
    void workUnitsFilteredByStatusAndName() {
        String units = "/api/namespaces/n/work-specs/spec/work-units";
        assertAnswer(
                http.get(units + "?status=pending,delayed"),
                200,
                "{'work_units':[" + UNIT_U1 + "," + UNIT_U3 + "],'next':null}");
        assertAnswer(
                http.get(units + "?status=pending&status=delayed"),
                200,
                "{'work_units':[" + UNIT_U1 + "," + UNIT_U3 + "],'next':null}");
        assertAnswer(
                http.get(units + "?name=u3,u2&name=" + enc("a b/ü") + "&name=missing"),
                200,
                "{'work_units':[" + UNIT_AB + "," + UNIT_U2 + "," + UNIT_U3 + "],'next':null}");
        assertAnswer(
                http.get(units + "?name=u1,u2,u3&status=available"),
                200,
                "{'work_units':[" + UNIT_U2 + "],'next':null}");
        assertError(http.get(units + "?status=sleeping"), 400, "bad_request", "unknown status \"sleeping\"");
    }

    @Test
    void workUnitsRetryingAreTheUnitsARetryDelayed() {
        engine.apply(
                T0 + 2000,
                "{'command':'retry_attempt','namespace':'n','attempt_id':'1','delay':60,"
                        + "'data':{'traceback':'Traceback: timeout'}}");
        String units = "/api/namespaces/n/work-specs/spec/work-units";
        String u1 = "{'name':'u1','status':'delayed','priority':5,'data':{'k':1},"
                + "'not_before':'2026-01-01T00:01:02.000Z','active_attempt':null,'attempt_count':1,"
                + "'last_error':'Traceback: timeout','next_attempt_at':'2026-01-01T00:01:02.000Z','retrying':true}";
        assertAnswer(http.get(units + "?status=retrying"), 200, "{'work_units':[" + u1 + "],'next':null}");
        assertAnswer(
                http.get(units + "?status=retrying,available"),
                200,
                "{'work_units':[" + UNIT_AB + "," + u1 + "," + UNIT_U2 + "],'next':null}");
        assertAnswer(http.get(units + "?status=retrying&name=u1,u3"), 200, "{'work_units':[" + u1 + "],'next':null}");
        assertAnswer(http.get(units + "?status=retrying&previous=u1"), 200, "{'work_units':[],'next':null}");
        clock.set(T0 + 62_000); // its time has come
        assertAnswer(http.get(units + "?status=retrying"), 200, "{'work_units':[],'next':null}");
    }

    @Test
    void workUnitsArePaged() {
        engine.apply(T0, "{'command':'set_work_spec','namespace':'n','work_spec':{'name':'paged'}}");
        engine.apply(
                T0,
                "{'command':'add_work_units','namespace':'n','work_spec_name':'paged','work_units':["
                        + "{'name':'p5'},{'name':'p1'},{'name':'p3'},{'name':'p2'},{'name':'p4'}]}");
        String units = "/api/namespaces/n/work-specs/paged/work-units";
        assertAnswer(
                http.get(units + "?limit=2"),
                200,
                "{'work_units':[" + paged("p1") + "," + paged("p2") + "],'next':'p2'}");
        assertAnswer(
                http.get(units + "?limit=2&previous=p2"),
                200,
                "{'work_units':[" + paged("p3") + "," + paged("p4") + "],'next':'p4'}");
        assertAnswer(http.get(units + "?limit=2&previous=p4"), 200, "{'work_units':[" + paged("p5") + "],'next':null}");
        // A page that ends exactly at the last unit says so: no empty page to fetch.
        assertAnswer(
                http.get(units + "?limit=2&previous=p3"),
                200,
                "{'work_units':[" + paged("p4") + "," + paged("p5") + "],'next':null}");
        assertAnswer(http.get(units + "?limit=2&previous=p5"), 200, "{'work_units':[],'next':null}");
        assertAnswer(
                http.get(units + "?limit=2&previous=p1&name=p1,p3,p4,p5"),
                200,
                "{'work_units':[" + paged("p3") + "," + paged("p4") + "],'next':'p4'}");
        assertAnswer(
                http.get(units + "?limit=5000&previous=p3"),
                200,
                "{'work_units':[" + paged("p4") + "," + paged("p5") + "],'next':null}");
        assertError(
                http.get(units + "?limit=0"), 400, "bad_request", "\"limit\" must be a positive integer, got \"0\"");
        assertError(
                http.get(units + "?limit=x"), 400, "bad_request", "\"limit\" must be a positive integer, got \"x\"");
    }

    @Test
    void aPageHoldsAtMostOneHundredUnitsByDefault() {
        StringBuilder units = new StringBuilder();
        for (int i = 0; i < 101; i++) {
            units.append(i == 0 ? "" : ",").append(String.format("{'name':'m%03d'}", i));
        }
        engine.apply(T0, "{'command':'set_work_spec','namespace':'n','work_spec':{'name':'many'}}");
        engine.apply(
                T0,
                "{'command':'add_work_units','namespace':'n','work_spec_name':'many','work_units':[" + units + "]}");
        HttpResponse<String> first = http.get("/api/namespaces/n/work-specs/many/work-units");
        assertThat(QueryTestSupport.body(first).get("work_units")).hasSize(100);
        assertThat(QueryTestSupport.body(first).get("next").asText()).isEqualTo("m099");
        assertAnswer(
                http.get("/api/namespaces/n/work-specs/many/work-units?previous=m099"),
                200,
                "{'work_units':[{'name':'m100','status':'available','priority':0,'data':{},'not_before':null,"
                        + "'active_attempt':null," + NEVER_RAN + "}],'next':null}");
    }

    @Test
    void oneWorkUnitWithItsAttemptsAndLinks() {
        assertAnswer(
                http.get("/api/namespaces/n/work-specs/spec/work-units/u1"),
                200,
                "{'name':'u1','status':'pending','priority':5,'data':{'k':1},'not_before':null,'active_attempt':'1',"
                        + "'attempt_count':1,'last_error':null,'next_attempt_at':null,'retrying':false,"
                        + "'work_spec_name':'spec','attempts':[" + ATTEMPT_1 + "],"
                        + "'parent':null,'predecessor':null,'children':{'parked':[],'open':[],'closed':[],"
                        + "'counts':{'parked':0,'open':0,'closed':0}},'heirs':[],'heir_count':0}");
        assertError(
                http.get("/api/namespaces/n/work-specs/spec/work-units/u9"),
                404,
                "no_such_work_unit",
                "no work unit \"u9\" in work spec \"spec\" of namespace \"n\"");
    }

    @Test
    void workersAndAttempts() {
        assertAnswer(http.get("/api/namespaces/n/workers"), 200, "{'workers':[" + WORKER_W1 + "],'next':null}");
        assertAnswer(http.get("/api/namespaces/n/workers/w1"), 200, WORKER_W1);
        assertError(
                http.get("/api/namespaces/n/workers/w9"), 404, "no_such_worker", "no worker \"w9\" in namespace \"n\"");
        assertAnswer(http.get("/api/namespaces/n/attempts/1"), 200, ATTEMPT_1);
        assertError(
                http.get("/api/namespaces/n/attempts/2"),
                404,
                "no_such_attempt",
                "no attempt \"2\" in namespace \"n\"");
        assertError(
                http.get("/api/namespaces/n/attempts/x"),
                404,
                "no_such_attempt",
                "no attempt \"x\" in namespace \"n\"");
    }

    @Test
    void workersArePaged() {
        engine.apply(T0, "{'command':'worker_heartbeat','namespace':'n','worker':'w0','mode':'m'}");
        engine.apply(T0, "{'command':'worker_heartbeat','namespace':'n','worker':'w2','mode':'m'}");
        assertAnswer(
                http.get("/api/namespaces/n/workers?limit=2"),
                200,
                "{'workers':[" + idleWorker("w0") + "," + WORKER_W1 + "],'next':'w1'}");
        assertAnswer(
                http.get("/api/namespaces/n/workers?limit=2&previous=w1"),
                200,
                "{'workers':[" + idleWorker("w2") + "],'next':null}");
    }

    @Test
    void viewsAreExactAtTheServersNow() {
        clock.set(T0 + 16 * 60_000); // attempt 1 expired at 00:15:01, u3 released at 00:01:00, w1 expired at 00:15:00
        assertAnswer(
                http.get("/api/namespaces/n/work-specs/spec/work-units?name=u1,u3"),
                200,
                "{'work_units':["
                        + UNIT_U1.replace("'pending'", "'available'")
                                .replace("'1'", "null")
                                .replace("'last_error':null", "'last_error':'lease expired'")
                        + ","
                        + UNIT_U3.replace("'delayed'", "'available'")
                                .replace("'next_attempt_at':'2026-01-01T00:01:00.000Z'", "'next_attempt_at':null")
                        + "],'next':null}");
        assertAnswer(
                http.get("/api/namespaces/n/attempts/1"),
                200,
                ATTEMPT_1.replace("'pending'", "'expired'").replace("true", "false"));
        assertAnswer(
                http.get("/api/namespaces/n/workers/w1"),
                200,
                WORKER_W1
                        .replace("'expired':false", "'expired':true")
                        .replace("'active_attempts':['1']", "'active_attempts':[]"));
    }

    @Test
    void countsAreExactAtTheServersNow() {
        clock.set(T0 + 16 * 60_000);
        assertAnswer(
                http.get("/api/namespaces/n/summary"),
                200,
                "{'namespace':'n','counts':{'available':4},'work_specs':[{'name':'spec','counts':{'available':4},"
                        + "'oldest_available_since':'2026-01-01T00:00:00.000Z','oldest_available_age_seconds':960.0}]}");
    }

    @Test
    void delayedUnitsAreCountedAvailableOnceDueWhateverTheirNames() {
        engine.apply(T0, "{'command':'set_work_spec','namespace':'n','work_spec':{'name':'later'}}");
        engine.apply(
                T0,
                "{'command':'add_work_units','namespace':'n','work_spec_name':'later','work_units':["
                        + "{'name':'d1','delay':120},{'name':'d2','delay':30}]}");
        clock.set(T0 + 60_000);
        assertAnswer(
                http.get("/api/namespaces/n/work-specs/later/work-units?status=available"),
                200,
                "{'work_units':[{'name':'d2','status':'available','priority':0,'data':{},"
                        + "'not_before':'2026-01-01T00:00:30.000Z','active_attempt':null," + NEVER_RAN
                        + "}],'next':null}");
        assertThat(QueryTestSupport.body(http.get("/api/namespaces/n/work-specs/later"))
                        .get("counts"))
                .isEqualTo(QueryTestSupport.json("{'delayed':1,'available':1}"));
    }

    @Test
    void anyUtf8NameWorksPercentEncoded() {
        String ns = "a b/ü";
        String[] names = {"a b/ü", "..", ".", "100%", "c+d", "?#&=", "x;y", "it's", "日本"};
        engine.apply(T0, "{'command':'set_work_spec','namespace':'a b/ü','work_spec':{'name':'s/p ä'}}");
        ObjectNode add = (ObjectNode) QueryTestSupport.json(
                "{'command':'add_work_units','namespace':'a b/ü','work_spec_name':'s/p ä','work_units':[]}");
        for (String name : names) {
            add.withArray("work_units").addObject().put("name", name);
        }
        engine.apply(T0, add);
        engine.apply(T0, "{'command':'worker_heartbeat','namespace':'a b/ü','worker':'w/ö 1'}");
        String base = "/api/namespaces/" + enc(ns);
        for (String name : names) {
            HttpResponse<String> unit = http.get(base + "/work-specs/" + enc("s/p ä") + "/work-units/" + enc(name));
            assertThat(unit.statusCode()).as(name).isEqualTo(200);
            assertThat(QueryTestSupport.body(unit).get("name").textValue()).isEqualTo(name);
        }
        assertThat(QueryTestSupport.body(http.get(base + "/work-specs/" + enc("s/p ä")))
                        .get("name")
                        .textValue())
                .isEqualTo("s/p ä");
        assertThat(QueryTestSupport.body(http.get(base + "/workers/" + enc("w/ö 1")))
                        .get("name")
                        .textValue())
                .isEqualTo("w/ö 1");
        assertAnswer(
                http.get(base + "/summary"),
                200,
                "{'namespace':'a b/ü','counts':{'available':9},'work_specs':[{'name':'s/p ä','counts':{'available':9},"
                        + "'oldest_available_since':'2026-01-01T00:00:00.000Z','oldest_available_age_seconds':2.0}]}");
    }

    @Test
    void unavailableNamespaceIs503WithRetryAfter() {
        locator.locations.put("n", new NamespaceLocator.Unavailable("rebalancing"));
        assertRetryLater(http.get("/api/namespaces/n/summary"), "namespace \"n\" is not readable now: rebalancing");
        assertRetryLater(
                http.get("/api/namespaces/n/work-specs/spec/work-units/u1"),
                "namespace \"n\" is not readable now: rebalancing");
    }

    @Test
    void health() {
        assertAnswer(http.get("/health"), 200, "{'status':'RUNNING'}");
        locator.running = false;
        assertAnswer(http.get("/health"), 503, "{'status':'NOT_RUNNING'}");
    }

    @Test
    void healthSaysFailingWhileTheStreamThreadIsInAFailureLoop() {
        locator.failure = "3 stream thread failures in the last 10 minutes, the last: boom";
        assertAnswer(
                http.get("/health"),
                503,
                "{'status':'FAILING','error':'3 stream thread failures in the last 10 minutes, the last: boom'}");
        locator.failure = null;
        assertAnswer(http.get("/health"), 200, "{'status':'RUNNING'}");
    }

    @Test
    void unknownRouteIsAJson404() {
        assertError(http.get("/api/nothing"), 404, "not_found", "Endpoint GET /api/nothing not found");
    }

    @Test
    void metricsInPrometheusTextFormat() {
        http.get("/api/namespaces/n/summary");
        http.get("/api/namespaces/n/summary");
        http.get("/api/namespaces/n/workers/w9");
        HttpResponse<String> metrics = http.get("/metrics");
        assertThat(metrics.statusCode()).isEqualTo(200);
        assertThat(metrics.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
        assertThat(metrics.body().lines())
                .contains("http_server_requests_seconds_count{method=\"GET\",route=\"/api/namespaces/{ns}/summary\","
                        + "status=\"200\"} 2")
                .contains(
                        "http_server_requests_seconds_count{method=\"GET\",route=\"/api/namespaces/{ns}/workers/{worker}\","
                                + "status=\"404\"} 1")
                .anyMatch(line -> line.startsWith("jvm_memory_used_bytes{"))
                .anyMatch(line -> line.startsWith("jvm_gc_"))
                .anyMatch(line -> line.startsWith("process_uptime_seconds "));
    }

    private static String paged(String name) {
        return "{'name':'" + name
                + "','status':'available','priority':0,'data':{},'not_before':null,'active_attempt':null,"
                + NEVER_RAN + "}";
    }

    private static String idleWorker(String name) {
        return "{'name':'" + name + "','parent':null,'children':[],'active':true,'mode':'m','data':{},"
                + "'expiration':'2026-01-01T00:15:00.000Z','expired':false,'last_update':'2026-01-01T00:00:00.000Z',"
                + "'active_attempts':[],'attempts':[],'child_attempts':[]}";
    }
}
