package io.coordinate.engine;

import static io.coordinate.engine.EngineHarness.assertJson;
import static io.coordinate.engine.EngineHarness.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.EngineHarness.Attempt;
import io.coordinate.engine.EngineHarness.Reply;
import io.coordinate.protocol.Json;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Commands a client may send twice (a retry after a lost connection or a lost reply): finishing, failing or
 * retrying an attempt the same way again answers ok and changes nothing; a repeated {@code request_id} gets the first
 * answer again within {@link Engine#ANSWER_WINDOW_MILLIS}.
 */
class IdempotencyTest {

    private final EngineHarness h = new EngineHarness();

    // --- the same attempt command twice ---

    @Test
    void finishingAFinishedAttemptAnswersOkWithTheSameResultAndChangesNothing() {
        h.setSpec("{\"name\":\"spec\",\"then\":\"next\"}");
        h.setSpec("{\"name\":\"next\"}");
        h.addUnits("spec", "a");
        Attempt a = h.requestOne();
        ObjectNode first = h.finish(a, "{\"output\":[\"x\"]}").ok();
        assertThat(h.chainedCommands()).hasSize(1);
        Map<String, String> before = h.stateSnapshot();

        Reply again = h.finish(a, "{\"output\":[\"x\"]}");

        assertThat(again.ok()).isEqualTo(first);
        assertThat(first.get("status").asText()).isEqualTo("finished");
        assertThat(again.result().events()).as("no second event").isEmpty();
        assertThat(again.result().chained()).as("no second then-chaining").isEmpty();
        assertThat(h.chainedCommands()).hasSize(1);
        assertThat(h.stateSnapshot()).isEqualTo(before);
        assertThat(h.units("next", "{}")).hasSize(1);
    }

    @Test
    void aRepeatedFinishKeepsTheFirstData() {
        h.setSpec("{\"name\":\"spec\"}");
        h.addUnits("spec", "a");
        Attempt a = h.requestOne();
        h.finish(a, "{\"out\":1}").ok();

        ObjectNode again = h.finish(a, "{\"out\":2}").ok();

        assertJson(again.get("data"), "{\"out\":1}");
        assertJson(h.unitData("spec", "a"), "{\"out\":1}");
        assertThat(h.finish(a, "[1]").errorCode())
                .as("bad data is still a bad command")
                .isEqualTo("bad_command");
    }

    @Test
    void finishAttemptsCountsItemsFinishedAlreadyAsFinished() {
        h.setSpec("{\"name\":\"spec\"}");
        h.addUnits("spec", "a", "b");
        List<Attempt> attempts = h.request("count", 2);
        ArrayNode items = Json.MAPPER.createArrayNode();
        attempts.forEach(a -> items.addObject().put("attempt_id", a.id()));
        assertJson(h.send("finish_attempts", "attempts", items).ok(), "{\"finished\":2,\"errors\":[]}");
        Map<String, String> before = h.stateSnapshot();

        Reply again = h.send("finish_attempts", "attempts", items);

        assertJson(again.ok(), "{\"finished\":2,\"errors\":[]}");
        assertThat(again.result().events()).isEmpty();
        assertThat(h.stateSnapshot()).isEqualTo(before);
    }

    @Test
    void failingAFailedAttemptAndRetryingARetriedOneAnswerOk() {
        h.setSpec("{\"name\":\"spec\"}");
        h.addUnits("spec", "a", "b");
        Attempt a = h.requestOne();
        Attempt b = h.requestOne();
        ObjectNode failed = h.fail(a).ok();
        ObjectNode retried = h.retry(b, 60).ok();
        Map<String, String> before = h.stateSnapshot();

        Reply failAgain = h.fail(a);
        h.advanceSeconds(30);
        Reply retryAgain = h.retry(b, 600);

        assertThat(failAgain.ok()).isEqualTo(failed);
        assertThat(failed.get("status").asText()).isEqualTo("failed");
        assertThat(retryAgain.ok()).isEqualTo(retried);
        assertThat(retried.get("status").asText()).isEqualTo("retryable");
        assertThat(failAgain.result().events()).isEmpty();
        assertThat(retryAgain.result().events()).isEmpty();
        assertThat(h.stateSnapshot())
                .as("the second retry's delay is not applied")
                .isEqualTo(before);
        assertThat(h.status("spec", "b")).isEqualTo("delayed");
        h.advanceSeconds(31);
        h.punctuate();
        assertThat(h.status("spec", "b")).as("due 60 s after the first retry").isEqualTo("available");
    }

    @Test
    void anotherWayAfterTheFirstStillAnswersNotPending() {
        h.setSpec("{\"name\":\"spec\"}");
        h.addUnits("spec", "a", "b", "c");
        Attempt finished = h.requestOne();
        Attempt retried = h.requestOne();
        Attempt expired = h.requestOne("lifetime", 10);
        h.finish(finished).ok();
        h.retry(retried, 0).ok();
        h.advanceSeconds(11);
        h.punctuate();
        Map<String, String> before = h.snapshot();

        assertThat(h.fail(finished).errorCode()).isEqualTo("not_pending");
        assertThat(h.retry(finished, 0).errorCode()).isEqualTo("not_pending");
        assertThat(h.finish(retried).errorCode()).isEqualTo("not_pending");
        assertThat(h.fail(retried).errorCode()).isEqualTo("not_pending");
        assertThat(h.finish(expired).errorCode()).as("a lost lease").isEqualTo("not_pending");
        assertThat(h.fail(expired).errorCode()).isEqualTo("not_pending");
        assertThat(h.retry(expired, 0).errorCode()).isEqualTo("not_pending");
        assertThat(h.renew(finished, 60, "{}").errorCode()).isEqualTo("not_pending");
        assertThat(h.snapshot()).as("refused commands keep no answer").isEqualTo(before);
    }

    @Test
    void aReplicaFinishedTwiceSendsOneResult() {
        h.setSpec("{\"name\":\"s\",\"min_quorum\":2}");
        h.addUnits("s", "u");
        h.send("worker_heartbeat", "worker", "w1", "parent", "h1").ok();
        h.send("worker_heartbeat", "worker", "w2", "parent", "h2").ok();
        h.finish(h.worker("w1").requestOne(), "{\"result\":7}").ok();
        Attempt replica = h.worker("w2").requestOne();
        h.finish(replica, "{\"result\":7}").ok();
        assertThat(h.results()).hasSize(1);
        Map<String, String> before = h.stateSnapshot();

        Reply again = h.finish(replica, "{\"result\":7}");

        assertThat(again.ok().get("status").asText()).isEqualTo("finished");
        assertThat(again.result().results()).isEmpty();
        assertThat(h.results()).hasSize(1);
        assertThat(h.stateSnapshot()).isEqualTo(before);
    }

    // --- a repeated request_id ---

    private ObjectNode command(String type, String requestId, String replyTo) {
        ObjectNode body = Json.object();
        body.put("command", type).put("namespace", h.namespace()).put("request_id", requestId);
        if (replyTo != null) {
            body.put("reply_to", replyTo);
        }
        return body;
    }

    private ObjectNode request(String worker, String requestId, String replyTo) {
        return command("request_attempts", requestId, replyTo)
                .put("worker", worker)
                .put("count", 2);
    }

    @Test
    void aRepeatedRequestGetsTheFirstAssignmentAndStartsNothing() {
        h.setSpec("{\"name\":\"spec\"}");
        h.addUnits("spec", "a", "b", "c", "d");
        Reply first = h.sendBody(request("w", "q1", null));
        assertThat(h.assignments()).hasSize(1);
        Map<String, String> before = h.snapshot();
        h.advanceSeconds(5);

        Reply again = h.sendBody(request("w", "q1", "test-client"));

        assertThat(first.json()).as("no reply_to, no reply").isNull();
        assertThat(h.assignments()).hasSize(2);
        assertThat(h.assignments().get(1).key()).isEqualTo("w");
        assertThat(h.assignments().get(1).value())
                .isEqualTo(h.assignments().get(0).value());
        assertThat(h.assignments().get(0).value().get("attempts")).hasSize(2);
        assertThat(again.ok())
                .as("the reply repeats the assignment")
                .isEqualTo(h.assignments().get(0).value());
        assertThat(again.json().get("request_id").asText()).isEqualTo("q1");
        assertThat(again.result().events()).isEmpty();
        assertThat(h.snapshot()).as("a repeat changes nothing at all").isEqualTo(before);
        assertJson(h.counts("spec"), "{\"available\":2,\"pending\":2}");

        h.sendBody(request("w", "q2", null));
        assertJson(h.counts("spec"), "{\"pending\":4}");
    }

    @Test
    void aRepeatedRequestShowsItsAttemptsAsTheyAreNow() {
        h.setSpec("{\"name\":\"spec\"}");
        h.addUnits("spec", "a");
        h.sendBody(request("w", "q1", null));
        String id = h.assignments()
                .get(0)
                .value()
                .get("attempts")
                .get(0)
                .get("attempt_id")
                .asText();
        h.advanceSeconds(60);
        h.send("renew_attempt", "attempt_id", id, "extend", 3600).ok();

        h.sendBody(request("w", "q1", null));

        JsonNode again = h.assignments().get(1).value().get("attempts");
        assertThat(again).hasSize(1);
        assertThat(again.get(0).get("attempt_id").asText()).isEqualTo(id);
        assertThat(again.get(0).get("expiration_time").asText()).isEqualTo(h.timeIn(Duration.ofHours(1)));
    }

    @Test
    void aRepeatedAddAddsNothingAgain() {
        h.setSpec("{\"name\":\"spec\"}");
        ObjectNode add = command("add_work_units", "add-1", "test-client").put("work_spec_name", "spec");
        add.set("work_units", json("[{\"name\":\"a\"},{\"data\":{\"anonymous\":true}}]"));
        ObjectNode first = h.sendBody(add).ok();
        Attempt a = h.requestOne();
        h.finish(a).ok();
        Map<String, String> before = h.snapshot();

        ObjectNode again = h.sendBody(add).ok();

        assertThat(again).isEqualTo(first);
        assertThat(first.get("added").asInt()).isEqualTo(2);
        assertThat(h.snapshot())
                .as("the finished unit is not added again, nor a second anonymous one")
                .isEqualTo(before);
        assertJson(h.counts("spec"), "{\"available\":1,\"finished\":1}");
    }

    @Test
    void aRepeatedFinishWithTheSameIdGetsTheFirstAnswer() {
        h.setSpec("{\"name\":\"spec\"}");
        h.addUnits("spec", "a");
        Attempt a = h.requestOne();
        ObjectNode finish = command("finish_attempt", "f-1", "test-client").put("attempt_id", a.id());
        Reply first = h.sendBody(finish);
        Map<String, String> before = h.snapshot();

        Reply again = h.sendBody(finish);

        assertThat(again.json()).isEqualTo(first.json());
        assertThat(h.snapshot()).isEqualTo(before);
    }

    @Test
    void idsOfDifferentRequestersAndCommandsNeverMeet() {
        h.setSpec("{\"name\":\"spec\"}");
        h.addUnits("spec", "a", "b", "c", "d", "e", "f");
        h.sendBody(request("w1", "1", null));
        h.sendBody(request("w2", "1", null));
        ObjectNode add = command("add_work_units", "1", "test-client").put("work_spec_name", "spec");
        add.set("work_units", json("[{\"name\":\"x\"}]"));
        h.sendBody(add).ok();
        ObjectNode otherClient = command("add_work_units", "1", "test-client-b").put("work_spec_name", "spec");
        otherClient.set("work_units", json("[{\"name\":\"y\"}]"));
        h.sendBody(otherClient).ok();

        assertThat(h.assignments().get(1).value().get("attempts")).hasSize(2);
        assertThat(h.assignments()
                        .get(1)
                        .value()
                        .get("attempts")
                        .get(0)
                        .get("attempt_id")
                        .asText())
                .as("w2's request is its own")
                .isEqualTo("3");
        assertJson(h.counts("spec"), "{\"available\":4,\"pending\":4}");
    }

    @Test
    void aRequesterFieldOwnsTheIdWhateverTheReplyTo() {
        // As the HTTP gateways send a caller's key: one requester, a reply_to per gateway instance.
        h.setSpec("{\"name\":\"spec\"}");
        ObjectNode add = command("add_work_units", "key-1", "test-client-a")
                .put("requester", "http")
                .put("work_spec_name", "spec");
        add.set("work_units", json("[{\"data\":{\"anonymous\":true}}]"));
        Reply first = h.sendBody(add);
        Map<String, String> before = h.snapshot();

        Reply again = h.sendBody(add.deepCopy().put("reply_to", "test-client-b"));

        assertThat(again.result().replies()).hasSize(1);
        assertThat(again.result().replies().get(0).key()).isEqualTo("test-client-b");
        assertThat(again.json()).isEqualTo(first.json());
        assertThat(again.json().get("request_id").asText()).isEqualTo("key-1");
        assertThat(h.snapshot()).as("the anonymous unit is not added twice").isEqualTo(before);
        assertJson(h.counts("spec"), "{\"available\":1}");

        ObjectNode otherRequester = add.deepCopy().put("requester", "http-b");
        assertThat(h.sendBody(otherRequester).ok().get("added").asInt()).isEqualTo(1);
        assertJson(h.counts("spec"), "{\"available\":2}");
    }

    @Test
    void aRequestAttemptsBelongsToItsWorkerWhateverItsRequester() {
        h.setSpec("{\"name\":\"spec\"}");
        h.addUnits("spec", "a", "b", "c", "d");
        h.sendBody(request("w", "q1", "test-client-a").put("requester", "http"));
        h.sendBody(request("w", "q1", "test-client-b").put("requester", "someone-else"));
        h.sendBody(request("w2", "q1", "test-client-a").put("requester", "http"));

        assertThat(h.assignments()).hasSize(3);
        assertThat(h.assignments().get(1).value())
                .as("the same worker's repeat")
                .isEqualTo(h.assignments().get(0).value());
        assertThat(h.assignments()
                        .get(2)
                        .value()
                        .get("attempts")
                        .get(0)
                        .get("attempt_id")
                        .asText())
                .as("another worker's id is its own")
                .isEqualTo("3");
        assertJson(h.counts("spec"), "{\"pending\":4}");
    }

    @Test
    void everyReplyEchoesTheCorrelationId() {
        h.setSpec("{\"name\":\"spec\"}");
        h.addUnits("spec", "a");
        ObjectNode request =
                request("w", "q1", "test-client").put("requester", "http").put("correlation_id", "c-1");

        Reply first = h.sendBody(request);
        Reply repeat = h.sendBody(request.deepCopy().put("correlation_id", "c-2"));
        ObjectNode refused = command("finish_attempt", "f1", "test-client")
                .put("attempt_id", "99")
                .put("correlation_id", "c-3");
        Reply error = h.sendBody(refused);
        Reply without = h.sendBody(request("w", "q2", "test-client"));

        assertThat(first.json().get("correlation_id").asText()).isEqualTo("c-1");
        assertThat(repeat.json().get("correlation_id").asText()).isEqualTo("c-2");
        assertThat(repeat.json().get("request_id").asText()).isEqualTo("q1");
        assertThat(repeat.ok()).isEqualTo(first.ok());
        assertThat(error.errorCode()).isEqualTo("no_such_attempt");
        assertThat(error.json().get("correlation_id").asText()).isEqualTo("c-3");
        assertThat(without.json().fieldNames()).toIterable().containsExactly("request_id", "ok", "result");
    }

    @Test
    void aCommandWithoutRequesterOrRefusedKeepsNoAnswer() {
        h.setSpec("{\"name\":\"spec\"}");
        h.addUnits("spec", "a", "b");
        ObjectNode noReplyTo = command("set_work_spec_meta", "m1", null).put("work_spec_name", "spec");
        noReplyTo.set("meta", json("{\"priority\":1}"));
        Map<String, String> before = h.stateSnapshot();
        h.sendBody(noReplyTo);
        assertThat(h.snapshot().keySet())
                .as("no answer kept without a reply_to")
                .noneMatch(key -> key.contains(hex("m1") + "0001"));
        assertThat(h.stateSnapshot()).isNotEqualTo(before);

        ObjectNode refused = command("add_work_units", "r1", "test-client").put("work_spec_name", "missing");
        refused.set("work_units", json("[{\"name\":\"x\"}]"));
        assertThat(h.sendBody(refused).errorCode()).isEqualTo("no_such_work_spec");
        h.setSpec("{\"name\":\"missing\"}");
        assertJson(h.sendBody(refused).ok(), "{\"added\":1,\"work_unit_names\":[\"x\"]}");
    }

    @Test
    void anAnswerIsKeptForTenMinutesThenForgottenByTheTimeStep() {
        h.setSpec("{\"name\":\"spec\"}");
        h.addUnits("spec", "a", "b", "c", "d");
        h.sendBody(request("w", "q1", null));
        String answerKey = hex("q1") + "0001";
        assertThat(h.snapshot().keySet())
                .filteredOn(key -> key.contains(answerKey))
                .hasSize(2); // record + expiry

        h.advance(Duration.ofMinutes(10).minusMillis(1));
        h.punctuate();
        h.sendBody(request("w", "q1", null));
        assertJson(h.counts("spec"), "{\"available\":2,\"pending\":2}");

        h.advance(Duration.ofMillis(1));
        h.punctuate();
        assertThat(h.snapshot().keySet()).as("forgotten by the time step").noneMatch(key -> key.contains(answerKey));
        h.sendBody(request("w", "q1", null));
        assertJson(h.counts("spec"), "{\"pending\":4}");
    }

    @Test
    void theTimeStepForgetsAnswersInBoundedBatches() {
        h.setSpec("{\"name\":\"spec\"}");
        int commands = Engine.TIME_STEP_BATCH + 5;
        for (int i = 0; i < commands; i++) {
            h.send("worker_heartbeat", "worker", "w" + i).ok();
        }
        long kept = h.snapshot().keySet().stream()
                .filter(key -> key.startsWith("09"))
                .count();
        assertThat(kept).isEqualTo(commands + 1);

        h.advance(Duration.ofMinutes(10));
        h.punctuate();
        assertThat(h.snapshot().keySet().stream()
                        .filter(key -> key.startsWith("09"))
                        .count())
                .isEqualTo(6);
        h.punctuate();
        assertThat(h.snapshot().keySet()).noneMatch(key -> key.startsWith("09"));
    }

    @Test
    void aKeptAnswerSurvivesANewEngineOnTheSameStore() {
        h.setSpec("{\"name\":\"spec\"}");
        h.addUnits("spec", "a", "b", "c");
        h.sendBody(request("w", "q1", null));
        h.reopen();

        h.sendBody(request("w", "q1", null));

        assertThat(h.assignments().get(1).value())
                .isEqualTo(h.assignments().get(0).value());
        assertJson(h.counts("spec"), "{\"available\":1,\"pending\":2}");
    }

    @Test
    void aLargeResultIsKeptAsItsCountsOnly() {
        h.setSpec("{\"name\":\"spec\"}");
        ArrayNode units = Json.MAPPER.createArrayNode();
        for (int i = 0; i < 4000; i++) {
            units.addObject().put("name", String.format("a-rather-long-unit-name-%06d", i));
        }
        ObjectNode add = command("add_work_units", "big", "test-client").put("work_spec_name", "spec");
        add.set("work_units", units);
        assertThat(h.sendBody(add).ok().get("work_unit_names")).hasSize(4000);

        assertJson(h.sendBody(add).ok(), "{\"added\":4000}");
    }

    private static String hex(String text) {
        return HexFormat.of().formatHex(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
}
