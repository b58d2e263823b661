package io.coordinate.cli;

import static io.coordinate.testing.SentCommands.has;
import static io.coordinate.testing.SentCommands.ofAttempt;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.client.CoordinateClient;
import io.coordinate.client.WorkSpec;
import io.coordinate.client.WorkUnit;
import io.coordinate.client.Worker;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.Times;
import io.coordinate.protocol.TopicNames;
import io.coordinate.testing.CliClassPath;
import io.coordinate.testing.EventLedger;
import io.coordinate.testing.KafkaTestClient;
import io.coordinate.testing.Poll;
import io.coordinate.testing.RunningApp;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code coordinate work --until-idle} against a real broker and app, run as the CLI runs it. */
class WorkCommandIT {

    @TempDir
    static Path dataDir;

    private static RunningApp app;

    @BeforeAll
    static void start() throws Exception {
        app = RunningApp.start(dataDir);
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    private static int work(String ns, String spec, String exec, String... more) {
        List<String> args = workArgs(ns, spec);
        args.addAll(List.of("--exec", exec, "--concurrency", "4", "--until-idle"));
        args.addAll(List.of(more));
        return CoordinateCli.commandLine().execute(args.toArray(String[]::new));
    }

    /** {@code work} and where: the app, the namespace and the spec. */
    private static List<String> workArgs(String ns, String spec) {
        return new ArrayList<>(List.of(
                "work",
                "--bootstrap-servers",
                app.env().bootstrapServers(),
                "--http-url",
                "http://127.0.0.1:" + app.env().httpPort(),
                "--namespace",
                ns,
                "--spec",
                spec));
    }

    private static List<JsonNode> commandsOf(String ns, Predicate<List<JsonNode>> done) {
        return app.client().valuesUntil(TopicNames.COMMANDS, ns, done);
    }

    private static String attemptOf(String ns, String unit) {
        return app.client()
                .get("/api/namespaces/" + ns + "/work-specs/s/work-units/" + unit)
                .body()
                .at("/attempts/0/attempt_id")
                .asText();
    }

    private static void addUnits(String ns, String spec, int n) {
        try (CoordinateClient client = CoordinateClient.builder()
                .bootstrapServers(app.env().bootstrapServers())
                .namespace(ns)
                .build()) {
            client.setWorkSpec(WorkSpec.named(spec).build()).join();
            List<WorkUnit> units = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                units.add(WorkUnit.named("u" + i).data(Map.of("n", i)).build());
            }
            client.addWorkUnits(spec, units).join();
        }
    }

    @Test
    void finishesEveryUnitWithTheCommandsOutputThenExits() {
        addUnits("work-ok", "s", 20);
        assertThat(work("work-ok", "s", "cat; echo \" $COORDINATE_UNIT\"")).isEqualTo(ExitCodes.OK);
        assertThat(app.client()
                        .get("/api/namespaces/work-ok/work-specs/s")
                        .body()
                        .get("counts")
                        .toString())
                .isEqualTo("{\"finished\":20}");
        assertThat(app.client()
                        .get("/api/namespaces/work-ok/work-specs/s/work-units/u7")
                        .body()
                        .get("data")
                        .toString())
                .isEqualTo("{\"stdout\":\"{\\\"n\\\":7} u7\\n\"}");
    }

    @Test
    void aFailingCommandFailsItsUnitWithStderr() {
        addUnits("work-fail", "s", 3);
        assertThat(work("work-fail", "s", "echo \"no $COORDINATE_UNIT\" >&2; exit 2"))
                .isEqualTo(ExitCodes.OK);
        assertThat(app.client()
                        .get("/api/namespaces/work-fail/work-specs/s")
                        .body()
                        .get("counts")
                        .toString())
                .isEqualTo("{\"failed\":3}");
        assertThat(app.client()
                        .get("/api/namespaces/work-fail/work-specs/s/work-units/u1")
                        .body()
                        .get("data")
                        .toString())
                .isEqualTo("{\"traceback\":\"exit status 2\\nno u1\\n\",\"exit_status\":2}");
        String attemptId = attemptOf("work-fail", "u1");
        assertThat(ofAttempt(commandsOf("work-fail", has("deactivate_worker")), "fail_attempt", attemptId))
                .as("without a retry policy on the spec the app fails it for good, but the worker says retryable")
                .containsExactly("{\"command\":\"fail_attempt\",\"attempt_id\":\"" + attemptId + "\",\"data\":"
                        + "{\"traceback\":\"exit status 2\\nno u1\\n\",\"exit_status\":2},\"retryable\":true}");
    }

