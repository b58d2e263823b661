package io.coordinate.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coordinate.app.AppLauncher;
import io.coordinate.config.AppConfig;
import io.coordinate.streams.topics.TopicDefinition;
import io.coordinate.streams.topics.TopicDefinitions;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The options of {@code run} and {@code dev} as the CLI parses them, and {@code run} against a closed port. */
class RunCommandTest {

    @TempDir
    Path tmp;

    private static RunCommand run(Map<String, String> environment, String... args) {
        CommandLine.ParseResult parsed = CoordinateCli.commandLine().parseArgs(args);
        RunCommand run = (RunCommand) parsed.subcommand().commandSpec().userObject();
        run.http.environment = environment::get;
        return run;
    }

    private static AppConfig config(String... args) {
        return run(Map.of(), args).config();
    }

    @Test
    void byDefaultHttpListensOnTheLoopbackAddressOnlyWithoutAToken() {
        AppConfig config = config("run", "--bootstrap-servers", "k:9092");
        assertThat(config.httpBindHost()).isEqualTo("127.0.0.1");
        assertThat(config.httpHost()).isEqualTo("127.0.0.1");
        assertThat(config.httpToken()).isNull();
        assertThat(config.kafkaProperties()).isEmpty();
        assertThat(config.replicationFactor()).isZero();
        assertThat(config.minInsyncReplicas()).isZero();
    }

    @Test
    void aWildcardBindAdvertisesTheHostNameUnlessAnotherIsGiven() throws IOException {
        AppConfig all = config("run", "--bootstrap-servers", "k:9092", "--http-host", "0.0.0.0");
        assertThat(all.httpBindHost()).isEqualTo("0.0.0.0");
        assertThat(all.httpHost()).isEqualTo(InetAddress.getLocalHost().getHostName());
        AppConfig named =
                config("run", "--bootstrap-servers", "k:9092", "--http-host", "::", "--advertised-host", "app");
        assertThat(named.httpBindHost()).isEqualTo("::");
        assertThat(named.httpHost()).isEqualTo("app");
        AppConfig one = config("run", "--bootstrap-servers", "k:9092", "--http-host", "10.1.2.3");
        assertThat(one.httpHost()).isEqualTo("10.1.2.3");
    }

    @Test
    void theTokenComesFromTheOptionElseTheEnvironment() {
        Map<String, String> env = Map.of("COORDINATE_HTTP_TOKEN", "from-env");
        assertThat(run(env, "run", "--bootstrap-servers", "k:9092").config().httpToken())
                .isEqualTo("from-env");
        assertThat(run(env, "run", "--bootstrap-servers", "k:9092", "--http-token", "opt")
                        .config()
                        .httpToken())
                .isEqualTo("opt");
        assertThat(run(Map.of("COORDINATE_HTTP_TOKEN", " "), "run", "--bootstrap-servers", "k:9092")
                        .config()
                        .httpToken())
                .isNull();
    }

    @Test
    void theFeedsNeedTheTokenWhenTheOptionOrTheEnvironmentSaysSoAndOnlyWithAToken() {
        String[] args = {"run", "--bootstrap-servers", "k:9092"};
        assertThat(run(Map.of("COORDINATE_HTTP_TOKEN", "t"), args).config().feedsNeedToken())
                .isFalse();
        assertThat(run(
                                Map.of("COORDINATE_HTTP_TOKEN", "t"),
                                "run",
                                "--bootstrap-servers",
                                "k:9092",
                                "--feeds-need-token")
                        .config()
                        .feedsNeedToken())
                .isTrue();
        assertThat(run(Map.of("COORDINATE_HTTP_TOKEN", "t", "COORDINATE_FEEDS_NEED_TOKEN", "true"), args)
                        .config()
                        .feedsNeedToken())
                .isTrue();
        RunCommand withoutToken = run(Map.of("COORDINATE_FEEDS_NEED_TOKEN", "true"), args);
        assertThatThrownBy(withoutToken::config).isInstanceOfSatisfying(CliFailure.class, e -> {
            assertThat(e.exitCode()).isEqualTo(ExitCodes.USAGE);
            assertThat(e.getMessage())
                    .isEqualTo("error: --feeds-need-token (COORDINATE_FEEDS_NEED_TOKEN) needs a token: "
                            + "set COORDINATE_HTTP_TOKEN or --http-token");
        });
    }

