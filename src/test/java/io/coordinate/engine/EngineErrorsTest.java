package io.coordinate.engine;

import static io.coordinate.engine.EngineHarness.assertJson;
import static io.coordinate.engine.EngineHarness.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.EngineHarness.Attempt;
import io.coordinate.engine.EngineHarness.Reply;
import io.coordinate.engine.state.codec.NamespaceKeys;
import io.coordinate.engine.state.codec.ValueCodec;
import io.coordinate.engine.state.model.NamespaceRecord;
import io.coordinate.protocol.Command;
import io.coordinate.protocol.ErrorCode;
import io.coordinate.protocol.Json;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Each error of the engine: the exact error reply, nothing but the reply produced, and the store exactly as
 * it was before the command (every entry compared).
 */
class EngineErrorsTest {

    private final EngineHarness h = new EngineHarness();
    private Attempt finished;
    private Attempt superseded;

    @BeforeEach
    void state() {
        h.setSpec("{\"name\":\"spec\",\"min_gb\":1}");
        h.addUnits("spec", "a", "b");
        finished = h.requestOne();
        h.finish(finished).ok();
        superseded = h.requestOne();
        h.reset("spec", "{\"names\":[\"b\"]}").ok();
        h.requestOne();
        h.send("worker_heartbeat", "worker", "parent").ok();
    }

    /** Sends the command and asserts the exact error reply and that it changed nothing. */
    private void assertRejected(String code, String message, String command, Object... fields) {
        Map<String, String> before = h.snapshot();
        Reply reply = h.send(command, fields);
        String requestId = reply.json().get("request_id").asText();
        assertJson(
                reply.json(),
                "{\"request_id\":\"" + requestId + "\",\"ok\":false," + "\"error\":{\"code\":\"" + code
                        + "\",\"message\":" + Json.text(Json.MAPPER.valueToTree(message)) + "}}");
        EngineResult result = reply.result();
        assertThat(result.rejection().code().code()).isEqualTo(code);
        assertThat(result.replies()).hasSize(1);
        assertThat(result.assignments()).isEmpty();
        assertThat(result.events()).isEmpty();
        assertThat(result.chained()).isEmpty();
        assertThat(result.results()).isEmpty();
        assertThat(h.snapshot()).as("store after a rejected %s", command).isEqualTo(before);
    }

    @Test
    void noSuchWorkSpec() {
        assertRejected(
                "no_such_work_spec",
                "no work spec \"missing\"",
                "add_work_units",
                "work_spec_name",
                "missing",
                "work_units",
                json("[{\"name\":\"x\"}]"));
        assertRejected(
                "no_such_work_spec", "no work spec \"missing\"", "delete_work_spec", "work_spec_name", "missing");
        assertRejected(
                "no_such_work_spec",
                "no work spec \"missing\"",
                "set_work_spec_meta",
                "work_spec_name",
                "missing",
                "meta",
                json("{\"priority\":1}"));
    }

    /**
     * No command names a single unit, so no command answers {@code no_such_work_unit} (queries naming missing
     * units select nothing, as in the reference); a unit lookup is a read, answered 404 by HTTP. What the
     * engine guarantees is that such a query changes nothing.
     */
    @Test
    void queriesNamingMissingUnitsChangeNothing() {
        Map<String, String> before = h.stateSnapshot();
        assertJson(
                h.send("delete_work_units", "work_spec_name", "spec", "query", json("{\"names\":[\"zz\"]}"))
                        .ok(),
                "{\"deleted\":0}");
        assertThat(h.unit("spec", "zz")).isNull();
        assertThat(h.stateSnapshot())
                .as("all but the answer kept for its request_id")
                .isEqualTo(before);
    }

    @Test
    void noSuchAttempt() {
        assertRejected("no_such_attempt", "no attempt \"999\"", "finish_attempt", "attempt_id", "999");
        assertRejected("no_such_attempt", "no attempt \"not-a-number\"", "renew_attempt", "attempt_id", "not-a-number");
    }