    @Test
    void anExitStatusOfPermanentExitCodesFailsForGood() {
        addUnits("work-permanent", "s", 1);
        assertThat(work("work-permanent", "s", "exit 64", "--permanent-exit-codes", "2,64"))
                .isEqualTo(ExitCodes.OK);
        String attemptId = attemptOf("work-permanent", "u0");
        assertThat(ofAttempt(commandsOf("work-permanent", has("deactivate_worker")), "fail_attempt", attemptId))
                .containsExactly("{\"command\":\"fail_attempt\",\"attempt_id\":\"" + attemptId + "\",\"data\":"
                        + "{\"traceback\":\"exit status 64\\n\",\"exit_status\":64}}");
    }

    @Test
    void whatTheCommandWritesToItsProgressFileGoesOutAsProgress() {
        addUnits("work-progress", "s", 1);
        assertThat(work("work-progress", "s", "echo '0.5 half of it' > \"$COORDINATE_PROGRESS_FILE\"; sleep 1.5"))
                .isEqualTo(ExitCodes.OK);
        String attemptId = attemptOf("work-progress", "u0");
        assertThat(ofAttempt(commandsOf("work-progress", has("deactivate_worker")), "renew_attempt", attemptId))
                .containsExactly("{\"command\":\"renew_attempt\",\"attempt_id\":\"" + attemptId
                        + "\",\"extend\":30.0,\"progress\":{\"fraction\":0.5,\"message\":\"half of it\"}}");
    }

    @Test
    void aCancelledCommandIsTerminatedAndItsAttemptReportsNothing() throws Exception {
        String ns = "work-cancel";
        addUnits(ns, "s", 1);
        Path log = dataDir.resolve("work-cancel.log");
        Path started = dataDir.resolve("work-cancel.started");
        try (CoordinateClient client = CoordinateClient.builder()
                        .bootstrapServers(app.env().bootstrapServers())
                        .namespace(ns)
                        .build();
                Worker worker = Worker.builder(client)
                        .name("wc")
                        .handler(new ShellHandler(
                                "trap 'echo terminated >> " + log + "; exit 143' TERM; touch " + started
                                        + "; sleep 60 & wait",
                                ns,
                                new ShellHandler.Settings(null, Duration.ofSeconds(5), Set.of())))
                        .build()
                        .start()) {
            Poll.until("the command started", Duration.ofSeconds(60), () -> Files.exists(started), b -> b);
            String attemptId = attemptOf(ns, "u0");
            app.client()
                    .send(
                            TopicNames.ASSIGNMENTS,
                            "wc",
                            "{\"namespace\":\"" + ns + "\",\"worker\":\"wc\",\"cancelled\":[\"" + attemptId + "\"]}");
            Poll.until("the command got SIGTERM", Duration.ofSeconds(60), () -> Files.exists(log), b -> b);
            worker.close();
            assertThat(Files.readString(log)).isEqualTo("terminated\n");
            List<JsonNode> commands = commandsOf(ns, has("deactivate_worker"));
            for (String name : List.of("finish_attempt", "fail_attempt", "retry_attempt")) {
                assertThat(ofAttempt(commands, name, attemptId)).as(name).isEmpty();
            }
            assertThat(commands.stream().map(command -> command.path("command").asText()))
                    .doesNotContain("finish_attempts");
            assertThat(worker.failed() + worker.retried() + worker.finished()).isEqualTo(0);
        }
    }

