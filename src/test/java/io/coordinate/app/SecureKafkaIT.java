package io.coordinate.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.broker.EmbeddedKafkaBroker;
import io.coordinate.cli.CoordinateCli;
import io.coordinate.cli.ExitCodes;
import io.coordinate.cli.RunCommand;
import io.coordinate.cli.SseParser;
import io.coordinate.protocol.Json;
import io.coordinate.testing.SseStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The app against a broker that wants SASL credentials (SASL_PLAINTEXT, mechanism PLAIN), started as an operator
 * would: {@code run --kafka-config FILE --min-insync-replicas 1 --http-token ...}, with HTTP at its default address.
 * Every Kafka client of the app must carry the file's credentials for a command to come back over HTTP: the topic
 * bootstrapper's and the partition count's Admin, Kafka Streams' clients, the HTTP gateway's producer and consumer.
 */
class SecureKafkaIT {

    private static final String TOKEN = "it-token";
    private static final String CHANGELOG = "coordinate-coordinate-state-changelog";
    private static final HttpClient HTTP =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @TempDir
    static Path dir;

    private static EmbeddedKafkaBroker broker;
    private static CoordinateApplication app;
    private static Path clientConfig;

    @BeforeAll
    static void start() throws Exception {
        broker = EmbeddedKafkaBroker.startWithSaslPlain(dir.resolve("kafka"), 0, Map.of("app", "app-secret"));
        clientConfig = write("client.properties", EmbeddedKafkaBroker.saslPlainClient("app", "app-secret"));
        CommandLine.ParseResult parsed = CoordinateCli.commandLine()
                .parseArgs(
                        "run",
                        "--bootstrap-servers",
                        broker.bootstrapServers(),
                        "--kafka-config",
                        clientConfig.toString(),
                        "--http-port",
                        "0",
                        "--data-dir",
                        dir.toString(),
                        "--replication-factor",
                        "1",
                        "--min-insync-replicas",
                        "1",
                        "--http-token",
                        TOKEN);
        app = AppLauncher.start(((RunCommand) parsed.subcommand().commandSpec().userObject()).config());
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void aCommandGoesThroughEveryClientAndReadsBackOverHttp() throws Exception {
        HttpResponse<String> unauthorized = post(
                "/api/namespaces/sec/commands", "{\"command\":\"set_work_spec\",\"work_spec\":{\"name\":\"s\"}}", null);
        assertThat(unauthorized.statusCode()).isEqualTo(401);
        assertThat(Json.parse(unauthorized.body()).at("/error/code").asText()).isEqualTo("unauthorized");

        HttpResponse<String> spec = post(
                "/api/namespaces/sec/commands",
                "{\"command\":\"set_work_spec\",\"work_spec\":{\"name\":\"s\"}}",
                TOKEN);
        assertThat(spec.statusCode()).as(spec.body()).isEqualTo(200);
        HttpResponse<String> units = post(
                "/api/namespaces/sec/commands",
                "{\"command\":\"add_work_units\","
                        + "\"work_spec_name\":\"s\",\"work_units\":[{\"name\":\"u1\"},{\"name\":\"u2\",\"priority\":5}]}",
                TOKEN);
        assertThat(units.statusCode()).as(units.body()).isEqualTo(200);

        HttpResponse<String> read = get("/api/namespaces/sec/work-specs/s/work-units");
        assertThat(read.statusCode()).isEqualTo(200);
        JsonNode listed = Json.parse(read.body()).get("work_units");
        assertThat(listed).hasSize(2);
        assertThat(listed.get(0).get("name").asText()).isEqualTo("u1");
        assertThat(listed.get(0).get("status").asText()).isEqualTo("available");
        assertThat(listed.get(1).get("name").asText()).isEqualTo("u2");
        assertThat(listed.get(1).get("priority").asInt()).isEqualTo(5);
        // The namespace sec was never destroyed: the 401 above sent nothing, so the spec set afterwards is the only
        // one.
        assertThat(Json.parse(get("/api/namespaces/sec/work-specs").body()).get("work_specs"))
                .hasSize(1);
    }

    /** The event feed and the dead letters read Kafka with the file's credentials; a retry is a mutation. */
    @Test
    void theEventFeedAndTheDeadLettersReadWithTheCredentialsAndRetryNeedsTheToken() {
        HttpResponse<String> spec = post(
                "/api/namespaces/sec-feed/commands",
                "{\"command\":\"set_work_spec\",\"work_spec\":{\"name\":\"s\"}}",
                TOKEN);
        assertThat(spec.statusCode()).as(spec.body()).isEqualTo(200);
        try (SseStream stream = SseStream.open(uri("/api/namespaces/sec-feed/events?from=earliest"), null)) {
            assertThat(stream.status()).isEqualTo(200);
            SseParser.Message batch = stream.next(Duration.ofSeconds(60));
            assertThat(batch.event()).isEqualTo("batch");
            assertThat(Json.parse(batch.data()).get("events"))
                    .isEqualTo(Json.parse("[{\"type\":\"work_spec_set\",\"work_spec_name\":\"s\",\"created\":true}]"));
            assertThat(stream.next(Duration.ofSeconds(60)).event()).isEqualTo("caught_up");
        }

        HttpResponse<String> list = get("/api/dead-letters?namespace=sec-feed");
        assertThat(list.statusCode()).as(list.body()).isEqualTo(200);
        assertThat(Json.parse(list.body())).isEqualTo(Json.parse("{\"dead_letters\":[]}"));
        HttpResponse<String> unauthorized = post("/api/dead-letters/0/0/retry", "", null);
        assertThat(unauthorized.statusCode()).isEqualTo(401);
        assertThat(Json.parse(unauthorized.body()).at("/error/code").asText()).isEqualTo("unauthorized");
        HttpResponse<String> none = post("/api/dead-letters/0/0/retry", "", TOKEN);
        assertThat(none.statusCode()).as(none.body()).isEqualTo(404);
        assertThat(Json.parse(none.body()).at("/error/code").asText()).isEqualTo("no_such_dead_letter");
    }

    @Test
    void theChangelogAndTheTopicsGetMinInSyncReplicasExplicitly() throws Exception {
        try (Admin admin = admin(EmbeddedKafkaBroker.saslPlainClient("app", "app-secret"))) {
            for (String topic : List.of(CHANGELOG, "coordinate.commands", "coordinate.events")) {
                ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
                Config config =
                        admin.describeConfigs(List.of(resource)).all().get().get(resource);
                ConfigEntry minIsr = config.get("min.insync.replicas");
                assertThat(minIsr.value()).as(topic).isEqualTo("1");
                assertThat(minIsr.source()).as(topic).isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG);
            }
        }
    }

