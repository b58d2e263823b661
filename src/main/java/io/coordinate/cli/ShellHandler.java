package io.coordinate.cli;

import io.coordinate.client.Attempt;
import io.coordinate.client.FailAttemptException;
import io.coordinate.client.RetryLaterException;
import io.coordinate.client.Worker;
import io.coordinate.protocol.Json;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Works an attempt by running a shell command in a process group of its own ({@link CommandGroup}): the unit's data
 * as JSON on its stdin, and {@code COORDINATE_UNIT}, {@code COORDINATE_SPEC}, {@code COORDINATE_ATTEMPT},
 * {@code COORDINATE_NAMESPACE} and {@code COORDINATE_PROGRESS_FILE} in its environment. Exit 0 finishes the attempt
 * with {@code {"stdout": ...}}; another exit, or a run past the timeout (the command's group is killed), fails it
 * with the end of stderr as {@code traceback}, as retryable but for the exit statuses said to be permanent. An end
 * by SIGHUP, SIGINT or SIGTERM gives the unit back ({@link #STOP_SIGNALS}). An interrupt (the unit was cancelled, or
 * the worker stops) terminates the command's group: SIGTERM, and SIGKILL after the grace.
 *
 * <p>The streams go through temporary files, not pipes: a command that writes much and reads little cannot block.
 */
final class ShellHandler implements Worker.Handler {

    /**
     * The exit statuses of a command ended by SIGHUP, SIGINT or SIGTERM (128 + the signal), which is how a stop of the
     * worker's service (systemd signals every process of the service) reaches the commands it runs. Their units are
     * given back, never failed.
     */
    static final Map<Integer, String> STOP_SIGNALS = Map.of(129, "SIGHUP", 130, "SIGINT", 143, "SIGTERM");

    /** The most of stdout kept as the result, and of stderr as the traceback: their last bytes. */
    static final int TAIL_BYTES = 64 * 1024;

    /** How often the progress file is read. */
    private static final long PROGRESS_READ_NANOS = TimeUnit.SECONDS.toNanos(1);

    /**
     * How long to wait before reporting a command that a signal ended, or a spawn that failed: when the worker's own
     * stop caused them, the worker's stop has begun by then, and it releases the unit rather than counting an attempt.
     */
    static final Duration SETTLE = Duration.ofSeconds(1);

    /** How a command runs: {@code timeout} null for none; {@code grace} between SIGTERM and SIGKILL. */
    record Settings(Duration timeout, Duration grace, Set<Integer> permanentExitCodes) {}

    private final List<String> launcher;
    private final boolean ownGroup;
    private final String command;
    private final String namespace;
    private final Settings settings;

    ShellHandler(String command, String namespace, Settings settings) {
        this(shellLauncher("/bin/sh"), !CommandGroup.LAUNCHER.isEmpty(), command, namespace, settings);
    }

    /**
     * {@code launcher}: the program and arguments that run {@code command} given last; {@code ownGroup}: whether it
     * starts a process group of its own.
     */
    ShellHandler(List<String> launcher, boolean ownGroup, String command, String namespace, Settings settings) {
        this.launcher = List.copyOf(launcher);
        this.ownGroup = ownGroup;
        this.command = command;
        this.namespace = namespace;
        this.settings = settings;
    }

    /** {@code shell -c}, in a process group of its own where {@code setsid} is found. */
    static List<String> shellLauncher(String shell) {
        List<String> launcher = new ArrayList<>(CommandGroup.LAUNCHER);
        launcher.add(shell);
        launcher.add("-c");
        return launcher;
    }

    @Override
    public Map<String, ?> handle(Attempt attempt) throws Exception {
        Path dir = Files.createTempDirectory("coordinate-work-");
        Path stdin = dir.resolve("stdin.json");
        Path stdout = dir.resolve("stdout");
        Path stderr = dir.resolve("stderr");
        Path progress = dir.resolve("progress");
        try {
            Files.write(stdin, Json.MAPPER.writeValueAsBytes(attempt.data()));
            List<String> commandLine = new ArrayList<>(launcher);
            commandLine.add(command);
            ProcessBuilder builder = new ProcessBuilder(commandLine)
                    .redirectInput(stdin.toFile())
                    .redirectOutput(stdout.toFile())
                    .redirectError(stderr.toFile());
            Map<String, String> env = builder.environment();
            env.put("COORDINATE_NAMESPACE", namespace);
            env.put("COORDINATE_SPEC", attempt.workSpecName());
            env.put("COORDINATE_UNIT", attempt.workUnitName());
            env.put("COORDINATE_ATTEMPT", attempt.attemptId());
            env.put("COORDINATE_PROGRESS_FILE", progress.toString());
            Process process;
            try {
                process = builder.start();
            } catch (IOException e) {
                // A stop signal that reached the spawn, or a machine out of processes: a retryable failure, or a
                // release if the worker's stop has begun once settled.
                Thread.sleep(SETTLE.toMillis());
                throw new IOException("could not start the command: " + e.getMessage(), e);
            }
            CommandGroup group = new CommandGroup(process, ownGroup);
            boolean ended;
            try {
                ended = await(process, new ProgressFile(progress), attempt);
            } catch (InterruptedException e) { // cancelled, or the worker stops: do not leave the command running
                group.terminate(settings.grace());
                throw e;
            }
            if (!ended) {
                group.kill();
                throw new FailAttemptException("timed out", Map.of("traceback", timedOut() + tail(stderr)), true);
            }
            return outcome(process.exitValue(), stdout, stderr);
        } finally {
            for (Path file : new Path[] {stdin, stdout, stderr, progress, dir}) {
                Files.deleteIfExists(file);
            }
        }
    }

    /** Waits for the command to end, reporting its progress meanwhile; false when it runs past the timeout. */
    private boolean await(Process process, ProgressFile progress, Attempt attempt) throws InterruptedException {
        long deadline = settings.timeout() == null
                ? Long.MAX_VALUE
                : System.nanoTime() + settings.timeout().toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            if (process.waitFor(Math.min(left, PROGRESS_READ_NANOS), TimeUnit.NANOSECONDS)) {
                return true;
            }
            progress.changed().ifPresent(attempt::progress);
        }
    }

    private Map<String, ?> outcome(int exit, Path stdout, Path stderr) throws Exception {
        String signal = STOP_SIGNALS.get(exit);
        if (signal != null) { // stopped with its worker's service (systemd, supervisord): not a failure
            Thread.sleep(SETTLE.toMillis());
            throw new RetryLaterException(
                    "stopped by " + signal + " (exit status " + exit + ")\n" + tail(stderr), Duration.ZERO);
        }
        if (exit != 0) {
            Map<String, Object> data = new LinkedHashMap<>(); // traceback first, as the unit shows it
            data.put("traceback", "exit status " + exit + "\n" + tail(stderr));
            data.put("exit_status", exit);
            throw new FailAttemptException(
                    "exit " + exit, data, !settings.permanentExitCodes().contains(exit));
        }
        return Map.of("stdout", tail(stdout));
    }

    private String timedOut() {
        return "timed out after "
                + java.math.BigDecimal.valueOf(settings.timeout().toMillis(), 3)
                        .stripTrailingZeros()
                        .toPlainString()
                + " s and killed\n";
    }

    /** The last {@link #TAIL_BYTES} of a file as text; a character cut at the start becomes U+FFFD. */
    static String tail(Path file) throws IOException {
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            long length = in.length();
            int size = (int) Math.min(length, TAIL_BYTES);
            byte[] bytes = new byte[size];
            in.seek(length - size);
            in.readFully(bytes);
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPLACE)
                    .onUnmappableCharacter(CodingErrorAction.REPLACE)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        }
    }
}
