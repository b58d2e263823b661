package io.coordinate.clients;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A worker run as a process: the shell worker ({@code coordinate work}) or a language client's conformance runner.
 * Its stdout is kept line by line (the runner's {@code ready} and counters lines), its stderr goes to a log file.
 * A stop is SIGTERM, as a service manager sends it.
 */
final class RunnerProcess implements RunningWorker {

    private static final Pattern RUNNER_COUNTERS =
            Pattern.compile("finished=(\\d+) failed=(\\d+) retried=(\\d+) requests=(\\d+)");
    private static final Pattern SHELL_COUNTERS =
            Pattern.compile("stopped: (\\d+) finished, (\\d+) failed, (\\d+) given back");
    private static final long READY_SECONDS = 60;
    /** The JVM's exit status after SIGTERM (128 + 15): how the shell worker ends. */
    private static final int SIGTERM_EXIT = 143;

    private final WorkerKind kind;
    private final Process process;
    private final Path log;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Thread reader;

    private RunnerProcess(WorkerKind kind, Process process, Path log) {
        this.kind = kind;
        this.process = process;
        this.log = log;
        this.reader = new Thread(this::readLines, "stdout of " + log.getFileName());
        reader.setDaemon(true);
        reader.start();
    }

    static RunnerProcess start(WorkerKind kind, List<String> command, Map<String, String> environment, Path log)
            throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(WorkerKind.projectDir().toFile())
                .redirectError(log.toFile());
        builder.environment().putAll(environment);
        RunnerProcess runner = new RunnerProcess(kind, builder.start(), log);
        if (kind != WorkerKind.SHELL) {
            runner.awaitReady();
        }
        return runner;
    }

    private void readLines() {
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                lines.add(line);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void awaitReady() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(READY_SECONDS);
        while (!lines.contains("ready")) {
            if (!process.isAlive()) {
                throw new AssertionError(kind.key() + " runner exited with " + process.exitValue()
                        + " before it printed 'ready'; " + output());
            }
            if (System.nanoTime() > deadline) {
                process.destroyForcibly();
                throw new AssertionError(
                        kind.key() + " runner printed no 'ready' line within " + READY_SECONDS + " s; " + output());
            }
            sleep();
        }
    }

    @Override
    public Counters stop() throws Exception {
        // kill(1) rather than Process.destroy(), which closes the process's stdout: the counters line comes after.
        if (new ProcessBuilder("kill", "-TERM", String.valueOf(process.pid()))
                        .start()
                        .waitFor()
                != 0) {
            throw new AssertionError("kill -TERM " + process.pid() + " failed; " + output());
        }
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(kind.key() + " worker did not stop within 60 s of SIGTERM; " + output());
        }
        reader.join(TimeUnit.SECONDS.toMillis(10));
        int expectedExit = kind == WorkerKind.SHELL ? SIGTERM_EXIT : 0;
        if (process.exitValue() != expectedExit) {
            throw new AssertionError(kind.key() + " worker exited with " + process.exitValue() + " after SIGTERM, not "
                    + expectedExit + "; " + output());
        }
        Pattern counters = kind == WorkerKind.SHELL ? SHELL_COUNTERS : RUNNER_COUNTERS;
        for (String line : kind == WorkerKind.SHELL ? Files.readAllLines(log) : lines) {
            Matcher matcher = counters.matcher(line);
            if (matcher.matches()) {
                return new Counters(Long.parseLong(matcher.group(1)), Long.parseLong(matcher.group(2)));
            }
        }
        throw new AssertionError(
                kind.key() + " worker printed no line '" + counters.pattern() + "' at exit; " + output());
    }

    /** What it printed, for a failure's message: stdout and the end of its log. */
    private String output() {
        String err;
        try {
            err = Files.exists(log) ? Files.readString(log) : "";
        } catch (IOException e) {
            err = e.toString();
        }
        return "stdout: " + lines + "; stderr (" + log + "), last 4000 characters: "
                + err.substring(Math.max(0, err.length() - 4000));
    }

    private static void sleep() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted");
        }
    }
}
