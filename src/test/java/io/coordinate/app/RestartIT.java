package io.coordinate.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.cli.DevEnvironment;
import io.coordinate.protocol.TopicNames;
import io.coordinate.testing.KafkaTestClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stopping the app and starting it again finds every unit as it was: on the same data dir, and after losing its
 * local state (a new machine), when the records come back from the changelog and the indexes are rebuilt. A unit
 * pending when the app stops keeps its attempt, which the app finishes after the restart.
 */
class RestartIT {

    private static final TopicNames TOPICS = TopicNames.unprefixed();

    @TempDir
    Path dataDir;

    @Test
    void unitsSurviveARestartOnTheSameDataDir() throws Exception {
        restartStory(false);
    }

    @Test
    void unitsSurviveARestartThatLostTheLocalState() throws Exception {
        restartStory(true);
    }

    private void restartStory(boolean wipeLocalState) throws Exception {
        JsonNode before;
        JsonNode specBefore;
        try (DevEnvironment env = DevEnvironment.start(0, 0, dataDir);
                KafkaTestClient client = new KafkaTestClient(env.bootstrapServers(), env.httpPort())) {
            client.send(
                    TOPICS.commands(),
                    "r",
                    "{\"command\":\"set_work_spec\",\"namespace\":\"r\"," + "\"work_spec\":{\"name\":\"spec\"}}");
            client.send(
                    TOPICS.commands(),
                    "r",
                    "{\"command\":\"add_work_units\",\"namespace\":\"r\","
                            + "\"work_spec_name\":\"spec\",\"work_units\":[{\"name\":\"u1\"},{\"name\":\"u2\",\"priority\":5},"
                            + "{\"name\":\"u3\",\"data\":{\"x\":[1,2]}}]}");
            client.send(
                    TOPICS.commands(),
                    "r",
                    "{\"command\":\"request_attempts\",\"namespace\":\"r\","
                            + "\"worker\":\"w\",\"reply_to\":\"restart\"}");
            JsonNode reply = client.awaitValues(TOPICS.replies(), "restart", 1).get(0);
            String attempt =
                    reply.get("result").get("attempts").get(0).get("attempt_id").asText();
            client.send(
                    TOPICS.commands(),
                    "r",
                    "{\"command\":\"finish_attempt\",\"namespace\":\"r\"," + "\"attempt_id\":\"" + attempt
                            + "\",\"data\":{\"done\":true},\"reply_to\":\"restart\"}");
            client.awaitValues(TOPICS.replies(), "restart", 2);
            // u1 is pending when the app stops: started by a request that left its record as added
            client.send(
                    TOPICS.commands(),
                    "r",
                    "{\"command\":\"request_attempts\",\"namespace\":\"r\","
                            + "\"worker\":\"w\",\"reply_to\":\"restart\"}");
            JsonNode started = client.awaitValues(TOPICS.replies(), "restart", 3)
                    .get(2)
                    .get("result")
                    .get("attempts");
            assertThat(started.get(0).get("work_unit_name").asText()).isEqualTo("u1");
            assertThat(started.get(0).get("attempt_id").asText()).isEqualTo("2");
            before = client.get("/api/namespaces/r/work-specs/spec/work-units").body();
            assertThat(before.get("work_units")).hasSize(3);
            assertThat(before.get("work_units").get(0).get("status").asText()).isEqualTo("pending");
            assertThat(before.get("work_units").get(1).get("status").asText()).isEqualTo("finished");
            specBefore = client.get("/api/namespaces/r/work-specs/spec").body();
            assertThat(specBefore.get("counts").toString()).isEqualTo("{\"available\":1,\"pending\":1,\"finished\":1}");
        }
        if (wipeLocalState) {
            deleteTree(dataDir.resolve("streams"));
        }

        try (DevEnvironment env = DevEnvironment.start(0, 0, dataDir);
                KafkaTestClient client = new KafkaTestClient(env.bootstrapServers(), env.httpPort())) {
            JsonNode after =
                    client.get("/api/namespaces/r/work-specs/spec/work-units").body();
            assertThat(after).isEqualTo(before);
            // counts and the available index are derived: equal after a rebuild too
            assertThat(client.get("/api/namespaces/r/work-specs/spec").body()).isEqualTo(specBefore);
            // and the engine goes on from there: it finishes the unit started before the restart
            client.send(
                    TOPICS.commands(),
                    "r",
                    "{\"command\":\"finish_attempt\",\"namespace\":\"r\","
                            + "\"attempt_id\":\"2\",\"reply_to\":\"restart-2\"}");
            assertThat(client.awaitValues(TOPICS.replies(), "restart-2", 1)
                            .get(0)
                            .get("ok")
                            .asBoolean())
                    .isTrue();
            assertThat(client.get("/api/namespaces/r/work-specs/spec")
                            .body()
                            .get("counts")
                            .toString())
                    .isEqualTo("{\"available\":1,\"finished\":2}");
            // and the next request gets the next best unit
            client.send(
                    TOPICS.commands(),
                    "r",
                    "{\"command\":\"request_attempts\",\"namespace\":\"r\","
                            + "\"worker\":\"w\",\"reply_to\":\"restart-2\"}");
            JsonNode reply =
                    client.awaitValues(TOPICS.replies(), "restart-2", 2).get(1);
            assertThat(reply.get("result")
                            .get("attempts")
                            .get(0)
                            .get("work_unit_name")
                            .asText())
                    .isEqualTo("u3");
            assertThat(reply.get("result")
                            .get("attempts")
                            .get(0)
                            .get("attempt_id")
                            .asText())
                    .isEqualTo("3");
        }
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
