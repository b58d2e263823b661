package io.coordinate.cli;

import io.coordinate.testing.RunningApp;

/** Runs {@code coordinate work} against a test's app, as a user would, until the spec is idle. */
final class ShellWork {

    private ShellWork() {}

    /** Works spec {@code s} of {@code ns} with {@code exec}; returns the command's exit code. */
    static int untilIdle(RunningApp app, String ns, String exec, int concurrency) {
        return CoordinateCli.commandLine()
                .execute(
                        "work",
                        "--bootstrap-servers",
                        app.env().bootstrapServers(),
                        "--http-url",
                        "http://127.0.0.1:" + app.env().httpPort(),
                        "--namespace",
                        ns,
                        "--spec",
                        "s",
                        "--exec",
                        exec,
                        "--concurrency",
                        String.valueOf(concurrency),
                        "--until-idle");
    }
}