    @Test
    void notPending() {
        assertRejected(
                "not_pending",
                "Expected attempt " + finished.id() + " to be pending to fail it, but it is finished",
                "fail_attempt",
                "attempt_id",
                finished.id());
        assertRejected(
                "not_pending",
                "Expected attempt " + finished.id() + " to be pending to retry it, but it is finished",
                "retry_attempt",
                "attempt_id",
                finished.id(),
                "delay",
                5);
        assertRejected(
                "not_pending",
                "Expected attempt " + finished.id() + " to be pending to expire it, but it is finished",
                "expire_attempt",
                "attempt_id",
                finished.id());
        assertRejected(
                "not_pending",
                "Expected attempt " + finished.id() + " to be pending to renew it, but it is finished",
                "renew_attempt",
                "attempt_id",
                finished.id(),
                "extend",
                60);
        h.send("expire_attempt", "attempt_id", superseded.id()).ok();
        assertRejected(
                "not_pending",
                "Expected attempt " + superseded.id() + " to be pending to finish it, but it is expired",
                "finish_attempt",
                "attempt_id",
                superseded.id());
    }

    @Test
    void lostLease() {
        assertRejected(
                "lost_lease",
                "attempt " + superseded.id() + " is no longer active",
                "renew_attempt",
                "attempt_id",
                superseded.id(),
                "extend",
                60,
                "data",
                json("{\"k\":1}"));
    }

    @Test
    void noSuchWorker() {
        assertRejected("no_such_worker", "no worker \"ghost\"", "deactivate_worker", "worker", "ghost");
    }

    @Test
    void badCommandForMissingOrMistypedFields() {
        assertRejected("bad_command", "missing required field \"work_spec\"", "set_work_spec");
        assertRejected("bad_command", "field \"work_spec\" must be an object", "set_work_spec", "work_spec", "spec");
        assertRejected(
                "bad_command", "missing required field \"work_units\"", "add_work_units", "work_spec_name", "spec");
        assertRejected("bad_command", "missing required field \"work_spec_name\"", "delete_work_spec");
        assertRejected("bad_command", "missing required field \"worker\"", "request_attempts");
        assertRejected(
                "bad_command", "field \"count\" must be a number", "request_attempts", "worker", "w", "count", "ten");
        assertRejected("bad_command", "missing required field \"attempt_id\"", "finish_attempt");
        assertRejected("bad_command", "missing required field \"worker\"", "worker_heartbeat");
        assertRejected(
                "bad_command",
                "give \"priority\" or \"adjustment\"",
                "prioritize_work_units",
                "work_spec_name",
                "spec",
                "query",
                json("{}"));
        assertRejected(
                "bad_command",
                "each work unit must be an object",
                "add_work_units",
                "work_spec_name",
                "spec",
                "work_units",
                json("[{\"name\":\"ok\"},\"bad\"]"));
        assertRejected(
                "bad_command",
                "\"data\" must be an object",
                "finish_attempt",
                "attempt_id",
                superseded.id(),
                "data",
                json("[1]"));
        assertRejected(
                "bad_command",
                "work spec key \"priority\" must be a number",
                "set_work_spec",
                "work_spec",
                json("{\"name\":\"new\",\"priority\":\"high\"}"));
    }

    /** A negative or fractional count is refused, not truncated: no worker is created and no attempt started. */
    @Test
    void badCommandForANegativeOrFractionalCount() {
        assertRejected(
                "bad_command",
                "field \"count\" must be a whole number from 0 to 2147483647, but it is -1",
                "request_attempts",
                "worker",
                "w",
                "count",
                -1);
        assertRejected(
                "bad_command",
                "field \"count\" must be a whole number from 0 to 2147483647, but it is 1.5",
                "request_attempts",
                "worker",
                "w",
                "count",
                json("1.5"));
        assertRejected(
                "bad_command",
                "field \"count\" must be a whole number from 0 to 2147483647, but it is 0.5",
                "request_attempts",
                "worker",
                "w",
                "count",
                json("0.5"));
        // compared exactly: as a double this is 1
        assertRejected(
                "bad_command",
                "field \"count\" must be a whole number from 0 to 2147483647, but it is "
                        + "1.0000000000000000000000001",
                "request_attempts",
                "worker",
                "w",
                "count",
                json("1.0000000000000000000000001"));
        assertThat(h.workerView("w")).isNull();
    }

