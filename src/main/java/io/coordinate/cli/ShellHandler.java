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
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Works an attempt by running a shell command: the unit's data as JSON on its stdin, and {@code COORDINATE_UNIT},
 * {@code COORDINATE_SPEC}, {@code COORDINATE_ATTEMPT}, {@code COORDINATE_NAMESPACE} in its environment. Exit 0
 * finishes the attempt with {@code {"stdout": ...}}; another exit, or a run past the timeout (the command and its
 * children are killed), fails it with the end of stderr as {@code traceback}; an end by SIGHUP, SIGINT or SIGTERM
 * gives the unit back ({@link #STOP_SIGNALS}), as does a shell that could not be started.
 *
 * <p>The streams go through temporary files, not pipes: a command that writes much and reads little cannot block.
 */
final class ShellHandler implements Worker.Handler {

    /**
     * The exit statuses of a command ended by SIGHUP, SIGINT or SIGTERM (128 + the signal), which is how a stop of the
     * worker's process group or service reaches the commands it runs. Their units are given back, never failed.
     */
    static final Map<Integer, String> STOP_SIGNALS = Map.of(129, "SIGHUP", 130, "SIGINT", 143, "SIGTERM");

    /** The most of stdout kept as the result, and of stderr as the traceback: their last bytes. */
    static final int TAIL_BYTES = 64 * 1024;

    private final String shell;
    private final String command;
    private final String namespace;
    private final Duration timeout;

    ShellHandler(String command, String namespace, Duration timeout) {
        this("/bin/sh", command, namespace, timeout);
    }

    /** {@code shell}: the program that runs {@code command} with {@code -c}. */
    ShellHandler(String shell, String command, String namespace, Duration timeout) {
        this.shell = shell;
        this.command = command;
        this.namespace = namespace;
        this.timeout = timeout;
    }

    @Override
    public Map<String, ?> handle(Attempt attempt) throws Exception {
        Path dir = Files.createTempDirectory("coordinate-work-");
        Path stdin = dir.resolve("stdin.json");
        Path stdout = dir.resolve("stdout");
        Path stderr = dir.resolve("stderr");
        try {
            Files.write(stdin, Json.MAPPER.writeValueAsBytes(attempt.data()));
            ProcessBuilder builder = new ProcessBuilder(shell, "-c", command)
                    .redirectInput(stdin.toFile())
                    .redirectOutput(stdout.toFile())
                    .redirectError(stderr.toFile());
            Map<String, String> env = builder.environment();
            env.put("COORDINATE_NAMESPACE", namespace);
            env.put("COORDINATE_SPEC", attempt.workSpecName());
            env.put("COORDINATE_UNIT", attempt.workUnitName());
            env.put("COORDINATE_ATTEMPT", attempt.attemptId());
            Process process;
            try {
                process = builder.start();
            } catch (IOException e) {
                // The shell did not start: a stop signal that reached the process group while it was being spawned,
                // or a machine out of processes. Neither is the unit's fault: another try runs it.
                throw new RetryLaterException("could not start the command: " + e.getMessage(), Duration.ZERO);
            }
            boolean ended;
            try {
                ended = timeout == null ? waitFor(process) : process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) { // the worker gave the attempt back: do not leave the command running
                kill(process);
                throw e;
            }
            if (!ended) {
                kill(process);
                throw new FailAttemptException(
                        "timed out",
                        Map.of(
                                "traceback",
                                "timed out after "
                                        + java.math.BigDecimal.valueOf(timeout.toMillis(), 3)
                                                .stripTrailingZeros()
                                                .toPlainString()
                                        + " s and killed\n" + tail(stderr)));
            }
            String signal = STOP_SIGNALS.get(process.exitValue());
            if (signal
                    != null) { // stopped with its worker's process group (Ctrl-C, systemd, supervisord): not a failure
                throw new RetryLaterException(
                        "stopped by " + signal + " (exit status " + process.exitValue() + ")\n" + tail(stderr),
                        Duration.ZERO);
            }
            if (process.exitValue() != 0) {
                Map<String, Object> data = new LinkedHashMap<>(); // traceback first, as the unit shows it
                data.put("traceback", "exit status " + process.exitValue() + "\n" + tail(stderr));
                data.put("exit_status", process.exitValue());
                throw new FailAttemptException("exit " + process.exitValue(), data);
            }
            return Map.of("stdout", tail(stdout));
        } finally {
            for (Path file : new Path[] {stdin, stdout, stderr, dir}) {
                Files.deleteIfExists(file);
            }
        }
    }

    private static boolean waitFor(Process process) throws InterruptedException {
        process.waitFor();
        return true;
    }

    private static void kill(Process process) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
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
