package io.coordinate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.app.NoStreamThreadException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code run} and {@code dev} end with exit code 5 once no stream thread runs and none will, so that a supervisor
 * restarts the instance: after READY (the app's {@code stopped()} completes) and before it (the start fails).
 */
class ServeUntilStoppedTest {

    private static final String REASON =
            "no stream thread has been alive for 10 s, and none was started in place of " + "the failed one";

    @Test
    void aStoppedAppEndsServingWithExitCodeFive() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = CoordinateCli.serveUntilSignalled(
                () -> {},
                CompletableFuture.completedFuture(REASON),
                "READY bootstrap=b:1 http=http://127.0.0.1:1",
                new PrintStream(out, true, StandardCharsets.UTF_8));
        assertThat(exit).isEqualTo(ExitCodes.STOPPED).isEqualTo(5);
        assertThat(out.toString(StandardCharsets.UTF_8))
                .isEqualTo("READY bootstrap=b:1 http=http://127.0.0.1:1" + System.lineSeparator());
    }

    @Test
    void aStartWithoutALiveStreamThreadEndsWithExitCodeFiveInOneLine() {
        StringWriter err = new StringWriter();
        CommandLine cli = CoordinateCli.commandLine();
        cli.addSubcommand("stopped", new StoppedAtStart());
        cli.setErr(new PrintWriter(err));
        assertThat(cli.execute("stopped")).isEqualTo(5);
        assertThat(err.toString()).isEqualTo(REASON + System.lineSeparator());
    }

    /** Stands for {@code run} whose app loses its stream thread before it runs. */
    @Command(name = "stopped")
    static final class StoppedAtStart implements Callable<Integer> {
        @Override
        public Integer call() {
            throw new NoStreamThreadException(REASON);
        }
    }
}
