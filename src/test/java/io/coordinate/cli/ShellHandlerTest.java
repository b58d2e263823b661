package io.coordinate.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.coordinate.client.Attempt;
import io.coordinate.client.FailAttemptException;
import io.coordinate.client.RetryLaterException;
import io.coordinate.testing.Poll;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shell worker's handler, running real commands with /bin/sh. */
class ShellHandlerTest {

    private static final Duration GRACE = Duration.ofSeconds(2);

    private static final Attempt ATTEMPT = new Attempt(
            "42",
            "spec",
            "unit-1",
            Map.of("url", "https://x"),
            Instant.parse("2026-11-25T10:00:00Z"),
            Instant.parse("2026-11-25T10:00:30Z"));

    private static Map<String, ?> run(String command, Duration timeout) throws Exception {
        return handler(command, timeout, Set.of()).handle(ATTEMPT);
    }

    private static ShellHandler handler(String command, Duration timeout, Set<Integer> permanentExitCodes) {
        return new ShellHandler(command, "ns", new ShellHandler.Settings(timeout, GRACE, permanentExitCodes));
    }

    @Test
    void theUnitsDataIsOnStdinAndItsNamesInTheEnvironment() throws Exception {
        assertThat(run(
                        "cat; echo; echo \"$COORDINATE_NAMESPACE $COORDINATE_SPEC $COORDINATE_UNIT $COORDINATE_ATTEMPT\"",
                        null))
                .isEqualTo(Map.of("stdout", "{\"url\":\"https://x\"}\nns spec unit-1 42\n"));
    }

    @Test
    void aShellThatCannotStartFailsAsAnyExceptionOfAHandler() {
        // Retryable, or a release when the worker's stop broke the spawn (the worker decides, see HandlerOutcome).
        ShellHandler handler = new ShellHandler(
                List.of("/nonexistent/sh", "-c"),
                false,
                "true",
                "ns",
                new ShellHandler.Settings(null, GRACE, Set.of()));
        assertThatThrownBy(() -> handler.handle(ATTEMPT))
                .isInstanceOf(IOException.class)
                .hasMessageStartingWith("could not start the command: ");
    }

    @Test
    void aFailingCommandFailsAsRetryableWithTheEndOfStderr() {
        assertThatThrownBy(() -> run("echo out; echo 'it broke' >&2; exit 3", null))
                .isInstanceOf(FailAttemptException.class)
                .satisfies(
                        e -> assertThat(((FailAttemptException) e).retryable()).isTrue())
                .extracting(e -> ((FailAttemptException) e).data())
                .isEqualTo(Map.of("traceback", "exit status 3\nit broke\n", "exit_status", 3));
    }

    @Test
    void anExitStatusSaidToBePermanentFailsForGood() {
        assertThatThrownBy(() -> handler("exit 64", null, Set.of(2, 64)).handle(ATTEMPT))
                .isInstanceOf(FailAttemptException.class)
                .satisfies(
                        e -> assertThat(((FailAttemptException) e).retryable()).isFalse())
                .extracting(e -> ((FailAttemptException) e).data())
                .isEqualTo(Map.of("traceback", "exit status 64\n", "exit_status", 64));
        assertThatThrownBy(() -> handler("exit 3", null, Set.of(2, 64)).handle(ATTEMPT))
                .isInstanceOf(FailAttemptException.class)
                .satisfies(
                        e -> assertThat(((FailAttemptException) e).retryable()).isTrue());
    }

    @Test
    void aCommandStoppedBySigtermIsGivenBackNotFailed() {
        // What a stop of the worker's process group does to the commands it runs (Ctrl-C, systemd, supervisord).
        assertThatThrownBy(() -> run("echo stopping >&2; kill -TERM $$; sleep 5", null))
                .isInstanceOf(RetryLaterException.class)
                .hasMessage("stopped by SIGTERM (exit status 143)\nstopping\n")
                .extracting(e -> ((RetryLaterException) e).delay())
                .isEqualTo(Duration.ZERO);
    }

    @Test
    void aCommandStoppedBySigintIsGivenBackToo() throws IOException {
        assumeFalse(ignoredHere(2), "SIGINT is ignored by this JVM (a background job), so by the shells it starts");
        assertThatThrownBy(() -> run("kill -INT $$; sleep 5", null))
                .isInstanceOf(RetryLaterException.class)
                .hasMessage("stopped by SIGINT (exit status 130)\n");
    }

    @Test
    void aCommandStoppedBySighupIsGivenBackToo() throws IOException {
        assumeFalse(ignoredHere(1), "SIGHUP is ignored by this JVM (nohup), so by the shells it starts");
        assertThatThrownBy(() -> run("kill -HUP $$; sleep 5", null))
                .isInstanceOf(RetryLaterException.class)
                .hasMessage("stopped by SIGHUP (exit status 129)\n");
    }

