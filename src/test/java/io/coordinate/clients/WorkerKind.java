package io.coordinate.clients;

import io.coordinate.bench.LanguageRunners;
import io.coordinate.cli.CoordinateCli;
import io.coordinate.testing.CliClassPath;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The workers the conformance suite runs every scenario against, and how each is started for one scenario. */
enum WorkerKind {
    JAVA,
    SHELL,
    PYTHON,
    NODE;

    /** The kind's name in scenarios' {@code skip}: java, shell, python, node. */
    String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Fails with one line saying what to install when this kind's interpreter or dependencies are missing. */
    void requireRuntime() {
        switch (this) {
            case PYTHON -> LanguageRunners.python();
            case NODE -> LanguageRunners.node(projectDir());
            default -> {}
        }
    }

    /** Starts a worker of this kind on the scenario's spec in {@code namespace}, named {@code name}. */
    RunningWorker start(Scenario scenario, String bootstrapServers, String namespace, String name, Path workDir)
            throws IOException {
        if (this == JAVA) {
            return JavaWorker.start(scenario, bootstrapServers, namespace, name);
        }
        List<String> command = new ArrayList<>();
        Map<String, String> environment;
        if (this == SHELL) {
            Path counters = Files.createDirectories(workDir.resolve(name + "-runs"));
            command.addAll(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-XX:TieredStopAtLevel=1",
                    "-cp",
                    CliClassPath.of(false),
                    CoordinateCli.class.getName(),
                    "work",
                    "--bootstrap-servers",
                    bootstrapServers,
                    "--namespace",
                    namespace,
                    "--spec",
                    scenario.specName(),
                    "--exec",
                    "sh " + projectDir().resolve("clients/conformance/shell-handler.sh"),
                    "--permanent-exit-codes",
                    "3",
                    "--grace",
                    "1",
                    "--concurrency",
                    String.valueOf(scenario.concurrency()),
                    "--lease",
                    String.valueOf(scenario.leaseSeconds()),
                    "--max-backoff",
                    String.valueOf(scenario.maxBackoffSeconds()),
                    "--name",
                    name));
            environment = Map.of("COORDINATE_CONFORMANCE_DIR", counters.toString());
        } else {
            LanguageRunners language = this == PYTHON ? LanguageRunners.PYTHON : LanguageRunners.NODE;
            command.addAll(language.command(projectDir()));
            command.addAll(LanguageRunners.arguments(
                    bootstrapServers,
                    namespace,
                    scenario.specName(),
                    scenario.concurrency(),
                    scenario.leaseSeconds(),
                    name,
                    scenario.maxBackoffSeconds(),
                    false));
            environment = language.environment(projectDir());
        }
        return RunnerProcess.start(this, command, environment, workDir.resolve(name + ".log"));
    }

    static Path projectDir() {
        return Path.of("").toAbsolutePath();
    }
}
