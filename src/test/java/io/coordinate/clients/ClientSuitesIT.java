package io.coordinate.clients;

import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.bench.LanguageRunners;
import io.coordinate.testing.RunningApp;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Python and Node clients' own test suites (pytest, node's test runner) against a real broker and app, given to
 * them in {@code COORDINATE_BOOTSTRAP_SERVERS} and {@code COORDINATE_HTTP_URL}. A suite that fails fails this test
 * with its output.
 */
class ClientSuitesIT {

    private static final long SUITE_MINUTES = 5;

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

    @Test
    void thePythonClientsTestsPass() throws Exception {
        String python = LanguageRunners.python();
        if (!LanguageRunners.succeeds(python, "-c", "import pytest")) {
            throw new IllegalStateException(
                    python + " cannot import pytest: apt-get install python3-pytest (or pip install pytest)");
        }
        runSuite(
                "pytest",
                Path.of(""),
                List.of(python, "-m", "pytest", "clients/python/tests", "-q"),
                LanguageRunners.PYTHON.environment(WorkerKind.projectDir()));
    }

    @Test
    void theNodeClientsTestsPass() throws Exception {
        String node = LanguageRunners.node(WorkerKind.projectDir());
        runSuite("node --test", Path.of("clients", "node"), List.of(node, "--test"), Map.of());
    }

    private static void runSuite(String name, Path directory, List<String> command, Map<String, String> environment)
            throws Exception {
        Path output = dataDir.resolve(name.replace(' ', '-') + ".log");
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(directory.toAbsolutePath().toFile())
                .redirectErrorStream(true)
                .redirectOutput(output.toFile());
        builder.environment().putAll(environment);
        builder.environment()
                .putAll(Map.of(
                        "COORDINATE_BOOTSTRAP_SERVERS",
                        app.env().bootstrapServers(),
                        "COORDINATE_HTTP_URL",
                        "http://127.0.0.1:" + app.env().httpPort()));
        Process process = builder.start();
        if (!process.waitFor(SUITE_MINUTES, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError(name + " did not end within " + SUITE_MINUTES + " minutes:\n" + read(output));
        }
        assertThat(process.exitValue())
                .as(name + " exited with " + process.exitValue() + ":\n" + read(output))
                .isEqualTo(0);
    }

    private static String read(Path output) throws IOException {
        return Files.readString(output);
    }
}
