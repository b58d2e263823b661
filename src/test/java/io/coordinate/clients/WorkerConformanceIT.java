package io.coordinate.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.coordinate.testing.RunningApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The conformance suite (clients/conformance): every scenario against every kind of worker, on one broker and app.
 * The scenarios of one kind run at once, each in a namespace of its own, so that the suite takes the time of its
 * longest scenario per kind. While working on a runner, {@code -Dconformance.scenarios=progress,cancel_hanging} and
 * {@code -Dconformance.workers=python} run only those.
 */
class WorkerConformanceIT {

    @TempDir
    static Path dataDir;

    private static RunningApp app;

    @BeforeAll
    static void start() throws Exception {
        app = RunningApp.start(dataDir.resolve("app"));
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    @ParameterizedTest
    @EnumSource(WorkerKind.class)
    void everyScenarioHoldsFor(WorkerKind kind) throws Exception {
        assumeTrue(selected("conformance.workers", kind.key()), "not among -Dconformance.workers");
        kind.requireRuntime();
        Path workDir = Files.createDirectories(dataDir.resolve(kind.key()));
        List<Scenario> scenarios = Scenario.all().stream()
                .filter(scenario -> selected("conformance.scenarios", scenario.name()))
                .toList();
        assertThat(scenarios).as("scenarios in " + Scenario.DIRECTORY).isNotEmpty();
        ExecutorService pool = Executors.newFixedThreadPool(scenarios.size());
        List<String> failures = new ArrayList<>();
        try {
            List<Future<?>> runs = new ArrayList<>();
            for (Scenario scenario : scenarios) {
                runs.add(
                        scenario.skipReason(kind) == null
                                ? pool.submit(() -> {
                                    new ScenarioRun(app, scenario, kind, workDir).run();
                                    return null;
                                })
                                : null);
            }
            for (int i = 0; i < scenarios.size(); i++) {
                if (runs.get(i) == null) {
                    continue;
                }
                try {
                    runs.get(i).get();
                } catch (java.util.concurrent.ExecutionException e) {
                    failures.add(scenarios.get(i).name() + ": " + e.getCause().getMessage());
                }
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(failures).as(kind.key() + " worker").isEmpty();
    }

    /** Whether the comma list of system property {@code property} names {@code name}; all when it is not set. */
    private static boolean selected(String property, String name) {
        String names = System.getProperty(property, "");
        return names.isBlank() || List.of(names.split(",")).contains(name);
    }
}
