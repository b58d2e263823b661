package io.coordinate.fault;

import io.coordinate.testing.CliClassPath;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The app ({@code coordinate run}) in a JVM of its own, started as {@code bin/coordinate} starts it (this build's
 * classes and runtime class path, {@code io.coordinate.cli.CoordinateCli}), so that a test can kill it with
 * SIGKILL ({@link #kill}) as a crash would. Ready once it prints its READY line; its logs go to a file, appended
 * across restarts on the same data dir.
 */
final class AppJvm implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AppJvm.class);
    static final Duration READY_TIMEOUT = Duration.ofSeconds(150);
    private static final Pattern READY = Pattern.compile("^READY bootstrap=\\S+ http=http://[^:/\\s]+:(\\d+)$");

    private final Process process;
    private final int httpPort;
    private final Path log;

    private AppJvm(Process process, int httpPort, Path log) {
        this.process = process;
        this.httpPort = httpPort;
        this.log = log;
    }

    /**
     * Starts {@code coordinate run} on {@code dataDir} as {@code instanceId} and waits for READY. {@code extraArgs}
     * go after the usual ones.
     */
    static AppJvm start(String bootstrapServers, Path dataDir, String instanceId, String... extraArgs)
            throws IOException, InterruptedException {
        return start(bootstrapServers, dataDir, instanceId, 0, extraArgs);
    }

    /** As {@link #start(String, Path, String, String...)}, serving HTTP on {@code httpPort} (0: any free port). */
    static AppJvm start(String bootstrapServers, Path dataDir, String instanceId, int httpPort, String... extraArgs)
            throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of(
                "run",
                "--bootstrap-servers",
                bootstrapServers,
                "--data-dir",
                dataDir.toString(),
                "--http-port",
                Integer.toString(httpPort),
                "--instance-id",
                instanceId));
        args.addAll(List.of(extraArgs));
        return launch(dataDir, instanceId, args, CliClassPath.of(false));
    }

    /**
     * Starts {@code coordinate dev} (its embedded broker on {@code kafkaPort}, and the app, in one JVM) on
     * {@code dataDir} and waits for READY: a kill then takes the broker down with the app.
     */
    static AppJvm startDev(int kafkaPort, Path dataDir, String instanceId) throws IOException, InterruptedException {
        return launch(
                dataDir,
                instanceId,
                List.of(
                        "dev",
                        "--kafka-port",
                        Integer.toString(kafkaPort),
                        "--data-dir",
                        dataDir.toString(),
                        "--http-port",
                        "0",
                        "--instance-id",
                        instanceId),
                CliClassPath.of(true));
    }

    private static AppJvm launch(Path dataDir, String instanceId, List<String> args, String classPath)
            throws IOException, InterruptedException {
        Files.createDirectories(dataDir);
        Path log = dataDir.resolve("app.log");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                // Small heap and few compiler threads: several JVMs share two cores in CI.
                "-Xmx512m",
                "-XX:TieredStopAtLevel=1",
                "-XX:CICompilerCount=2",
                "-cp",
                classPath,
                "io.coordinate.cli.CoordinateCli"));
        command.addAll(args);
        Process process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        CompletableFuture<Integer> ready = new CompletableFuture<>();
        Thread reader = new Thread(
                () -> {
                    // Reads stdout to its end, so that the child never blocks on a full pipe.
                    try (BufferedReader out = new BufferedReader(
                            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                        String line;
                        while ((line = out.readLine()) != null) {
                            Matcher m = READY.matcher(line.strip());
                            if (m.matches()) {
                                ready.complete(Integer.parseInt(m.group(1)));
                            }
                        }
                    } catch (IOException e) {
                        LOG.debug("app stdout closed", e);
                    }
                    ready.completeExceptionally(
                            new IllegalStateException("the app's stdout ended without a READY line"));
                },
                "fault-app-stdout");
        reader.setDaemon(true);
        reader.start();
        try {
            int port = ready.get(READY_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            LOG.info("app {} ready (pid {}, http {})", instanceId, process.pid(), port);
            return new AppJvm(process, port, log);
        } catch (ExecutionException | TimeoutException e) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new IllegalStateException(
                    "app " + instanceId + " not ready: " + e + "; last lines of " + log + ":\n" + tail(log, 40), e);
        }
    }

    int httpPort() {
        return httpPort;
    }

    long pid() {
        return process.pid();
    }

    Path log() {
        return log;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** SIGKILL, as a crash: no shutdown hook, no commit, no leaving the group. Returns once the process is gone. */
    void kill() throws InterruptedException {
        LOG.info("kill -9 of the app (pid {})", process.pid());
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the app (pid " + process.pid() + ") survived SIGKILL for 30 s");
        }
    }

    /** SIGTERM: the app's shutdown hook stops it cleanly; killed if that takes over a minute. */
    @Override
    public void close() {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    static String tail(Path file, int lines) {
        try {
            List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(cannot read " + file + ")";
        }
    }
}
