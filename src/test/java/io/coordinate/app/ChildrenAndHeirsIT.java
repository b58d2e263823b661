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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 5's acceptance, tried as a new user would, through the real broker: a worker that adds two children
 * during its attempt sees them run only after it finishes; the parent reports {@code waiting} until both
 * finish; an heir runs last; a child's failure fails the parent and its heir.
 */
class ChildrenAndHeirsIT {

    private static final String NS = "trees";

    @TempDir
    static Path dataDir;

    private static RunningApp app;
    private static KafkaTestClient client;

    @BeforeAll
    static void start() throws Exception {
        app = RunningApp.start(dataDir);
        client = app.client();
        call("{\"command\":\"set_work_spec\",\"work_spec\":{\"name\":\"jobs\"}}");
        call("{\"command\":\"set_work_spec\",\"work_spec\":{\"name\":\"reports\"}}");
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    private static JsonNode call(String json) {
        return app.call(NS, json);
    }

    private static List<JsonNode> request(String worker, int count) {
        List<JsonNode> attempts = new ArrayList<>();
        call("{\"command\":\"request_attempts\",\"worker\":\"" + worker + "\",\"count\":" + count + "}")
                .get("attempts")
                .forEach(attempts::add);
        return attempts;
    }

    private static void finish(JsonNode attempt) {
        call("{\"command\":\"finish_attempt\",\"attempt_id\":\""
                + attempt.get("attempt_id").asText() + "\"}");
    }

    private static JsonNode unit(String spec, String name) {
        KafkaTestClient.HttpAnswer answer =
                client.get("/api/namespaces/" + NS + "/work-specs/" + spec + "/work-units/" + name);
        assertThat(answer.status())
                .as("GET %s/%s: %s", spec, name, answer.body())
                .isEqualTo(200);
        return answer.body();
    }

    private static String status(String spec, String name) {
        return unit(spec, name).get("status").asText();
    }

    private static List<String> units(List<JsonNode> attempts) {
        return attempts.stream().map(a -> a.get("work_unit_name").asText()).toList();
    }

    @Test
    void childrenRunAfterTheirParentsAttemptAndAnHeirRunsLast() {
        call("{\"command\":\"add_work_units\",\"work_spec_name\":\"jobs\",\"work_units\":[{\"name\":\"build\"}]}");
        call("{\"command\":\"add_work_units\",\"work_spec_name\":\"reports\",\"work_units\":[{\"name\":\"summary\","
                + "\"predecessor\":{\"work_spec_name\":\"jobs\",\"work_unit_name\":\"build\"}}]}");
        List<JsonNode> first = request("w1", 1);
        assertThat(units(first)).containsExactly("build");

        // during its attempt, the worker adds two children
        call("{\"command\":\"add_work_units\",\"work_spec_name\":\"jobs\",\"work_units\":["
                + "{\"name\":\"build-a\",\"parent\":{\"work_spec_name\":\"jobs\",\"work_unit_name\":\"build\"}},"
                + "{\"name\":\"build-b\",\"parent\":{\"work_spec_name\":\"jobs\",\"work_unit_name\":\"build\"}}]}");
        assertThat(request("w2", 5))
                .as("the children wait for their parent's attempt; the heir for the parent")
                .isEmpty();
        assertThat(status("jobs", "build-a")).isEqualTo("blocked");
        assertThat(unit("jobs", "build").get("children").get("counts"))
                .isEqualTo(Json.parse("{\"parked\":2,\"open\":0,\"closed\":0}"));

        finish(first.get(0));
        assertThat(status("jobs", "build")).isEqualTo("waiting");
        List<JsonNode> children = request("w2", 5);
        assertThat(units(children)).containsExactly("build-a", "build-b");

        finish(children.get(0));
        assertThat(status("jobs", "build")).isEqualTo("waiting");
        assertThat(status("reports", "summary")).isEqualTo("blocked");
        finish(children.get(1));
        assertThat(status("jobs", "build")).isEqualTo("finished");

        List<JsonNode> last = request("w1", 5);
        assertThat(units(last)).containsExactly("summary");
        finish(last.get(0));
        assertThat(status("reports", "summary")).isEqualTo("finished");
        JsonNode build = unit("jobs", "build");
        assertThat(build.get("children").get("closed"))
                .isEqualTo(Json.parse("[{\"work_spec_name\":\"jobs\",\"work_unit_name\":\"build-a\"},"
                        + "{\"work_spec_name\":\"jobs\",\"work_unit_name\":\"build-b\"}]"));
        assertThat(build.get("heirs"))
                .isEqualTo(Json.parse("[{\"work_spec_name\":\"reports\",\"work_unit_name\":\"summary\"}]"));
    }

    @Test
    void aFailedChildFailsItsParentAndTheParentsHeir() {
        call("{\"command\":\"add_work_units\",\"work_spec_name\":\"jobs\",\"work_units\":[{\"name\":\"deploy\"}]}");
        call("{\"command\":\"add_work_units\",\"work_spec_name\":\"reports\",\"work_units\":[{\"name\":\"announce\","
                + "\"predecessor\":{\"work_spec_name\":\"jobs\",\"work_unit_name\":\"deploy\"}}]}");
        JsonNode deploy = call("{\"command\":\"request_attempts\",\"worker\":\"w3\",\"work_specs\":[\"jobs\"]}")
                .get("attempts")
                .get(0);
        assertThat(deploy.get("work_unit_name").asText()).isEqualTo("deploy");
        call(
                "{\"command\":\"add_work_units\",\"work_spec_name\":\"jobs\",\"work_units\":["
                        + "{\"name\":\"deploy-step\",\"parent\":{\"work_spec_name\":\"jobs\",\"work_unit_name\":\"deploy\"}}]}");
        finish(deploy);
        JsonNode step = call("{\"command\":\"request_attempts\",\"worker\":\"w3\",\"work_specs\":[\"jobs\"]}")
                .get("attempts")
                .get(0);
        assertThat(step.get("work_unit_name").asText()).isEqualTo("deploy-step");

        call("{\"command\":\"fail_attempt\",\"attempt_id\":\""
                + step.get("attempt_id").asText() + "\",\"data\":{\"traceback\":\"disk full\"}}");

        JsonNode parent = unit("jobs", "deploy");
        assertThat(parent.get("status").asText()).isEqualTo("failed");
        assertThat(parent.get("data")).isEqualTo(Json.parse("{\"traceback\":\"child jobs/deploy-step failed\"}"));
        JsonNode heir = unit("reports", "announce");
        assertThat(heir.get("status").asText()).isEqualTo("failed");
        assertThat(heir.get("data")).isEqualTo(Json.parse("{\"traceback\":\"predecessor jobs/deploy failed\"}"));
        assertThat(unit("jobs", "deploy-step").get("data")).isEqualTo(Json.parse("{\"traceback\":\"disk full\"}"));

        // the cascade is on the events topic, in order, in the batch of the failing command
        List<String> expected = List.of(
                "jobs/deploy-step pending→failed", "jobs/deploy waiting→failed", "reports/announce blocked→failed");
        List<String> changes = statusChanges(client.readUntil(
                TopicNames.unprefixed().events(),
                records -> statusChanges(records).containsAll(expected)));
        assertThat(changes.subList(changes.indexOf(expected.get(0)), changes.indexOf(expected.get(0)) + 3))
                .isEqualTo(expected);
    }

    /** Every {@code unit_status_changed} of the namespace, as {@code spec/unit previous→status}, in order. */
    private static List<String> statusChanges(List<ConsumerRecord<byte[], byte[]>> records) {
        List<String> changes = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> record : records) {
            if (NS.equals(KafkaTestClient.keyOf(record))) {
                for (JsonNode event : Json.parse(new String(record.value(), StandardCharsets.UTF_8))
                        .path("events")) {
                    if (event.path("type").asText().equals("unit_status_changed")) {
                        changes.add(event.get("work_spec_name").asText() + "/"
                                + event.get("work_unit_name").asText() + " "
                                + event.get("previous_status").asText() + "→"
                                + event.get("status").asText());
                    }
                }
            }
        }
        return changes;
    }
}
