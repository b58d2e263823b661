package io.coordinate.cli;

import io.coordinate.app.AppLauncher;
import io.coordinate.app.NoStreamThreadException;
import io.coordinate.client.CommandRefusedException;
import io.coordinate.client.CoordinateUnreachableException;
import io.coordinate.config.AppConfig;
import io.coordinate.config.SettingsException;
import io.coordinate.streams.topics.KafkaUnreachableException;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.config.ConfigException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * Entry point of {@code bin/coordinate} and of the Docker image. Deliberately thin: each subcommand parses options
 * and delegates to a reusable class ({@code DevEnvironment}, {@link AppLauncher}).
 *
 * <p>The development tools ({@link #DEVELOPMENT_TOOLS}: {@code dev} and the benches) are built from src/dev and
 * src/bench, off the app's runtime output: {@link #commandLine} adds each one found on the class path
 * ({@code bin/coordinate}'s) and, where it is missing (the image), a hidden command that says so.
 *
 * <p>stdout carries only the {@code READY ...} line (and later app output): scripts and tests wait for it; all logs
 * go to stderr (see simplelogger.properties).
 */
@Command(
        name = "coordinate",
        description = "Coordinate Streams: a work-unit coordinator running as a Kafka Streams application.",
        subcommands = {
            RunCommand.class,
            SpecCommand.class,
            UnitsCommand.class,
            WorkersCommand.class,
            SummaryCommand.class,
            DeadLettersCommand.class,
            EventsCommand.class,
            WorkCommand.class,
        })
public final class CoordinateCli implements Callable<Integer> {

    private static final Logger log = LoggerFactory.getLogger(CoordinateCli.class);

    /**
     * The development tools' subcommands and the classes that implement them, in the order of the help. Named, never
     * referenced: the runtime output must not depend on them.
     */
    static final List<Map.Entry<String, String>> DEVELOPMENT_TOOLS = List.of(
            Map.entry("dev", "io.coordinate.cli.DevCommand"),
            Map.entry("bench", "io.coordinate.cli.BenchCommand"),
            Map.entry("bench-engine", "io.coordinate.cli.BenchEngineCommand"),
            Map.entry("bench-scale", "io.coordinate.cli.BenchScaleCommand"),
            Map.entry("bench-metrics", "io.coordinate.cli.BenchMetricsCommand"));

    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            scope = ScopeType.INHERIT,
            description = "Show this help message and exit.")
    boolean help;

    @Spec
    CommandSpec spec;

    /** No subcommand given: show what there is, and fail like any usage error. */
    @Override
    public Integer call() {
        spec.commandLine().usage(System.err);
        return CommandLine.ExitCode.USAGE;
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /**
     * The CLI as {@link #main} runs it. What is not a bug ends the command with one line on stderr and an
     * {@link ExitCodes exit code}, not a stack trace: a cluster or HTTP API that cannot be reached (3, naming the
     * address: it is the operator's setting), a command the app refused (1, {@code error: <code>: <message>}).
     */
    public static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new CoordinateCli());
        for (Map.Entry<String, String> tool : DEVELOPMENT_TOOLS) {
            cli.addSubcommand(tool.getKey(), developmentTool(tool.getKey(), tool.getValue()));
        }
        cli.setExecutionExceptionHandler((e, command, parsed) -> {
            // The whole chain: a CompletionException or ExecutionException wraps the client's failures.
            for (Throwable cause = e; cause != null; cause = cause.getCause()) {
                Integer exitCode = exitCode(cause);
                if (exitCode != null) {
                    String message = cause instanceof CommandRefusedException
                            ? "error: " + cause.getMessage()
                            : cause instanceof ConfigException
                                    ? "invalid Kafka client setting: " + cause.getMessage()
                                    : cause.getMessage();
                    command.getErr().println(message.lines().findFirst().orElse(""));
                    command.getErr().flush();
                    return exitCode;
                }
            }
            throw e;
        });
        return cli;
    }

    /** The tool's command class, for picocli to make, or where this build has not got it, a command that says so. */
    private static Object developmentTool(String name, String className) {
        try {
            return Class.forName(className);
        } catch (ClassNotFoundException e) {
            return new NotInThisBuild(name);
        }
    }

    /** Stands for a development tool the class path has not got: hidden from the help, it fails with one line. */
    @Command(hidden = true, description = "Not part of this build: the development tools run from the sources.")
    static final class NotInThisBuild implements Callable<Integer> {

        private final String name;

        /** Whatever was given after the name: the tool's own options, which do not matter here. */
        @Unmatched
        List<String> ignored;

        NotInThisBuild(String name) {
            this.name = name;
        }

        @Override
        public Integer call() {
            throw new CliFailure(
                    ExitCodes.USAGE,
                    "coordinate " + name + ": not part of this build (the image holds the "
                            + "app only); the development tools run from a clone of the repository: bin/coordinate "
                            + name);
        }
    }

    /** The exit code of a failure that is not a bug, else null. */
    private static Integer exitCode(Throwable failure) {
        if (failure instanceof KafkaUnreachableException || failure instanceof CoordinateUnreachableException) {
            return ExitCodes.UNREACHABLE;
        }
        if (failure instanceof CommandRefusedException) {
            return ExitCodes.REFUSED;
        }
        if (failure instanceof SettingsException || failure instanceof ConfigException) {
            return ExitCodes.USAGE;
        }
        if (failure instanceof NoStreamThreadException) {
            return ExitCodes.STOPPED;
        }
        return failure instanceof CliFailure cliFailure ? cliFailure.exitCode() : null;
    }

    /** The one line scripts wait for; its format is part of the CLI's contract. */
    public static String readyLine(String bootstrapServers, int httpPort) {
        return readyLine(bootstrapServers, AppConfig.DEFAULT_HTTP_HOST, httpPort);
    }

    /** @param httpHost where a client on this machine reaches the HTTP API */
    public static String readyLine(String bootstrapServers, String httpHost, int httpPort) {
        return "READY bootstrap=" + bootstrapServers + " http=http://" + httpHost + ":" + httpPort;
    }

    /**
     * Prints the READY line and blocks until the JVM is told to stop (Ctrl-C, SIGTERM); a shutdown hook then closes
     * {@code running} before the JVM exits, so Kafka Streams commits and the broker flushes cleanly. Returns
     * {@link ExitCodes#STOPPED} once {@code stopped} completes (no stream thread runs, none will): the exit that
     * follows lets a supervisor restart the instance, where staying up would serve nothing.
     */
    static int serveUntilSignalled(
            AutoCloseable running, CompletionStage<String> stopped, String readyLine, PrintStream out) {
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            log.info("Stopping");
                            try {
                                running.close();
                            } catch (Exception e) {
                                log.warn("Error during shutdown", e);
                            }
                        },
                        "coordinate-shutdown"));
        out.println(readyLine);
        out.flush();
        String reason = stopped.toCompletableFuture().join(); // never completes while the app works
        log.error("exiting with code {} for a supervisor to restart the instance: {}", ExitCodes.STOPPED, reason);
        return ExitCodes.STOPPED;
    }
}