    /** A count of 0 asks for one unit, as in the reference; a whole count written {@code 2.0} asks for two. */
    @Test
    void aCountOfZeroAsksForOneAndTwoPointZeroForTwo() {
        h.addUnits("spec", "c", "d", "e");

        assertThat(h.request("count", 0)).extracting(Attempt::unit).containsExactly("c");
        assertThat(h.request("count", json("2.0"))).extracting(Attempt::unit).containsExactly("d", "e");
        assertThat(h.status("spec", "e")).isEqualTo("pending");
    }

    @Test
    void changedName() {
        assertRejected(
                "changed_name",
                "work spec \"spec\" cannot be renamed to \"name\"",
                "set_work_spec",
                "work_spec_name",
                "spec",
                "work_spec",
                json("{\"name\":\"name\",\"min_gb\":3}"));
    }

    @Test
    void noWorkSpecName() {
        assertRejected("no_work_spec_name", "work spec data has no \"name\"", "set_work_spec", "work_spec", json("{}"));
        assertRejected(
                "no_work_spec_name",
                "work spec data has no \"name\"",
                "set_work_spec",
                "work_spec",
                json("{\"name\":\"\"}"));
    }

    @Test
    void badWorkSpecName() {
        assertRejected(
                "bad_work_spec_name",
                "work spec \"name\" must be a string",
                "set_work_spec",
                "work_spec",
                json("{\"name\":4}"));
    }

    @Test
    void aRejectedCommandWithoutReplyToProducesNothing() {
        Map<String, String> before = h.snapshot();
        ObjectNode body = Json.object()
                .put("command", "delete_work_spec")
                .put("namespace", "ns")
                .put("work_spec_name", "missing");

        EngineResult result = new Engine(h.store(), new Random(1)).process(Command.of(body), h.now());

        assertThat(result.rejection().code()).isEqualTo(ErrorCode.NO_SUCH_WORK_SPEC);
        assertThat(result.isEmpty()).isTrue();
        assertThat(h.snapshot()).isEqualTo(before);
    }

    @Test
    void aRejectedFirstCommandDoesNotCreateItsNamespace() {
        h.namespace("fresh");
        assertRejected("no_such_work_spec", "no work spec \"spec\"", "delete_work_spec", "work_spec_name", "spec");
        assertThat(h.namespaces()).containsExactly("ns");
    }

    /**
     * Such a namespace was filled over Kafka and then could not be read over HTTP (the server refuses %00 in a path,
     * browsers resolve "." and ".."), nor opened from the dashboard.
     */
    @Test
    void aNewNamespaceNamedDotOrDotDotOrHoldingNulIsABadCommand() {
        for (String ns : List.of(".", "..")) {
            h.namespace(ns);
            assertRejected(
                    "bad_command", "\"namespace\" must not be \".\" or \"..\"", "worker_heartbeat", "worker", "w");
            assertRejected(
                    "bad_command",
                    "\"namespace\" must not be \".\" or \"..\"",
                    "set_work_spec",
                    "work_spec",
                    json("{\"name\":\"s\"}"));
        }
        for (String ns : List.of("\u0000", "a\u0000b", "ns\u0000")) {
            h.namespace(ns);
            assertRejected(
                    "bad_command",
                    "\"namespace\" must not hold the character U+0000",
                    "worker_heartbeat",
                    "worker",
                    "w");
        }
        assertThat(h.namespaces()).containsExactly("ns");
        for (String ns : List.of("...", ".a", "a.", "\u0001", "a\tb")) {
            h.namespace(ns).send("worker_heartbeat", "worker", "w").ok();
        }
        assertThat(h.namespaces()).containsExactly("\u0001", "...", ".a", "a\tb", "a.", "ns");
    }

    @Test
    void aNamespaceMadeBeforeTheRuleStillTakesCommandsAndCanBeDestroyed() {
        h.store().put(NamespaceKeys.namespace("."), ValueCodec.encode(new NamespaceRecord(".", h.now())));
        h.namespace(".");
        h.send("worker_heartbeat", "worker", "w").ok();
        assertThat(h.workerView("w").get("active").asBoolean()).isTrue();
        h.send("destroy_namespace").ok();
        assertThat(h.namespaces()).containsExactly("ns");
    }
}
