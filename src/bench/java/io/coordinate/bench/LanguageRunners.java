package io.coordinate.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * How to start the conformance runner of a language client (clients/python, clients/node): the interpreter, its
 * command line and environment. When an interpreter or a client's dependencies are missing, {@link #command} fails
 * with one line saying what to install (the README's setup and {@code .ci/run} install them).
 */
public enum LanguageRunners {
    PYTHON,
    NODE;

    /** How long {@code npm ci} of clients/node may take: it downloads a few small packages. */
    private static final int NPM_CI_SECONDS = 300;

    /** The runner's command line, from the project directory {@code projectDir}, before the runner's arguments. */
    public List<String> command(Path projectDir) {
        return switch (this) {
            case PYTHON -> List.of(python(), "-m", "coordinate.conformance");
            case NODE ->
                List.of(
                        node(projectDir),
                        projectDir.resolve("clients/node/bin/conformance.js").toString());
        };
    }

    /** The environment the runner needs on top of this process's. */
    public Map<String, String> environment(Path projectDir) {
        return this == PYTHON
                ? Map.of("PYTHONPATH", projectDir.resolve("clients/python").toString())
                : Map.of();
    }

    /** The runner's arguments, as clients/conformance/README.md gives them. */
    public static List<String> arguments(
            String bootstrapServers,
            String namespace,
            String spec,
            int concurrency,
            double leaseSeconds,
            String name,
            double maxBackoffSeconds,
            boolean noop) {
        List<String> args = new ArrayList<>(List.of(
                "--bootstrap-servers",
                bootstrapServers,
                "--namespace",
                namespace,
                "--spec",
                spec,
                "--concurrency",
                String.valueOf(concurrency),
                "--lease-seconds",
                String.valueOf(leaseSeconds),
                "--name",
                name,
                "--max-backoff-seconds",
                String.valueOf(maxBackoffSeconds)));
        if (noop) {
            args.add("--noop");
        }
        return args;
    }

    /** The first of {@code $COORDINATE_PYTHON}, /usr/bin/python3 and python3 that can import confluent_kafka. */
    public static String python() {
        List<String> candidates = new ArrayList<>();
        String chosen = System.getenv("COORDINATE_PYTHON");
        if (chosen != null && !chosen.isBlank()) {
            candidates.add(chosen);
        }
        candidates.addAll(List.of("/usr/bin/python3", "python3"));
        for (String candidate : candidates) {
            if (succeeds(candidate, "-c", "import confluent_kafka")) {
                return candidate;
            }
        }
        throw new IllegalStateException("no Python 3 that can import confluent_kafka (tried " + candidates
                + "): apt-get install python3-confluent-kafka python3-pytest, or set COORDINATE_PYTHON");
    }

    /**
     * {@code node}, once clients/node's dependencies are installed: a fresh clone has none, and {@code npm ci} (from
     * the committed lockfile, as the README's setup runs it) installs them here, so that {@code mvn verify} needs no
     * step of its own for them.
     */
    public static synchronized String node(Path projectDir) {
        if (!succeeds("node", "--version")) {
            throw new IllegalStateException("no node on the PATH: install Node.js 20 or later");
        }
        Path client = projectDir.resolve("clients/node");
        if (!Files.isDirectory(client.resolve("node_modules"))
                && !succeeds(NPM_CI_SECONDS, "npm", "ci", "--prefix", client.toString())) {
            throw new IllegalStateException(
                    "clients/node has no node_modules and npm ci failed: run npm ci --prefix clients/node (Node.js 20 "
                            + "or later, the npm registry reachable)");
        }
        return "node";
    }

    /** Whether {@code command} runs and exits 0 within 30 s. */
    public static boolean succeeds(String... command) {
        return succeeds(30, command);
    }

    /** Whether {@code command} runs and exits 0 within {@code seconds}. */
    private static boolean succeeds(int seconds, String... command) {
        try {
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return false;
            }
            return process.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