    /**
     * Whether this process ignores the signal (Linux: {@code SigIgn} in /proc/self/status). A child starts with the
     * signals its parent ignores ignored, and a non-interactive shell cannot undo that: its {@code kill} does nothing.
     */
    private static boolean ignoredHere(int signal) throws IOException {
        Path status = Path.of("/proc/self/status");
        if (!Files.exists(status)) {
            return false;
        }
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith("SigIgn:")) {
                long ignored = Long.parseUnsignedLong(
                        line.substring("SigIgn:".length()).trim(), 16);
                return (ignored & 1L << (signal - 1)) != 0;
            }
        }
        return false;
    }

    @Test
    void aCommandPastTheTimeoutIsKilledAndFailed() {
        assertThatThrownBy(() -> run("echo started >&2; exec sleep 60", Duration.ofMillis(500)))
                .isInstanceOf(FailAttemptException.class)
                .satisfies(
                        e -> assertThat(((FailAttemptException) e).retryable()).isTrue())
                .extracting(e -> ((FailAttemptException) e).data())
                .isEqualTo(Map.of("traceback", "timed out after 0.5 s and killed\nstarted\n"));
    }

    @Test
    void onlyTheLast64KiBOfStdoutAreKept() throws Exception {
        String stdout = (String)
                run("head -c 100000 /dev/zero | tr '\\0' a; printf END", null).get("stdout");
        assertThat(stdout).hasSize(ShellHandler.TAIL_BYTES).endsWith("aaaEND").startsWith("aaa");
    }

    /** Runs the handler on a thread of its own until {@code started} exists, then interrupts it, as a worker does. */
    private static Throwable interruptOnceStarted(String command, Path started) throws Exception {
        CompletableFuture<Throwable> ended = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                run(command, null);
                ended.complete(null);
            } catch (Throwable e) {
                ended.complete(e);
            }
        });
        thread.start();
        Poll.until("the command started", Duration.ofSeconds(30), () -> Files.exists(started), exists -> exists);
        thread.interrupt();
        return ended.get(30, TimeUnit.SECONDS);
    }

    @Test
    void anInterruptTerminatesTheCommandsWholeProcessGroup(@TempDir Path dir) throws Exception {
        // A cancellation or the worker's stop: the command and what it left in the background get SIGTERM.
        Path log = dir.resolve("log");
        Path started = dir.resolve("started");
        // the background child says it is ready once its trap is set, so that the signal cannot come before it
        Path ready = dir.resolve("child-ready");
        String command = "(trap 'echo child >> " + log + "; exit 0' TERM; touch " + ready
                + "; while :; do sleep 0.05; done) & "
                + "trap 'echo shell >> " + log + "; exit 143' TERM; "
                + "while [ ! -e " + ready + " ]; do sleep 0.01; done; touch " + started + "; wait";
        assertThat(interruptOnceStarted(command, started)).isInstanceOf(InterruptedException.class);
        Poll.until("both got SIGTERM", Duration.ofSeconds(10), () -> lines(log), lines -> lines.size() == 2);
        assertThat(lines(log)).isEqualTo(Set.of("child", "shell"));
    }

    private static Set<String> lines(Path file) {
        try {
            return Files.exists(file) ? Set.copyOf(Files.readAllLines(file)) : Set.of();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void aCommandThatIgnoresSigtermIsKilledAfterTheGrace(@TempDir Path dir) throws Exception {
        Path started = dir.resolve("started");
        String command = "trap '' TERM; echo $$ > " + started + ".pid; mv " + started + ".pid " + started
                + "; while :; do sleep 0.05; done";
        long before = System.nanoTime();
        assertThat(interruptOnceStarted(command, started)).isInstanceOf(InterruptedException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - before)).isGreaterThanOrEqualTo(GRACE);
        long pid = Long.parseLong(Files.readString(started).strip());
        // the kill is sent; the process is gone once it has been reaped, which may come a little later
        Poll.until(
                "the command gone after SIGKILL",
                Duration.ofSeconds(30),
                () -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false),
                alive -> !alive);
    }

    @Test
    void theProgressFileIsNamedInTheEnvironmentInTheCommandsOwnDirectory() throws Exception {
        String stdout = (String) run(
                        "echo 0.5 halfway > \"$COORDINATE_PROGRESS_FILE\"; "
                                + "cat \"$COORDINATE_PROGRESS_FILE\"; basename \"$COORDINATE_PROGRESS_FILE\"",
                        null)
                .get("stdout");
        assertThat(stdout).isEqualTo("0.5 halfway\nprogress\n");
    }
}
