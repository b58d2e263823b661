package io.coordinate.clients;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.TopicNames;
import io.coordinate.testing.KafkaTestClient;
import io.coordinate.testing.Poll;
import io.coordinate.testing.RunningApp;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * One scenario against one kind of worker, in a namespace of its own: sets the spec, adds the units, runs the worker
 * (stopping and starting it again, cancelling units, as the scenario says) until every unit reached its expected
 * status, stops it, and checks the outcome with {@link ScenarioCheck}.
 */
final class ScenarioRun {

    private static final Duration WAIT = Duration.ofSeconds(90);

    private final RunningApp app;
    private final Scenario scenario;
    private final WorkerKind kind;
    private final Path workDir;
    private final String namespace;
    private final List<String> workerNames = new ArrayList<>();

    ScenarioRun(RunningApp app, Scenario scenario, WorkerKind kind, Path workDir) {
        this.app = app;
        this.scenario = scenario;
        this.kind = kind;
        this.workDir = workDir;
        this.namespace = scenario.name().replace('_', '-') + "-" + kind.key();
    }

    void run() throws Exception {
        setUp();
        RunningWorker worker = startWorker();
        if (scenario.stopAfter() > 0) {
            Poll.until(
                    "the first " + scenario.stopAfter() + " units finished",
                    WAIT,
                    this::finishedCount,
                    n -> n >= scenario.stopAfter());
            worker.stop();
            worker = startWorker();
        }
        for (String unit : scenario.cancel()) {
            Poll.until(unit + " pending", WAIT, () -> status(unit), "pending"::equals);
            app.call(
                    namespace,
                    command("cancel_work_units")
                            .put("work_spec_name", scenario.specName())
                            .set("query", Json.object().set("names", Json.MAPPER.valueToTree(List.of(unit))))
                            .toString());
        }
        Map<String, String> expected = expectedStatuses();
        Poll.until("every unit at its expected status " + expected, WAIT, this::statuses, expected::equals);
        RunningWorker.Counters counters = worker.stop();
        new ScenarioCheck(scenario, kind, unitViews(), events(), commands()).verify(counters);
    }

    private void setUp() {
        app.call(
                namespace,
                command("set_work_spec").set("work_spec", scenario.spec()).toString());
        app.call(
                namespace,
                command("add_work_units")
                        .put("work_spec_name", scenario.specName())
                        .set("work_units", scenario.units())
                        .toString());
    }

    private RunningWorker startWorker() throws Exception {
        String name = namespace + "-w" + workerNames.size();
        workerNames.add(name);
        return kind.start(scenario, app.env().bootstrapServers(), namespace, name, workDir);
    }

    private ObjectNode command(String name) {
        return Json.object().put("command", name).put("namespace", namespace);
    }

    private String unitPath(String unit) {
        return "/api/namespaces/" + namespace + "/work-specs/" + scenario.specName() + "/work-units/"
                + KafkaTestClient.encode(unit);
    }

    private String status(String unit) {
        return app.client().get(unitPath(unit)).body().path("status").asText();
    }

    private long finishedCount() {
        return app.client()
                .get("/api/namespaces/" + namespace + "/work-specs/" + scenario.specName())
                .body()
                .path("counts")
                .path("finished")
                .asLong();
    }

    private Map<String, String> expectedStatuses() {
        Map<String, String> expected = new HashMap<>();
        for (String unit : scenario.unitNames()) {
            expected.put(unit, scenario.expectedUnit(unit).path("status").asText());
        }
        return expected;
    }

    private Map<String, String> statuses() {
        Map<String, String> statuses = new HashMap<>();
        JsonNode page = app.client()
                .get("/api/namespaces/" + namespace + "/work-specs/" + scenario.specName() + "/work-units?limit=1000")
                .body();
        page.path("work_units")
                .forEach(unit -> statuses.put(
                        unit.get("name").asText(), unit.get("status").asText()));
        return statuses;
    }

    private Map<String, JsonNode> unitViews() {
        Map<String, JsonNode> views = new HashMap<>();
        for (String unit : scenario.unitNames()) {
            views.put(unit, app.client().get(unitPath(unit)).body());
        }
        return views;
    }

    /**
     * The namespace's events, read until the last worker's deactivation: a stopped worker sends it after its last
     * report, so every event of the scenario is in by then.
     */
    private List<JsonNode> events() {
        String last = workerNames.get(workerNames.size() - 1);
        List<JsonNode> batches = app.client()
                .valuesUntil(
                        "coordinate.events",
                        namespace,
                        read -> flatten(read).stream()
                                .anyMatch(event -> event.path("type").asText().equals("worker_updated")
                                        && event.path("worker").asText().equals(last)
                                        && !event.path("active").asBoolean(true)));
        return flatten(batches);
    }

    private static List<JsonNode> flatten(List<JsonNode> batches) {
        List<JsonNode> events = new ArrayList<>();
        batches.forEach(batch -> batch.path("events").forEach(events::add));
        return events;
    }

    /**
     * The commands the workers sent to the namespace, through the last one's deactivation, each once: a command a
     * client sent to another partition than its namespace's is there twice, as the app forwards it.
     */
    private List<JsonNode> commands() {
        return distinct(app.client()
                .valuesUntil(
                        TopicNames.COMMANDS,
                        namespace,
                        read -> distinct(read).stream()
                                        .filter(command ->
                                                command.path("command").asText().equals("deactivate_worker"))
                                        .count()
                                == workerNames.size()));
    }

    private static List<JsonNode> distinct(List<JsonNode> commands) {
        return new ArrayList<>(new LinkedHashSet<>(commands));
    }
}
