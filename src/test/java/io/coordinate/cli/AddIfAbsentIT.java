package io.coordinate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.protocol.Json;
import io.coordinate.testing.KafkaTestClient;
import io.coordinate.testing.RunningApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 39's acceptance for add-if-absent (docs/reference.md#add_work_units), as a producer that replays its input
 * does it: 1,000 units added with {@code units add}, all finished by the shell worker, then the same file added again
 * with {@code --if-exists keep}: they stay finished and nothing runs again, as the events show.
 */
class AddIfAbsentIT {

    private static final String NS = "replay";
    private static final int UNITS = 1000;

    @TempDir
    static Path dataDir;

    private static RunningApp app;

    @BeforeAll
    static void start() throws Exception {
        app = RunningApp.start(dataDir.resolve("env"));
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    private static CliRun.Result coordinate(String... args) {
        return CliRun.run(app, NS, args);
    }

    private static JsonNode counts(String spec) {
        return app.client()
                .get("/api/namespaces/" + NS + "/work-specs/" + spec)
                .body()
                .path("counts");
    }

    @Test
    void replayingAThousandFinishedUnitsWithKeepRunsNothingAgain() throws Exception {
        app.call(NS, "{\"command\":\"set_work_spec\",\"namespace\":\"" + NS + "\",\"work_spec\":{\"name\":\"s\"}}");
        List<String> names = IntStream.range(0, UNITS)
                .mapToObj(i -> String.format("u%04d", i))
                .toList();
        Path input = Files.writeString(
                dataDir.resolve("units.jsonl"),
                names.stream()
                        .map(name -> "{\"name\": \"" + name + "\", \"data\": {\"n\": 1}}")
                        .collect(Collectors.joining("\n", "", "\n")));
        assertThat(coordinate("units", "add", "--spec", "s", input.toString()))
                .isEqualTo(new CliRun.Result(0, "added 1000 units to spec \"s\"" + System.lineSeparator(), ""));
        assertThat(coordinate("work", "--spec", "s", "--exec", "true", "--concurrency", "8", "--until-idle")
                        .exit())
                .isEqualTo(ExitCodes.OK);
        assertThat(counts("s")).isEqualTo(Json.parse("{\"finished\":1000}"));

        CliRun.Result replay =
                coordinate("units", "add", "--spec", "s", "--if-exists", "keep", "--json", input.toString());
        assertThat(replay.exit()).as(replay.err()).isEqualTo(0);
        JsonNode reply = Json.parse(replay.out());
        assertThat(reply.get("added")).isEmpty();
        assertThat(reply.get("replaced")).isEmpty();
        assertThat(texts(reply.get("kept"))).isEqualTo(names);
        assertThat(texts(reply.get("work_unit_names"))).isEqualTo(names);
        assertThat(coordinate("units", "add", "--spec", "s", "--if-exists", "keep", input.toString()))
                .isEqualTo(new CliRun.Result(
                        0, "added 0, replaced 0, kept 1000 units of spec \"s\"" + System.lineSeparator(), ""));
        // the HTTP command route passes if_exists through as it is
        KafkaTestClient.HttpAnswer overHttp = app.client()
                .post(
                        "/api/namespaces/" + NS + "/commands",
                        "{\"command\":\"add_work_units\",\"work_spec_name\":\"s\",\"if_exists\":\"keep\","
                                + "\"work_units\":[{\"name\":\"u0000\",\"data\":{\"n\":2}}]}");
        assertThat(overHttp.status()).isEqualTo(200);
        assertThat(overHttp.body().get("result"))
                .isEqualTo(Json.parse(
                        "{\"added\":[],\"replaced\":[],\"kept\":[\"u0000\"],\"work_unit_names\":[\"u0000\"]}"));
        assertThat(coordinate("work", "--spec", "s", "--exec", "true", "--concurrency", "8", "--until-idle")
                        .exit())
                .isEqualTo(ExitCodes.OK);

        assertThat(counts("s")).isEqualTo(Json.parse("{\"finished\":1000}"));
        JsonNode unit = app.client()
                .get("/api/namespaces/" + NS + "/work-specs/s/work-units/u0000")
                .body();
        assertThat(unit.get("attempt_count").asInt()).isEqualTo(1);
        assertThat(unit.get("status").asText()).isEqualTo("finished");
        // a finished unit shows its attempt's output; a replaced one would be available with the new data
        assertThat(unit.get("data")).isEqualTo(Json.parse("{\"stdout\":\"\"}"));
        // a marker added after it all: the events up to it hold every start there was
        app.call(NS, "{\"command\":\"set_work_spec\",\"namespace\":\"" + NS + "\",\"work_spec\":{\"name\":\"m\"}}");
        app.call(
                NS,
                "{\"command\":\"add_work_units\",\"namespace\":\"" + NS + "\",\"work_spec_name\":\"m\","
                        + "\"work_units\":[{\"name\":\"marker\"}]}");
        Map<String, Integer> starts = new HashMap<>();
        for (JsonNode event : eventsUntilTheMarker()) {
            if (event.get("type").asText().equals("attempt_started")) {
                starts.merge(event.get("work_unit_name").asText(), 1, Integer::sum);
            }
        }
        assertThat(starts).hasSize(UNITS);
        assertThat(starts.values()).containsOnly(1);
    }

    private static List<JsonNode> eventsUntilTheMarker() {
        List<JsonNode> batches = app.client()
                .valuesUntil(
                        "coordinate.events",
                        NS,
                        read -> events(read).stream()
                                .anyMatch(e -> e.path("work_unit_name").asText().equals("marker")));
        return events(batches);
    }

    private static List<JsonNode> events(List<JsonNode> batches) {
        List<JsonNode> events = new ArrayList<>();
        batches.forEach(batch -> batch.get("events").forEach(events::add));
        return events;
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(value -> texts.add(value.asText()));
        return texts;
    }
}
