package io.coordinate.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.client.CoordinateClient;
import io.coordinate.client.Worker;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code coordinate work}: a {@link Worker} whose handler runs a shell command per attempt ({@link ShellHandler}).
 * SIGTERM or Ctrl-C stops it as {@link Worker#close()} does; {@code --until-idle} ends it once the spec has nothing
 * available or pending (asked of the HTTP API), which includes waiting out the leases a dead worker held, and an app
 * restarted meanwhile ({@link IdleCheck}).
 */
@Command(
        name = "work",
        description = "Run a shell command for each unit of a spec: the unit's data on stdin; exit 0 "
                + "finishes the attempt with {\"stdout\": ...}, another exit fails it (as retryable, but for "
                + "--permanent-exit-codes) with the end of stderr as traceback.")
final class WorkCommand implements Callable<Integer> {

    private static final Duration IDLE_CHECK = Duration.ofSeconds(1);
    private static final Duration MIN_BACKOFF = Duration.ofMillis(100);

    @Mixin
    ClientOptions options;

    @Option(names = "--spec", required = true, description = "The work spec whose units to run.")
    String spec;

    @Option(names = "--exec", required = true, paramLabel = "CMD", description = "The command, run with /bin/sh -c.")
    String exec;

    @Option(names = "--concurrency", defaultValue = "1", description = "Commands at once (default: ${DEFAULT-VALUE}).")
    int concurrency;

    @Option(
            names = "--until-idle",
            description =
                    "Exit once the spec holds no available, pending or retrying unit, and none waiting for a retry.")
    boolean untilIdle;

    @Option(
            names = "--timeout",
            paramLabel = "SECONDS",
            description = "Kill a command that runs longer, and fail its attempt as retryable (default: no limit).")
    Double timeoutSeconds;

    @Option(
            names = "--lease",
            defaultValue = "30",
            paramLabel = "SECONDS",
            description = "The lease asked for, renewed while a command runs (default: ${DEFAULT-VALUE}).")
    double leaseSeconds;

    @Option(
            names = "--grace",
            defaultValue = "30",
            paramLabel = "SECONDS",
            description = "On SIGTERM, how long running commands may go on before they are terminated and their "
                    + "units given back; and how long a terminated command (stopped or cancelled) has between SIGTERM "
                    + "and SIGKILL (default: ${DEFAULT-VALUE}).")
    double graceSeconds;

    @Option(
            names = "--permanent-exit-codes",
            split = ",",
            paramLabel = "CODES",
            description = "Exit statuses that fail the attempt for good, e.g. 2,64 (default: every other non-zero "
                    + "exit fails it as retryable, for the spec's retry policy).")
    Set<Integer> permanentExitCodes = Set.of();

    @Option(names = "--name", description = "The worker's name (default: <host>-<pid>-<random>).")
    String name;

    @Option(
            names = "--patience",
            defaultValue = "300",
            paramLabel = "SECONDS",
            description =
                    "With --until-idle, how long to keep asking an HTTP API that cannot be reached or is not ready "
                            + "(a restart) before giving up with exit 3 (default: ${DEFAULT-VALUE}).")
    double patienceSeconds;

    @Option(
            names = "--max-backoff",
            defaultValue = "0.5",
            paramLabel = "SECONDS",
            description = "The longest wait between two requests for work while there is none (from 0.1 s, doubling): "
                    + "a unit that a retry policy delays runs within about this much of its time "
                    + "(default: ${DEFAULT-VALUE}).")
    double maxBackoffSeconds;

    @Override
    public Integer call() throws Exception {
        CoordinateClient client = options.client();
        Worker worker = Worker.builder(client)
                .name(name)
                .workSpecs(spec)
                .concurrency(concurrency)
                .lease(seconds(leaseSeconds))
                .backoff(MIN_BACKOFF, maxBackoff())
                .closeTimeout(seconds(graceSeconds))
                .environment("exec", exec)
                .handler(new ShellHandler(exec, options.namespace(), shellSettings()))
                .build();
        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook = new Thread(
                () -> {
                    stop(worker, client);
                    stopped.countDown();
                },
                "coordinate-work-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        worker.start();
        System.err.println("working spec \"" + spec + "\" of namespace \"" + options.namespace() + "\" as "
                + worker.name() + ", " + concurrency + " at a time");
        if (!untilIdle) {
            stopped.await(); // until SIGTERM: the hook stops the worker, then the JVM exits
            return ExitCodes.OK;
        }
        HttpReader http = new HttpReader(options.httpUrl(), ClientOptions.TIMEOUT);
        IdleCheck check =
                new IdleCheck(() -> idle(http), seconds(patienceSeconds), System::nanoTime, System.err::println);
        while (!check.idle()) {
            Thread.sleep(IDLE_CHECK.toMillis());
        }
        Runtime.getRuntime().removeShutdownHook(hook);
        stop(worker, client);
        return ExitCodes.OK;
    }

    ShellHandler.Settings shellSettings() {
        Duration timeout = timeoutSeconds == null ? null : seconds(timeoutSeconds);
        return new ShellHandler.Settings(timeout, seconds(graceSeconds), Set.copyOf(permanentExitCodes));
    }

    Duration maxBackoff() {
        return seconds(Math.max(maxBackoffSeconds, MIN_BACKOFF.toMillis() / 1000.0));
    }

    private static void stop(Worker worker, CoordinateClient client) {
        worker.close();
        client.close();
        System.err.println("stopped: " + worker.finished() + " finished, " + worker.failed() + " failed, "
                + worker.retried() + " given back");
    }

    /**
     * Whether the spec has no unit available, pending or waiting for a retry now. A unit delayed by its own
     * {@code not_before} does not count: it may be due tomorrow.
     */
    private boolean idle(HttpReader http) {
        String specPath = HttpReader.namespacePath(options.namespace(), "work-specs", spec);
        JsonNode counts = http.get(specPath, Map.of()).path("counts");
        if (counts.path("available").asLong() != 0 || counts.path("pending").asLong() != 0) {
            return false;
        }
        return counts.path("delayed").asLong() == 0
                || http.get(specPath + "/work-units", Map.of("status", List.of("retrying"), "limit", List.of("1")))
                        .path("work_units")
                        .isEmpty();
    }

    private static Duration seconds(double seconds) {
        return Duration.ofMillis(Math.round(seconds * 1000));
    }
}
