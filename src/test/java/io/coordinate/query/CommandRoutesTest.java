package io.coordinate.query;

import static io.coordinate.query.EngineFixture.T0;
import static io.coordinate.query.Http.enc;
import static io.coordinate.query.QueryTestSupport.assertAnswer;
import static io.coordinate.query.QueryTestSupport.assertError;
import static io.coordinate.query.QueryTestSupport.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.EngineResult;
import io.coordinate.engine.OutRecord;
import io.coordinate.testing.FixedLocator;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code POST /api/namespaces/{ns}/commands} against a gateway double. */
class CommandRoutesTest {

    private final FakeGateway gateway = new FakeGateway();
    private final EngineFixture engine = new EngineFixture();
    private QueryServer server;
    private Http http;

    @BeforeEach
    void start() {
        server = new QueryServer(
                        new FixedLocator(engine.store),
                        gateway,
                        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
                        () -> T0,
                        Duration.ofSeconds(3))
                .start(0);
        http = new Http(server.port());
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void anAcceptedCommandIs200WithTheReply() {
        gateway.answer = command -> CompletableFuture.completedFuture(
                (ObjectNode) json("{'request_id':'gw-1','ok':true,'result':{'work_unit_names':['u1']}}"));
        assertAnswer(
                http.post(
                        "/api/namespaces/" + enc("a b/ü") + "/commands",
                        "{\"command\":\"add_work_units\",\"work_spec_name\":\"s\",\"work_units\":[{\"name\":\"u1\"}]}"),
                200,
                "{'request_id':null,'ok':true,'result':{'work_unit_names':['u1']}}");
        assertThat(gateway.calls)
                .containsExactly(new FakeGateway.Call(
                        "a b/ü",
                        (ObjectNode)
                                json(
                                        "{'command':'add_work_units','work_spec_name':'s','work_units':[{'name':'u1'}],'namespace':'a b/ü'}"),
                        Duration.ofSeconds(3)));
    }

    @Test
    void theClientsRequestIdComesBack() {
        gateway.answer = command ->
                CompletableFuture.completedFuture((ObjectNode) json("{'request_id':'gw-1','ok':true,'result':{}}"));
        assertAnswer(
                http.post(
                        "/api/namespaces/n/commands",
                        "{\"command\":\"deactivate_worker\",\"namespace\":\"n\",\"worker\":\"w\",\"request_id\":\"mine-7\"}"),
                200,
                "{'request_id':'mine-7','ok':true,'result':{}}");
    }

    @Test
    void theClientsRequestIdAlsoReplacesTheGatewaysInsideAnAssignment() {
        gateway.answer = command -> CompletableFuture.completedFuture(
                (ObjectNode)
                        json(
                                "{'request_id':'gw-1','ok':true,'result':{'namespace':'n','worker':'w','request_id':'gw-1','attempts':[]}}"));
        assertAnswer(
                http.post(
                        "/api/namespaces/n/commands",
                        "{\"command\":\"request_attempts\",\"worker\":\"w\",\"request_id\":\"mine-8\"}"),
                200,
                "{'request_id':'mine-8','ok':true,'result':{'namespace':'n','worker':'w','request_id':'mine-8',"
                        + "'attempts':[]}}");
    }

    @Test
    void theCallersKeyGoesToTheAppAsTheRequestIdOfTheHttpRequester() {
        gateway.answer = command -> CompletableFuture.completedFuture(
                (ObjectNode) json("{'request_id':'k-1','correlation_id':'gw-3','ok':true,'result':{}}"));
        assertAnswer(
                http.post(
                        "/api/namespaces/n/commands",
                        "{\"command\":\"deactivate_worker\",\"worker\":\"w\",\"request_id\":\"k-1\",\"requester\":\"me\","
                                + "\"correlation_id\":\"mine\"}"),
                200,
                "{'request_id':'k-1','ok':true,'result':{}}");
        assertAnswer(
                postWithKey("k-1", "{\"command\":\"deactivate_worker\",\"worker\":\"w\"}"),
                200,
                "{'request_id':'k-1','ok':true,'result':{}}");
        assertAnswer(
                postWithKey("k-1", "{\"command\":\"deactivate_worker\",\"worker\":\"w\",\"request_id\":\"k-1\"}"),
                200,
                "{'request_id':'k-1','ok':true,'result':{}}");
        assertThat(http.post(
                                "/api/namespaces/n/commands",
                                "{\"command\":\"deactivate_worker\",\"worker\":\"w\",\"requester\":\"me\",\"correlation_id\":\"mine\"}")
                        .statusCode())
                .isEqualTo(200);

        ObjectNode keyed = (ObjectNode) json(
                "{'command':'deactivate_worker','worker':'w','request_id':'k-1','namespace':'n','requester':'http'}");
        assertThat(gateway.calls)
                .extracting(FakeGateway.Call::command)
                .containsExactly(keyed, keyed, keyed, (ObjectNode)
                        json("{'command':'deactivate_worker','worker':'w','namespace':'n'}"));
    }

    @Test
    void aKeyInTheHeaderAndAnotherInTheBodyIs400() {
        assertError(
                postWithKey("k-1", "{\"command\":\"deactivate_worker\",\"worker\":\"w\",\"request_id\":\"k-2\"}"),
                400,
                "request_id_mismatch",
                "Idempotency-Key \"k-1\" differs from the body's request_id \"k-2\"");
        assertError(
                http.post("/api/namespaces/n/commands", "{\"command\":\"destroy_namespace\",\"request_id\":7}"),
                400,
                "bad_command",
                "\"request_id\" must be a string");
        assertError(
                http.post("/api/namespaces/n/commands", "{\"command\":\"destroy_namespace\",\"request_id\":\"\"}"),
                400,
                "bad_command",
                "\"request_id\" must be 1 to 255 characters long");
        assertError(
                postWithKey("k".repeat(256), "{\"command\":\"destroy_namespace\"}"),
                400,
                "bad_request",
                "Idempotency-Key must be 1 to 255 characters long");
        assertThat(gateway.calls).isEmpty();
    }

    private HttpResponse<String> postWithKey(String key, String body) {
        return http.send(HttpRequest.newBuilder(http.uri("/api/namespaces/n/commands"))
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", key)
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    @Test
    void aRejectedCommandIs422WithTheError() {
        gateway.answer = command -> CompletableFuture.completedFuture((ObjectNode) json(
                "{'request_id':'gw-1','ok':false,'error':{'code':'no_such_work_spec','message':'no work spec s'}}"));
        assertAnswer(
                http.post("/api/namespaces/n/commands", "{\"command\":\"delete_work_spec\",\"work_spec_name\":\"s\"}"),
                422,
                "{'request_id':null,'ok':false,'error':{'code':'no_such_work_spec','message':'no work spec s'}}");
    }

    @Test
    void noReplyInTimeIs504() {
        gateway.answer = command -> CompletableFuture.failedFuture(new TimeoutException());
        assertError(
                http.post("/api/namespaces/n/commands", "{\"command\":\"destroy_namespace\"}"),
                504,
                "timeout",
                "no reply within 3000 ms; the command may still be applied");
    }

    @Test
    void aCommandThatCannotBeSentIs502() {
        gateway.answer = command -> CompletableFuture.failedFuture(new IllegalStateException("gateway closed"));
        assertError(
                http.post("/api/namespaces/n/commands", "{\"command\":\"destroy_namespace\"}"),
                502,
                "gateway_error",
                "the command could not be submitted: java.lang.IllegalStateException: gateway closed");
    }

    @Test
    void badBodiesAreRefusedBeforeKafka() {
        assertError(
                http.post("/api/namespaces/n/commands", "{\"command\":\"destroy_namespace\",\"namespace\":\"m\"}"),
                400,
                "namespace_mismatch",
                "command namespace \"m\" differs from the path's \"n\"");
        assertError(
                http.post("/api/namespaces/n/commands", "[1]"), 400, "bad_command", "a command must be a JSON object");
        assertThat(http.post("/api/namespaces/n/commands", "{not json").statusCode())
                .isEqualTo(400);
        assertThat(QueryTestSupport.body(http.post("/api/namespaces/n/commands", ""))
                        .at("/error/code")
                        .asText())
                .isEqualTo("malformed_json");
        assertThat(gateway.calls).isEmpty();
    }

    /** The body must be UTF-8, as a record's value: Jackson alone would read these, whatever the Content-Type says. */
    @Test
    void aBodyWithAByteOrderMarkOrInUtf16IsMalformedJson() {
        String command = "{\"command\":\"worker_heartbeat\",\"worker\":\"w\"}";
        byte[] utf8 = command.getBytes(StandardCharsets.UTF_8);
        byte[] withBom = new byte[utf8.length + 3];
        withBom[0] = (byte) 0xEF;
        withBom[1] = (byte) 0xBB;
        withBom[2] = (byte) 0xBF;
        System.arraycopy(utf8, 0, withBom, 3, utf8.length);
        assertError(
                postBytes(withBom, "application/json"),
                400,
                "malformed_json",
                "the body is not one JSON value: "
                        + "starts with a byte order mark (EF BB BF): the value must be UTF-8 without one");
        assertError(
                postBytes(command.getBytes(StandardCharsets.UTF_16), "application/json; charset=utf-16"),
                400,
                "malformed_json",
                "the body is not one JSON value: starts with a UTF-16 or UTF-32 byte order mark: the value "
                        + "must be UTF-8");
        assertError(
                postBytes(command.getBytes(StandardCharsets.UTF_16LE), "application/json"),
                400,
                "malformed_json",
                "the body is not one JSON value: a zero byte in its first four bytes (UTF-16 or UTF-32?): the value must be "
                        + "UTF-8");
        assertThat(gateway.calls).isEmpty();
    }

    private HttpResponse<String> postBytes(byte[] body, String contentType) {
        return http.send(HttpRequest.newBuilder(http.uri("/api/namespaces/n/commands"))
                .header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)));
    }

    @Test
    void aCommandSubmittedOverHttpIsVisibleToQueries() {
        // The gateway double applies the command with the real engine and answers with the engine's reply.
        gateway.answer = command -> {
            ObjectNode withReply = command.deepCopy().put("reply_to", "http").put("request_id", "gw-9");
            EngineResult result = engine.apply(T0, withReply);
            return CompletableFuture.completedFuture((ObjectNode) result.replies().stream()
                    .filter(r -> r.key().equals("http"))
                    .map(OutRecord::value)
                    .findFirst()
                    .orElseThrow());
        };
        HttpResponse<String> set = http.post(
                "/api/namespaces/n/commands", "{\"command\":\"set_work_spec\",\"work_spec\":{\"name\":\"s\"}}");
        assertThat(set.statusCode()).isEqualTo(200);
        assertThat(QueryTestSupport.body(set).get("ok").asBoolean()).isTrue();
        assertThat(http.post(
                                "/api/namespaces/n/commands",
                                "{\"command\":\"add_work_units\",\"work_spec_name\":\"s\","
                                        + "\"work_units\":[{\"name\":\"u1\",\"data\":{\"x\":1}}]}")
                        .statusCode())
                .isEqualTo(200);
        assertAnswer(
                http.get("/api/namespaces/n/work-specs/s/work-units"),
                200,
                "{'work_units':[{'name':'u1',"
                        + "'status':'available','priority':0,'data':{'x':1},'not_before':null,'active_attempt':null,"
                        + "'attempt_count':0,'last_error':null,'next_attempt_at':null,'retrying':false}],'next':null}");
    }
}
