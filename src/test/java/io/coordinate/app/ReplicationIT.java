package io.coordinate.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.TopicNames;
import io.coordinate.testing.KafkaTestClient;
import io.coordinate.testing.RunningApp;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 6's acceptance, tried as a new user would, through the real broker: three hosts and {@code min_quorum} 2.
 * Two agreeing results finish a unit and one record appears on {@code coordinate.results}; two disagreeing
 * results make a third replica go to the third host and the majority wins. A replica that reports after a
 * restart is validated, and its unit is not assimilated again.
 */
class ReplicationIT {

    private static final TopicNames TOPICS = TopicNames.unprefixed();

    @TempDir
    Path dataDir;

    @Test
    void threeHostsAQuorumOfTwoAndOneRecordPerUnit() throws Exception {
        try (RunningApp app = RunningApp.start(dataDir)) {
            Story story = new Story(app, "boinc");
            story.call("{\"command\":\"set_work_spec\",\"work_spec\":{\"name\":\"sims\",\"min_quorum\":2}}");
            for (String host : List.of("h1", "h2", "h3")) {
                story.call(
                        "{\"command\":\"worker_heartbeat\",\"worker\":\"w-" + host + "\",\"parent\":\"" + host + "\"}");
            }
            story.call("{\"command\":\"add_work_units\",\"work_spec_name\":\"sims\","
                    + "\"work_units\":[{\"name\":\"agree\"},{\"name\":\"disagree\"}]}");

            // two agreeing results finish the unit
            JsonNode a1 = story.requestOne("w-h1", "agree");
            JsonNode a2 = story.requestOne("w-h2", "agree");
            story.finish(a1, "{\"pi\":3.14}");
            assertThat(story.status("agree")).isEqualTo("pending");
            story.finish(a2, "{\"pi\":3.140}");
            assertThat(story.status("agree")).isEqualTo("finished");

            // two disagreeing results: a third replica goes to the third host, and the majority wins
            JsonNode d1 = story.requestOne("w-h1", "disagree");
            JsonNode d2 = story.requestOne("w-h2", "disagree");
            story.finish(d1, "{\"pi\":3.14}");
            story.finish(d2, "{\"pi\":3.15}");
            JsonNode round = story.unit("disagree").get("replication");
            assertThat(story.status("disagree")).isEqualTo("available");
            assertThat(round.get("needed").asInt()).isEqualTo(1);
            assertThat(round.get("replicas").findValuesAsText("validate_state"))
                    .containsExactly("inconclusive", "inconclusive");
            assertThat(story.request("w-h1"))
                    .as("h1 has a replica of it already")
                    .isEmpty();
            assertThat(story.request("w-h2"))
                    .as("h2 has a replica of it already")
                    .isEmpty();
            JsonNode d3 = story.requestOne("w-h3", "disagree");
            story.finish(d3, "{\"pi\":3.14}");

            JsonNode decided = story.unit("disagree");
            assertThat(decided.get("status").asText()).isEqualTo("finished");
            assertThat(decided.get("data")).isEqualTo(Json.parse("{\"result\":{\"pi\":3.14}}"));
            assertThat(decided.get("replication").get("replicas").findValuesAsText("validate_state"))
                    .containsExactly("valid", "invalid", "valid");
            // valid for "agree", then invalid for "disagree"
            assertThat(app.client()
                            .get("/api/namespaces/boinc/workers/w-h2")
                            .body()
                            .get("reliability"))
                    .isEqualTo(Json.parse(
                            "{\"consecutive_valid\":0,\"valid\":1,\"invalid\":1,\"errors\":0,\"timeouts\":0}"));

            List<JsonNode> records = story.results(2);
            assertThat(records)
                    .extracting(r -> r.get("work_unit_name").asText())
                    .containsExactly("agree", "disagree");
            assertThat(records.get(0).get("canonical_result")).isEqualTo(Json.parse("{\"pi\":3.14}"));
            assertThat(records.get(0).get("error_mask").asInt()).isZero();
            assertThat(records.get(0).get("replicas").findValuesAsText("host")).containsExactly("h1", "h2");
            assertThat(records.get(1).get("canonical_result")).isEqualTo(Json.parse("{\"pi\":3.14}"));
            assertThat(records.get(1).get("replicas").findValuesAsText("host")).containsExactly("h1", "h2", "h3");
            assertThat(records.get(1).get("replicas").findValuesAsText("outcome"))
                    .containsExactly("success", "success", "success");
            story.call("{\"command\":\"worker_heartbeat\",\"worker\":\"w-h1\"}"); // whatever came before is committed
            assertThat(story.results(2)).as("exactly one record per unit").hasSize(2);
        }
    }