    /**
     * Starts {@code coordinate work} in a JVM of its own, leading a process group of its own (setsid), which
     * {@link #stopGroup} signals whole, as systemd, supervisord's stopasgroup or Ctrl-C do.
     */
    private static Process spawnWorker(String ns, Path log, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                "setsid",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1",
                "-cp",
                CliClassPath.of(false),
                CoordinateCli.class.getName()));
        command.addAll(workArgs(ns, "s"));
        command.addAll(List.of(args));
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
    }

    /** SIGTERM to the worker's process group; answers its last line, {@code stopped: ...}. */
    private static String stopGroup(Process worker, Path log) throws Exception {
        assertThat(new ProcessBuilder("kill", "-TERM", "--", "-" + worker.pid())
                        .start()
                        .waitFor())
                .isEqualTo(0);
        assertThat(worker.waitFor(60, TimeUnit.SECONDS))
                .as("the worker stopped")
                .isTrue();
        return Files.readString(log)
                .lines()
                .filter(line -> line.startsWith("stopped: "))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no 'stopped:' line in " + log));
    }

    @Test
    void aStoppedWorkerTerminatesTheCommandsLeftAfterTheGraceAndReleasesTheirUnits() throws Exception {
        String ns = "work-stop-release";
        addUnits(ns, "s", 2);
        Path log = dataDir.resolve("work-stop-release.log");
        Path terminated = dataDir.resolve("work-stop-release.terminated");
        Path started = dataDir.resolve("work-stop-release.started");
        // The commands lead process groups of their own: only the worker's termination after the grace reaches them.
        Process worker = spawnWorker(
                ns,
                log,
                "--exec",
                "trap 'echo $COORDINATE_UNIT >> " + terminated + "; exit 143' TERM; echo $COORDINATE_UNIT >> " + started
                        + "; sleep 60 & wait",
                "--concurrency",
                "2",
                "--grace",
                "1");
        Poll.until("both commands started", Duration.ofSeconds(60), () -> lines(started), l -> l.size() == 2);
        assertThat(stopGroup(worker, log)).isEqualTo("stopped: 0 finished, 0 failed, 2 given back");
        assertThat(lines(terminated)).containsExactlyInAnyOrder("u0", "u1");
        List<JsonNode> commands = commandsOf(ns, has("deactivate_worker"));
        for (String unit : List.of("u0", "u1")) {
            String attemptId = attemptOf(ns, unit);
            assertThat(ofAttempt(commands, "retry_attempt", attemptId))
                    .containsExactly("{\"command\":\"retry_attempt\",\"attempt_id\":\"" + attemptId
                            + "\",\"data\":{\"traceback\":\"the worker stopped while it ran\"},\"delay\":0.0,"
                            + "\"release\":true}");
            assertThat(ofAttempt(commands, "fail_attempt", attemptId)).isEmpty();
        }
    }

    private static List<String> lines(Path file) {
        try {
            return Files.exists(file) ? Files.readAllLines(file) : List.of();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void aWorkerStoppedWithItsProcessGroupGivesBackAndFailsNothing() throws Exception {
        // SIGTERM to the whole process group, as systemd, supervisord's stopasgroup or Ctrl-C send it: the running
        // commands end or are given back, none fails, and a second worker finishes every unit once.
        String ns = "work-stop";
        int units = 120;
        addUnits(ns, "s", units);
        Set<EventLedger.UnitKey> expected = new HashSet<>();
        for (int i = 0; i < units; i++) {
            expected.add(new EventLedger.UnitKey(ns, "s", "u" + i));
        }
        try (EventLedger ledger = new EventLedger(app.env().bootstrapServers(), Set.of(ns), Set.of())) {
            Path log = dataDir.resolve("work-stop.log");
            Process worker = spawnWorker(ns, log, "--exec", "sleep 0.2", "--concurrency", "8");
            Poll.until(
                    "a first part finished",
                    Duration.ofSeconds(60),
                    () -> app.client()
                            .get("/api/namespaces/" + ns + "/work-specs/s")
                            .body()
                            .path("counts")
                            .path("finished")
                            .asLong(),
                    n -> n >= 16);
            String stopped = stopGroup(worker, log);
            assertThat(stopped).matches("stopped: \\d+ finished, 0 failed, \\d+ given back");

            assertThat(work(ns, "s", "sleep 0.2")).isEqualTo(ExitCodes.OK);
            ledger.awaitUntil("every unit finished", Duration.ofSeconds(60), l -> l.finishedCount() == units);
            assertThat(ledger.unfinished(expected)).isEmpty();
            assertThat(ledger.violations()).isEmpty();
            for (EventLedger.UnitKey key : expected) {
                assertThat(ledger.unitOf(key).finishedTransitions)
                        .as("finishes of %s", key)
                        .isEqualTo(1);
            }
            assertThat(app.client()
                            .get("/api/namespaces/" + ns + "/work-specs/s")
                            .body()
                            .get("counts")
                            .toString())
                    .isEqualTo("{\"finished\":" + units + "}");
        }
    }

    // A spec's retry policy with the shell worker, as a new user tries it (docs/reference.md#retries): a command that
    // fails twice per unit and then works, and one that always fails, each spec with max_attempts 4 and an exponential
    // backoff from 1 s. The delays are read from the events, on the engine's clock.

    private static final String RETRY =
            "{\"max_attempts\":4,\"backoff\":\"exponential\",\"initial_delay\":1,\"multiplier\":2}";

    /** What the events say of one unit: its attempts' start times, its failures' retry times, its last status. */
    private static final class UnitStory {
        final List<Long> starts = new ArrayList<>();
        final List<Long> failedAt = new ArrayList<>();
        final List<Long> retryAt = new ArrayList<>();
        final List<JsonNode> exhausted = new ArrayList<>();
        String status;
    }

    @Test
    void aCommandThatFailsTwiceFinishesOnItsThirdAttemptAfterDelaysOfOneAndTwoSeconds() throws Exception {
        String ns = "retry-flaky";
        addRetriedSpecAndUnits(ns, 4);
        Path counts = Files.createDirectories(dataDir.resolve("counts"));
        String exec = "f=" + counts + "/$COORDINATE_UNIT; n=$(cat $f 2>/dev/null || echo 0); n=$((n+1)); echo $n > $f; "
                + "[ $n -ge 3 ] || { echo \"boom on run $n\" >&2; exit 1; }";
        assertThat(work(ns, "s", exec)).isEqualTo(ExitCodes.OK);

        Map<String, UnitStory> stories = stories(ns, 4, "finished");
        for (Map.Entry<String, UnitStory> entry : stories.entrySet()) {
            UnitStory story = entry.getValue();
            assertThat(story.status).as(entry.getKey()).isEqualTo("finished");
            assertThat(story.starts).as(entry.getKey()).hasSize(3);
            assertDelays(entry.getKey(), story, List.of(1000L, 2000L));
            assertThat(story.exhausted).isEmpty();
        }
        JsonNode unit = app.client()
                .get("/api/namespaces/" + ns + "/work-specs/s/work-units/u1")
                .body();
        assertThat(unit.get("status").asText()).isEqualTo("finished");
        assertThat(unit.get("attempt_count").asInt()).isEqualTo(3);
        assertThat(unit.get("last_error").isNull()).isTrue();
        assertThat(unit.get("attempts")).hasSize(3);
        assertThat(unit.get("attempts").get(1).get("data").get("traceback").asText())
                .isEqualTo("exit status 1\nboom on run 2\n");
    }

    @Test
    void aCommandThatAlwaysFailsFailsItsUnitsAfterExactlyFourAttempts() {
        String ns = "retry-broken";
        addRetriedSpecAndUnits(ns, 3);
        assertThat(work(ns, "s", "echo \"always broken\" >&2; exit 1")).isEqualTo(ExitCodes.OK);

        Map<String, UnitStory> stories = stories(ns, 3, "failed");
        for (Map.Entry<String, UnitStory> entry : stories.entrySet()) {
            UnitStory story = entry.getValue();
            assertThat(story.status).as(entry.getKey()).isEqualTo("failed");
            assertThat(story.starts).as(entry.getKey()).hasSize(4);
            assertDelays(entry.getKey(), story, List.of(1000L, 2000L, 4000L));
            assertThat(story.exhausted).hasSize(1);
            assertThat(story.exhausted.get(0).get("attempt_count").asInt()).isEqualTo(4);
            assertThat(story.exhausted.get(0).get("max_attempts").asInt()).isEqualTo(4);
        }
        JsonNode unit = app.client()
                .get("/api/namespaces/" + ns + "/work-specs/s/work-units/u0")
                .body();
        assertThat(unit.get("status").asText()).isEqualTo("failed");
        assertThat(unit.get("attempt_count").asInt()).isEqualTo(4);
        assertThat(unit.get("last_error").asText()).isEqualTo("exit status 1\nalways broken\n");
        assertThat(unit.get("attempts")).hasSize(4);
    }

    /** Each retry is due exactly its backoff after its failure, and the next attempt starts no sooner. */
    private static void assertDelays(String unit, UnitStory story, List<Long> delays) {
        assertThat(story.retryAt).as("retries of %s", unit).hasSize(delays.size());
        for (int i = 0; i < delays.size(); i++) {
            assertThat(story.retryAt.get(i) - story.failedAt.get(i))
                    .as("delay %d of %s", i + 1, unit)
                    .isEqualTo(delays.get(i));
            assertThat(story.starts.get(i + 1))
                    .as("start %d of %s", i + 2, unit)
                    .isGreaterThanOrEqualTo(story.retryAt.get(i));
        }
    }

    private static void addRetriedSpecAndUnits(String ns, int units) {
        app.call(
                ns,
                "{\"command\":\"set_work_spec\",\"namespace\":\"" + ns + "\",\"work_spec\":{\"name\":\"s\",\"retry\":"
                        + RETRY + "}}");
        StringBuilder list = new StringBuilder();
        for (int i = 0; i < units; i++) {
            list.append(i == 0 ? "" : ",").append("{\"name\":\"u").append(i).append("\"}");
        }
        app.call(
                ns,
                "{\"command\":\"add_work_units\",\"namespace\":\"" + ns + "\",\"work_spec_name\":\"s\","
                        + "\"work_units\":[" + list + "]}");
    }

    /** The namespace's events, read until {@code units} units reached {@code last}, told per unit. */
    private static Map<String, UnitStory> stories(String ns, int units, String last) {
        List<ConsumerRecord<byte[], byte[]>> records = app.client()
                .readUntil(
                        "coordinate.events",
                        read -> tell(ns, read).values().stream()
                                        .filter(s -> last.equals(s.status))
                                        .count()
                                == units);
        return tell(ns, records);
    }

    private static Map<String, UnitStory> tell(String ns, List<ConsumerRecord<byte[], byte[]>> records) {
        Map<String, UnitStory> stories = new LinkedHashMap<>();
        for (ConsumerRecord<byte[], byte[]> record : records) {
            if (!ns.equals(KafkaTestClient.keyOf(record))) {
                continue;
            }
            JsonNode batch = Json.parse(new String(record.value(), StandardCharsets.UTF_8));
            long time = Times.parse(batch.get("time").asText());
            for (JsonNode event : batch.get("events")) {
                String unit = event.path("work_unit_name").asText(null);
                if (unit == null) {
                    continue;
                }
                UnitStory story = stories.computeIfAbsent(unit, u -> new UnitStory());
                switch (event.get("type").asText()) {
                    case "attempt_started" -> story.starts.add(time);
                    case "attempt_failed" -> {
                        // a failure the policy retries; the last one, past max_attempts, is "failed"
                        if (event.get("status").asText().equals("retryable")) {
                            story.failedAt.add(time);
                            story.retryAt.add(Times.parse(event.get("retry_at").asText()));
                        }
                    }
                    case "unit_retries_exhausted" -> story.exhausted.add(event);
                    case "unit_status_changed" ->
                        story.status = event.get("status").asText();
                    default -> {}
                }
            }
        }
        return stories;
    }
}
