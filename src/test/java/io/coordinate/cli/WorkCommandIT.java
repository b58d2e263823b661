package io.coordinate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.client.CoordinateClient;
import io.coordinate.client.WorkSpec;
import io.coordinate.client.WorkUnit;
import io.coordinate.testing.CliClassPath;
import io.coordinate.testing.EventLedger;
import io.coordinate.testing.Poll;
import io.coordinate.testing.RunningApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
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

    private static int work(String ns, String spec, String exec) {
        return CoordinateCli.commandLine()
                .execute(
                        "work",
                        "--bootstrap-servers",
                        app.env().bootstrapServers(),
                        "--http-url",
                        "http://127.0.0.1:" + app.env().httpPort(),
                        "--namespace",
                        ns,
                        "--spec",
                        spec,
                        "--exec",
                        exec,
                        "--concurrency",
                        "4",
                        "--until-idle");
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
    }

    @Test
    void aWorkerStoppedWithItsProcessGroupGivesBackAndFailsNothing() throws Exception {
        // SIGTERM to the whole process group, as systemd, supervisord's stopasgroup or Ctrl-C send it: the running
        // commands die with the JVM's stop; their units must come back, and a second worker finish every unit once.
        String ns = "work-stop";
        int units = 120;
        addUnits(ns, "s", units);
        Set<EventLedger.UnitKey> expected = new HashSet<>();
        for (int i = 0; i < units; i++) {
            expected.add(new EventLedger.UnitKey(ns, "s", "u" + i));
        }
        try (EventLedger ledger = new EventLedger(app.env().bootstrapServers(), Set.of(ns), Set.of())) {
            Path log = dataDir.resolve("work-stop.log");
            // setsid: the worker leads a process group of its own, which the kill below signals whole.
            Process worker = new ProcessBuilder(
                            "setsid",
                            Path.of(System.getProperty("java.home"), "bin", "java")
                                    .toString(),
                            "-XX:TieredStopAtLevel=1",
                            "-cp",
                            CliClassPath.of(false),
                            CoordinateCli.class.getName(),
                            "work",
                            "--bootstrap-servers",
                            app.env().bootstrapServers(),
                            "--http-url",
                            "http://127.0.0.1:" + app.env().httpPort(),
                            "--namespace",
                            ns,
                            "--spec",
                            "s",
                            "--exec",
                            "sleep 0.2",
                            "--concurrency",
                            "8")
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
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
            assertThat(new ProcessBuilder("kill", "-TERM", "--", "-" + worker.pid())
                            .start()
                            .waitFor())
                    .isEqualTo(0);
            assertThat(worker.waitFor(60, TimeUnit.SECONDS))
                    .as("the worker stopped")
                    .isTrue();
            String stopped = Files.readString(log)
                    .lines()
                    .filter(line -> line.startsWith("stopped: "))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no 'stopped:' line in " + log));
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
}
