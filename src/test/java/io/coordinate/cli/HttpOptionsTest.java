package io.coordinate.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coordinate.config.AppConfig;
import io.coordinate.config.HttpSettings;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The HTTP API's bounds and whom it answers, as {@code run} and {@code dev} take them. */
class HttpOptionsTest {

    private static AppConfig run(String... args) {
        CommandLine.ParseResult parsed = CoordinateCli.commandLine().parseArgs(args);
        return ((RunCommand) parsed.subcommand().commandSpec().userObject()).config();
    }

    @Test
    void theDefaultsBoundConnectionsAndAnswerOnlyThisInstancesNames() {
        assertThat(run("run", "--bootstrap-servers", "k:9092").http()).isEqualTo(HttpSettings.DEFAULTS);
        assertThat(HttpSettings.DEFAULTS)
                .isEqualTo(new HttpSettings(256, Duration.ofSeconds(10), List.of(), List.of()));
    }

    @Test
    void runTakesTheBoundsAndTheAllowedHostsAndOrigins() {
        AppConfig config = run(
                "run",
                "--bootstrap-servers",
                "k:9092",
                "--http-max-connections",
                "100",
                "--http-idle-timeout",
                "5",
                "--http-allowed-hosts",
                "coordinate.internal, Ops.Example.",
                "--http-allowed-origins",
                "https://ops.example,http://ops.example:8443");
        assertThat(config.http())
                .isEqualTo(new HttpSettings(
                        100,
                        Duration.ofSeconds(5),
                        List.of("coordinate.internal", "ops.example."),
                        List.of("https://ops.example", "http://ops.example:8443")));
    }

    @Test
    void devTakesTheSameOptions() {
        CommandLine.ParseResult parsed = CoordinateCli.commandLine()
                .parseArgs("dev", "--http-max-connections", "7", "--http-allowed-hosts", "*");
        DevCommand dev = (DevCommand) parsed.subcommand().commandSpec().userObject();
        assertThat(dev.http.settings())
                .isEqualTo(new HttpSettings(7, HttpSettings.DEFAULT_IDLE_TIMEOUT, List.of("*"), List.of()));
    }

    @Test
    void aBoundBelowOneOrAnOriginWithoutSchemeIsRefused() {
        assertThatThrownBy(() -> run("run", "--bootstrap-servers", "k:9092", "--http-max-connections", "0"))
                .isInstanceOf(CommandLine.ParameterException.class)
                .hasMessage("the HTTP connection limit must be 1 or more, got 0");
        assertThatThrownBy(() -> run("run", "--bootstrap-servers", "k:9092", "--http-idle-timeout", "0"))
                .isInstanceOf(CommandLine.ParameterException.class)
                .hasMessage("the HTTP idle timeout must be positive, got 0 ms");
        assertThatThrownBy(() -> run("run", "--bootstrap-servers", "k:9092", "--http-allowed-origins", "ops.example"))
                .isInstanceOf(CommandLine.ParameterException.class)
                .hasMessage(
                        "an allowed origin is scheme://host[:port] (as https://ops.example.com), got \"ops.example\"");
    }
}
