package io.coordinate.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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
 * The app alone in a JVM of its own ({@code coordinate run}), so that its memory can be measured without the
 * broker and the load generator: started with this JVM's java and class path, ready once it prints its READY line
 * on stdout; its stderr (the logs) goes to a file. {@link #close} sends SIGTERM, so that it stops as in production
 * (the shutdown hook closes Kafka Streams), and kills it if it has not stopped after {@link #STOP_SECONDS}.
 */
final class AppProcess implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AppProcess.class);
    static final long READY_SECONDS = 180;
    static final long STOP_SECONDS = 60;
    private static final Pattern READY = Pattern.compile("^READY bootstrap=\\S+ http=http://[^:/\\s]+:(\\d+)$");

    private final Process process;
    private final Path log;
    private final int httpPort;

    private AppProcess(Process process, Path log, int httpPort) {
        this.process = process;
        this.log = log;
        this.httpPort = httpPort;
    }

    /**
     * The JVM options this JVM passes on to the app: the one {@code bin/coordinate} gives every run of the app, and its
     * opposite from JAVA_OPTS (passed in the same order, so the app ends up as this JVM: the last one counts).
     */
    static final List<String> INHERITED_JVM_OPTIONS =
            List.of("-XX:+UseTransparentHugePages", "-XX:-UseTransparentHugePages");

    /**
     * The command line of the app alone: {@code java <jvmOptions> -Xmx<heap> -cp <classPath>
     * io.coordinate.cli.CoordinateCli run ...} with its own application id, topic prefix and data dir, and any free HTTP
     * port.
     */
    static List<String> command(
            String java,
            List<String> jvmOptions,
            String heap,
            String classPath,
            String bootstrapServers,
            String applicationId,
            String topicPrefix,
            Path dataDir) {
        List<String> command = new ArrayList<>();
        command.add(java);
        command.addAll(jvmOptions);
        command.addAll(List.of(
                "-Xmx" + heap,
                "-cp",
                classPath,
                "io.coordinate.cli.CoordinateCli",
                "run",
                "--bootstrap-servers",
                bootstrapServers,
                "--application-id",
                applicationId,
                "--topic-prefix",
                topicPrefix,
                "--data-dir",
                dataDir.toString(),
                "--http-port",
                "0"));
        return command;
    }

    /** Of {@link #INHERITED_JVM_OPTIONS}, those this JVM was started with (bin/coordinate's, JAVA_OPTS'), in order. */
    static List<String> inheritedJvmOptions(List<String> ownOptions) {
        return ownOptions.stream().filter(INHERITED_JVM_OPTIONS::contains).toList();
    }

    /** The HTTP port of a READY line ({@code READY bootstrap=HOST:PORT http=http://HOST:PORT}), or -1. */
    static int readyHttpPort(String line) {
        Matcher m = line == null ? null : READY.matcher(line.strip());
        return m != null && m.matches() ? Integer.parseInt(m.group(1)) : -1;
    }

    /** Starts the command and returns once it has printed its READY line; fails, with its log's end, otherwise. */
    static AppProcess start(List<String> command, Path log) throws IOException, InterruptedException {
        return start(command, log, READY_SECONDS);
    }

    /** As {@link #start(List, Path)}, waiting up to {@code readySeconds} for READY. */
    static AppProcess start(List<String> command, Path log, long readySeconds)
            throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.to(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.PIPE)
                .start();
        CompletableFuture<Integer> ready = new CompletableFuture<>();
        Thread reader = new Thread(
                () -> {
                    // Reads stdout to its end, so that the child never blocks on a full pipe.
                    try (BufferedReader out = new BufferedReader(
                            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                        String line;
                        while ((line = out.readLine()) != null) {
                            int port = readyHttpPort(line);
                            if (port >= 0) {
                                ready.complete(port);
                            } else {
                                LOG.info("app stdout: {}", line);
                            }
                        }
                    } catch (IOException e) {
                        LOG.debug("app stdout closed", e);
                    }
                    ready.completeExceptionally(
                            new IllegalStateException("the app's stdout ended without a READY line"));
                },
                "bench-app-stdout");
        reader.setDaemon(true);
        reader.start();
        try {
            return new AppProcess(process, log, ready.get(readySeconds, TimeUnit.SECONDS));
        } catch (ExecutionException | TimeoutException e) {
            stop(process);
            throw new IllegalStateException(
                    "the app did not get ready ("
                            + (e instanceof TimeoutException
                                    ? "no READY line after " + readySeconds + " s"
                                    : e.getCause().getMessage())
                            + "); exit "
                            + exitCode(process) + ", last lines of " + log + ":\n" + tail(log, 30),
                    e);
        } catch (InterruptedException e) {
            stop(process);
            throw e;
        }
    }

    long pid() {
        return process.pid();
    }

    int httpPort() {
        return httpPort;
    }

    Path log() {
        return log;
    }

    /** Fails, with the end of the app's log, when the app is no longer running. */
    void checkAlive() {
        if (!process.isAlive()) {
            throw new IllegalStateException(
                    "the app exited (code " + process.exitValue() + "); last lines of " + log + ":\n" + tail(log, 30));
        }
    }

    /** A memory line ({@code VmRSS}, {@code VmHWM}, ...) of the app's /proc/<pid>/status in bytes, or -1. */
    long status(String field) {
        return ProcStatus.read(Path.of("/proc", Long.toString(pid()), "status"), field);
    }

    /**
     * The JVM memory the app has committed in {@code area} ("heap" or "nonheap": metaspace, code cache), from its
     * {@code /metrics}, in bytes, or -1.
     */
    long jvmCommitted(String area) {
        try {
            HttpResponse<String> response = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/metrics"))
                                    .timeout(Duration.ofSeconds(10))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? jvmCommitted(response.body(), area) : -1;
        } catch (IOException | RuntimeException e) {
            LOG.debug("no /metrics from the app", e);
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** The sum of the {@code jvm_memory_committed_bytes} gauges of {@code area} in Prometheus text, or -1. */
    static long jvmCommitted(String prometheusText, String area) {
        String prefix = "jvm_memory_committed_bytes{";
        String label = "area=\"" + area + "\"";
        double sum = 0;
        boolean found = false;
        for (String line : prometheusText.split("\n")) {
            int close = line.lastIndexOf('}');
            if (line.startsWith(prefix) && close > 0 && line.substring(0, close).contains(label)) {
                try {
                    sum += Double.parseDouble(line.substring(close + 1).trim());
                    found = true;
                } catch (NumberFormatException e) {
                    return -1;
                }
            }
        }
        return found ? Math.round(sum) : -1;
    }

    /** user + system CPU time of the app so far, in clock ticks, or -1. */
    long cpuTicks() {
        try {
            return ProcStatus.cpuTicks(Files.readString(Path.of("/proc", Long.toString(pid()), "stat")));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** SIGKILL, as a crash: no shutdown hook, no commit. Returns once the process is gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the app (pid " + process.pid() + ") survived SIGKILL for 30 s");
        }
    }

    /** SIGTERM, then up to {@link #STOP_SECONDS} for the shutdown hook; killed after that. */
    @Override
    public void close() {
        stop(process);
    }

    private static void stop(Process process) {
        if (!process.isAlive()) {
            return;
        }
        process.destroy(); // SIGTERM on Linux: the app's shutdown hook closes Kafka Streams cleanly
        try {
            if (!process.waitFor(STOP_SECONDS, TimeUnit.SECONDS)) {
                LOG.warn("the app did not stop {} s after SIGTERM: killing it", STOP_SECONDS);
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static String exitCode(Process process) {
        return process.isAlive() ? "none (still running)" : Integer.toString(process.exitValue());
    }

    /** The last {@code lines} lines of a file ("" if it cannot be read). */
    static String tail(Path file, int lines) {
        try {
            List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
            return String.join("\n", new ArrayList<>(all.subList(Math.max(0, all.size() - lines), all.size())));
        } catch (IOException | UncheckedIOException e) {
            return "";
        }
    }
}