    @Test
    void aReplicaThatReportsAfterARestartIsValidatedAndNotAssimilatedAgain() throws Exception {
        JsonNode late;
        try (RunningApp app = RunningApp.start(dataDir)) {
            Story story = new Story(app, "again");
            story.call("{\"command\":\"set_work_spec\",\"work_spec\":{\"name\":\"sims\",\"min_quorum\":2,"
                    + "\"target_nresults\":3}}");
            story.call(
                    "{\"command\":\"add_work_units\",\"work_spec_name\":\"sims\",\"work_units\":[{\"name\":\"u\"}]}");
            JsonNode a1 = story.requestOne("w1", "u");
            JsonNode a2 = story.requestOne("w2", "u");
            late = story.requestOne("w3", "u");
            story.finish(a1, "42");
            story.finish(a2, "42");
            assertThat(story.results(1)).hasSize(1);
        }
        try (RunningApp app = RunningApp.start(dataDir)) {
            Story story = new Story(app, "again");
            story.finish(late, "42");

            assertThat(story.unit("u").get("replication").get("replicas").findValuesAsText("validate_state"))
                    .containsExactly("valid", "valid", "valid");
            assertThat(story.results(1))
                    .as("assimilated once, before the restart")
                    .hasSize(1);
        }
    }

    /** One namespace's commands through the gateway, and its reads over HTTP and from the results topic. */
    private record Story(RunningApp app, String ns) {

        JsonNode call(String json) {
            return app.call(ns, json);
        }

        List<JsonNode> request(String worker) {
            List<JsonNode> attempts = new ArrayList<>();
            call("{\"command\":\"request_attempts\",\"worker\":\"" + worker + "\"}")
                    .get("attempts")
                    .forEach(attempts::add);
            return attempts;
        }

        JsonNode requestOne(String worker, String unit) {
            List<JsonNode> attempts = request(worker);
            assertThat(attempts).as("attempts for %s", worker).hasSize(1);
            assertThat(attempts.get(0).get("work_unit_name").asText()).isEqualTo(unit);
            return attempts.get(0);
        }

        void finish(JsonNode attempt, String result) {
            call("{\"command\":\"finish_attempt\",\"attempt_id\":\""
                    + attempt.get("attempt_id").asText() + "\",\"data\":{\"result\":" + result + "}}");
        }

        JsonNode unit(String name) {
            KafkaTestClient.HttpAnswer answer =
                    app.client().get("/api/namespaces/" + ns + "/work-specs/sims/work-units/" + name);
            assertThat(answer.status()).as("GET %s: %s", name, answer.body()).isEqualTo(200);
            return answer.body();
        }

        String status(String name) {
            return unit(name).get("status").asText();
        }

        /** The records of the namespace on coordinate.results, once there are at least {@code n}, and a second later. */
        List<JsonNode> results(int n) throws InterruptedException {
            app.client()
                    .readUntil(TOPICS.results(), records -> ofNamespace(records).size() >= n);
            Thread.sleep(1000);
            return ofNamespace(app.client()
                    .readUntil(TOPICS.results(), records -> ofNamespace(records).size() >= n));
        }

        private List<JsonNode> ofNamespace(List<ConsumerRecord<byte[], byte[]>> records) {
            List<JsonNode> values = new ArrayList<>();
            for (ConsumerRecord<byte[], byte[]> record : records) {
                if (ns.equals(KafkaTestClient.keyOf(record))) {
                    values.add(Json.parse(new String(record.value(), StandardCharsets.UTF_8)));
                }
            }
            return values;
        }
    }
}