    @Test
    void aClientWithoutCredentialsCannotListTopics() {
        try (Admin anonymous = admin(Map.of())) {
            assertThatThrownBy(() -> anonymous.listTopics().names().get()).isInstanceOf(ExecutionException.class);
        }
        try (Admin wrong = admin(EmbeddedKafkaBroker.saslPlainClient("app", "guess"))) {
            assertThatThrownBy(() -> wrong.listTopics().names().get())
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(SaslAuthenticationException.class);
        }
    }

    @Test
    void runWithWrongCredentialsFailsWithOneLine() throws IOException {
        Path wrong = write("wrong.properties", EmbeddedKafkaBroker.saslPlainClient("app", "guess"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = CoordinateCli.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        int exit = cli.execute(
                "run",
                "--bootstrap-servers",
                broker.bootstrapServers(),
                "--kafka-config",
                wrong.toString(),
                "--http-port",
                "0",
                "--data-dir",
                dir.resolve("wrong").toString());
        assertThat(exit).isEqualTo(ExitCodes.UNREACHABLE);
        assertThat(err.toString())
                .isEqualTo("cannot reach Kafka at " + broker.bootstrapServers()
                        + ": Authentication failed: Invalid username or password"
                        + System.lineSeparator());
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void httpListensOnTheLoopbackAddressOnlyByDefault() {
        assertThat(app.config().httpBindHost()).isEqualTo("127.0.0.1");
        assertThat(get("/health").statusCode()).isEqualTo(200);
        Optional<InetAddress> other = nonLoopbackAddress();
        assumeThat(other)
                .as("this machine has an address other than the loopback one")
                .isPresent();
        try (Socket socket = new Socket()) {
            assertThatThrownBy(() -> socket.connect(new InetSocketAddress(other.get(), app.httpPort()), 5_000))
                    .isInstanceOf(IOException.class);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static Admin admin(Map<String, String> security) {
        Map<String, Object> props = new HashMap<>(security);
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5_000);
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 4_000);
        return Admin.create(props);
    }

    private static Path write(String name, Map<String, String> properties) throws IOException {
        Properties props = new Properties();
        props.putAll(properties);
        Path file = dir.resolve(name);
        try (var writer = Files.newBufferedWriter(file)) {
            props.store(writer, "Kafka client settings");
        }
        return file;
    }

    private static HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(uri(path)).GET());
    }

    private static HttpResponse<String> post(String path, String body, String token) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        return send(token == null ? request : request.header("Authorization", "Bearer " + token));
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return HTTP.send(request.timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException | InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    private static URI uri(String path) {
        return URI.create("http://127.0.0.1:" + app.httpPort() + path);
    }

    private static Optional<InetAddress> nonLoopbackAddress() {
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (nic.isUp() && !nic.isLoopback()) {
                    for (InetAddress address : Collections.list(nic.getInetAddresses())) {
                        if (address instanceof Inet4Address) {
                            return Optional.of(address);
                        }
                    }
                }
            }
        } catch (IOException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }
}
