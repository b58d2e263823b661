package io.coordinate.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coordinate.client.Attempt;
import io.coordinate.client.FailAttemptException;
import io.coordinate.client.RetryLaterException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The shell worker's handler, running real commands with /bin/sh. */
class ShellHandlerTest {

    private static final Attempt ATTEMPT = new Attempt(
            "42",
            "spec",
            "unit-1",
            Map.of("url", "https://x"),
            Instant.parse("2026-11-25T10:00:00Z"),
            Instant.parse("2026-11-25T10:00:30Z"));

    private static Map<String, ?> run(String command, Duration timeout) throws Exception {
        return new ShellHandler(command, "ns", timeout).handle(ATTEMPT);
    }

    @Test
    void theUnitsDataIsOnStdinAndItsNamesInTheEnvironment() throws Exception {
        assertThat(run(
                        "cat; echo; echo \"$COORDINATE_NAMESPACE $COORDINATE_SPEC $COORDINATE_UNIT $COORDINATE_ATTEMPT\"",
                        null))
                .isEqualTo(Map.of("stdout", "{\"url\":\"https://x\"}\nns spec unit-1 42\n"));
    }

    @Test
    void aShellThatCannotStartGivesTheUnitBack() {
        assertThatThrownBy(() -> new ShellHandler("/nonexistent/sh", "true", "ns", null).handle(ATTEMPT))
                .isInstanceOf(RetryLaterException.class)
                .hasMessageStartingWith("could not start the command: ")
                .extracting(e -> ((RetryLaterException) e).delay())
                .isEqualTo(Duration.ZERO);
    }

    @Test
    void aFailingCommandFailsWithTheEndOfStderr() {
        assertThatThrownBy(() -> run("echo out; echo 'it broke' >&2; exit 3", null))
                .isInstanceOf(FailAttemptException.class)
                .extracting(e -> ((FailAttemptException) e).data())
                .isEqualTo(Map.of("traceback", "exit status 3\nit broke\n", "exit_status", 3));
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
    void aCommandStoppedBySigintOrSighupIsGivenBackToo() {
        assertThatThrownBy(() -> run("kill -INT $$; sleep 5", null))
                .isInstanceOf(RetryLaterException.class)
                .hasMessage("stopped by SIGINT (exit status 130)\n");
        assertThatThrownBy(() -> run("kill -HUP $$; sleep 5", null))
                .isInstanceOf(RetryLaterException.class)
                .hasMessage("stopped by SIGHUP (exit status 129)\n");
    }

    @Test
    void aCommandPastTheTimeoutIsKilledAndFailed() {
        assertThatThrownBy(() -> run("echo started >&2; exec sleep 60", Duration.ofMillis(500)))
                .isInstanceOf(FailAttemptException.class)
                .extracting(e -> ((FailAttemptException) e).data())
                .isEqualTo(Map.of("traceback", "timed out after 0.5 s and killed\nstarted\n"));
    }

    @Test
    void onlyTheLast64KiBOfStdoutAreKept() throws Exception {
        String stdout = (String)
                run("head -c 100000 /dev/zero | tr '\\0' a; printf END", null).get("stdout");
        assertThat(stdout).hasSize(ShellHandler.TAIL_BYTES).endsWith("aaaEND").startsWith("aaa");
    }
}
