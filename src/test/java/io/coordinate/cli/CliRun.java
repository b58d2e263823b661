package io.coordinate.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.protocol.Json;
import io.coordinate.testing.RunningApp;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/** Runs {@code bin/coordinate} in-process against a test's app, as an operator would from a shell. */
final class CliRun {

    private CliRun() {}

    /** What one command printed, and its exit code. */
    record Result(int exit, String out, String err) {
        JsonNode json() {
            return Json.parse(out);
        }
    }

    /** Runs {@code bin/coordinate args...} against {@code app}'s deployment, in namespace {@code ns}. */
    static Result run(RunningApp app, String ns, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of(
                "-n",
                ns,
                "--bootstrap-servers",
                app.env().bootstrapServers(),
                "--http-url",
                "http://127.0.0.1:" + app.env().httpPort()));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = CoordinateCli.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        int exit = cli.execute(all.toArray(String[]::new));
        return new Result(exit, out.toString(), err.toString());
    }
}