    @Test
    void devTakesTheSameHttpOptions() {
        CommandLine.ParseResult parsed = CoordinateCli.commandLine()
                .parseArgs("dev", "--http-host", "0.0.0.0", "--advertised-host", "me", "--http-token", "t");
        DevCommand dev = (DevCommand) parsed.subcommand().commandSpec().userObject();
        AppConfig config = dev.http.apply(AppConfig.defaults("b:1", 0, tmp));
        assertThat(config.httpBindHost()).isEqualTo("0.0.0.0");
        assertThat(config.httpHost()).isEqualTo("me");
        assertThat(config.httpToken()).isEqualTo("t");
        assertThat(dev.http.localHost()).isEqualTo("127.0.0.1");
    }

    @Test
    void theKafkaConfigFileBecomesTheClientProperties() throws IOException {
        Path file = tmp.resolve("client.properties");
        Files.writeString(
                file,
                "# SASL\nsecurity.protocol=SASL_SSL\nsasl.mechanism = SCRAM-SHA-512\n"
                        + "ssl.truststore.location=/etc/kafka/truststore.jks\n");
        AppConfig config = config("run", "--bootstrap-servers", "k:9092", "--kafka-config", file.toString());
        assertThat(config.kafkaProperties())
                .isEqualTo(Map.of(
                        "security.protocol",
                        "SASL_SSL",
                        "sasl.mechanism",
                        "SCRAM-SHA-512",
                        "ssl.truststore.location",
                        "/etc/kafka/truststore.jks"));
    }

    @Test
    void replicationReachesEveryTopicTheAppCreates() {
        AppConfig config = config(
                "run", "--bootstrap-servers", "k:9092", "--replication-factor", "3", "--min-insync-replicas", "2");
        assertThat(config.replicationFactor()).isEqualTo(3);
        assertThat(config.minInsyncReplicas()).isEqualTo(2);
        List<TopicDefinition> topics = AppLauncher.topics(config);
        assertThat(topics).hasSize(TopicDefinitions.fromClasspath().size());
        for (TopicDefinition topic : topics) {
            assertThat(topic.replicationFactor()).as(topic.name()).isEqualTo((short) 3);
            assertThat(topic.configs()).as(topic.name()).containsEntry("min.insync.replicas", "2");
        }
        // Not configured: the files' values, no min.insync.replicas of the app's.
        assertThat(AppLauncher.topics(config("run", "--bootstrap-servers", "k:9092")))
                .isEqualTo(TopicDefinitions.fromClasspath());
    }

    @Test
    void aMinimumInSyncAboveTheReplicationFactorIsAUsageError() {
        StringWriter err = new StringWriter();
        CommandLine cli = CoordinateCli.commandLine();
        cli.setErr(new PrintWriter(err));
        int exit = cli.execute(
                "run",
                "--bootstrap-servers",
                "127.0.0.1:1",
                "--data-dir",
                tmp.toString(),
                "--replication-factor",
                "2",
                "--min-insync-replicas",
                "3");
        assertThat(exit).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(err.toString())
                .startsWith("--replication-factor must be in 1..32767, --min-insync-replicas >= 1 "
                        + "and at most the replication factor");
    }

    @Test
    void runAgainstAPortWhereNothingListensFailsWithOneLineNamingTheAddress() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = CoordinateCli.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        int exit = cli.execute(
                "run", "--bootstrap-servers", "127.0.0.1:" + port, "--data-dir", tmp.toString(), "--http-port", "0");
        assertThat(exit).isEqualTo(ExitCodes.UNREACHABLE);
        assertThat(err.toString())
                .isEqualTo("cannot reach Kafka at 127.0.0.1:" + port + ": Connection refused (127.0.0.1:" + port + ")"
                        + System.lineSeparator());
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void aBootstrapNameThatDoesNotResolveFailsTheSameWay() {
        StringWriter err = new StringWriter();
        CommandLine cli = CoordinateCli.commandLine();
        cli.setErr(new PrintWriter(err));
        int exit = cli.execute("run", "--bootstrap-servers", "no-such-host.invalid:9092", "--data-dir", tmp.toString());
        assertThat(exit).isEqualTo(ExitCodes.UNREACHABLE);
        assertThat(err.toString())
                .isEqualTo("cannot reach Kafka at no-such-host.invalid:9092: unknown host " + "no-such-host.invalid"
                        + System.lineSeparator());
    }
}
