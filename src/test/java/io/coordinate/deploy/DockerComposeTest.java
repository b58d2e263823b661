package io.coordinate.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.coordinate.cli.CoordinateCli;
import io.coordinate.cli.RunCommand;
import io.coordinate.config.AppConfig;
import io.coordinate.streams.topics.TopicDefinition;
import io.coordinate.streams.topics.TopicDefinitions;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * docker-compose.yml cannot run here (no Docker engine), so this test checks what it can: the topic-init loop, run by
 * bash against a stub kafka-topics.sh, creates exactly the topics of topics/; and the app's command line, parsed by
 * the real CLI, gives the expected settings.
 */
class DockerComposeTest {

    static JsonNode services;

    @BeforeAll
    static void parseCompose() throws IOException {
        JsonNode compose = new ObjectMapper(new YAMLFactory())
                .readTree(Paths.get("docker-compose.yml").toFile());
        services = compose.get("services");
    }

    @Test
    void kafkaIsASingleKraftNodeFromTheOfficialImage() {
        JsonNode kafka = services.get("kafka");
        assertThat(kafka.get("image").asText()).startsWith("apache/kafka:");
        JsonNode env = kafka.get("environment");
        assertThat(env.get("KAFKA_PROCESS_ROLES").asText()).isEqualTo("broker,controller");
        assertThat(env.get("KAFKA_ADVERTISED_LISTENERS").asText()).contains("PLAINTEXT://kafka:9092");
        assertThat(env.get("KAFKA_AUTO_CREATE_TOPICS_ENABLE").asText()).isEqualTo("false");
        assertThat(env.get("KAFKA_TRANSACTION_STATE_LOG_MIN_ISR").asInt()).isEqualTo(1);
        assertThat(Uuid.fromString(env.get("CLUSTER_ID").asText())).isNotNull(); // else the image cannot format
    }

    @Test
    void topicInitLoopCreatesEveryTopicOfTheTopicsFolder(@TempDir Path tmp) throws Exception {
        JsonNode topics = services.get("topics");
        assertThat(topics.get("depends_on").get("kafka").get("condition").asText())
                .isEqualTo("service_healthy");
        String topicsDir = topics.get("environment").get("TOPICS_DIR").asText();
        assertThat(texts(topics.get("volumes"))).contains("./topics:" + topicsDir + ":ro");

        List<String> invocations = runLoop(topics, tmp, Map.of());
        List<String> expected = new ArrayList<>();
        for (TopicDefinition t : TopicDefinitions.fromDirectory(Paths.get("topics"))) {
            expected.add(kafkaTopicsArgs("", t, t.replicationFactor()));
        }
        assertThat(invocations).containsExactlyInAnyOrderElementsOf(expected).hasSize(7);

        // Production overrides: a prefix and a replication factor from the environment.
        List<String> overridden = runLoop(topics, tmp, Map.of("TOPIC_PREFIX", "prod-", "REPLICATION_FACTOR", "3"));
        assertThat(overridden)
                .contains(kafkaTopicsArgs(
                        "prod-", TopicDefinitions.fromClasspath().get(0), (short) 3));
    }

    @Test
    void appRunsTheCliAgainstTheComposeBrokerWithPersistentState() throws UnknownHostException {
        JsonNode app = services.get("app");
        assertThat(app.get("build").asText()).isEqualTo(".");
        assertThat(app.get("depends_on").get("topics").get("condition").asText())
                .isEqualTo("service_completed_successfully");

        List<String> command = texts(app.get("command")).stream()
                .map(DockerComposeTest::interpolate)
                .toList();
        assertThat(command.get(0)).isEqualTo("run");
        CommandLine cli = new CommandLine(new CoordinateCli());
        CommandLine.ParseResult parsed = cli.parseArgs(command.toArray(String[]::new));
        AppConfig config = ((RunCommand) parsed.subcommand().commandSpec().userObject()).config();

        assertThat(config.bootstrapServers()).isEqualTo("kafka:9092");
        assertThat(config.httpPort()).isEqualTo(8080);
        // No --advertised-host: each instance gives the others its own host name, in a container the container's
        // short id, which Docker's DNS resolves (the service name would resolve to every instance).
        assertThat(config.httpHost()).isEqualTo(InetAddress.getLocalHost().getHostName());
        // the container's loopback address is its own: the published port reaches only a wildcard bind
        assertThat(config.httpBindHost()).isEqualTo("0.0.0.0");
        assertThat(app.get("environment").get("COORDINATE_HTTP_TOKEN").asText())
                .isEqualTo("${COORDINATE_HTTP_TOKEN:-}");
        assertThat(config.applicationId()).isEqualTo("coordinate");
        assertThat(config.topicPrefix()).isEmpty();
        assertThat(config.stateDir()).isEqualTo(Paths.get("/var/lib/coordinate/streams"));
        assertThat(texts(app.get("ports"))).containsExactly("8080-8081:8080");
        assertThat(texts(app.get("volumes"))).containsExactly("/var/lib/coordinate"); // one per instance
    }

    @Test
    void dockerfileBuildsWithMavenAndRunsTheCli() throws IOException {
        String dockerfile = Files.readString(Paths.get("Dockerfile"));
        assertThat(dockerfile)
                .contains("FROM maven:")
                .contains("COPY topics ./topics")
                .contains("\"io.coordinate.cli.CoordinateCli\"]")
                .contains("CMD [\"run\", \"--bootstrap-servers\", \"kafka:9092\", \"--http-host\", \"0.0.0.0\"");
    }

    /** Runs the service's bash script (after compose's "$$" → "$") with a stub kafka-topics.sh that logs its args. */
    private static List<String> runLoop(JsonNode service, Path tmp, Map<String, String> overrides) throws Exception {
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Path log = tmp.resolve("invocations.txt");
        Files.deleteIfExists(log);
        Path stub = bin.resolve("kafka-topics.sh");
        Files.writeString(stub, "#!/bin/bash\necho \"$*\" >> '" + log + "'\n");
        Files.setPosixFilePermissions(stub, PosixFilePermissions.fromString("rwxr-xr-x"));

        List<String> entrypoint = texts(service.get("entrypoint"));
        String script = service.get("command").get(0).asText().replace("$$", "$");
        ProcessBuilder pb = new ProcessBuilder(entrypoint.get(0), entrypoint.get(1), script);
        service.get("environment")
                .fields()
                .forEachRemaining(e -> pb.environment()
                        .put(e.getKey(), interpolate(e.getValue().asText())));
        pb.environment().put("TOPICS_DIR", Paths.get("topics").toAbsolutePath().toString());
        pb.environment().put("KAFKA_BIN", bin.toString());
        pb.environment().putAll(overrides);
        pb.redirectErrorStream(true).redirectOutput(tmp.resolve("out.txt").toFile());
        Process process = pb.start();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue())
                .as(Files.readString(tmp.resolve("out.txt")))
                .isZero();
        return Files.readAllLines(log).stream()
                .map(DockerComposeTest::sortConfigs)
                .toList();
    }

    /** The loop passes configs in file order; compare them as a set. */
    private static String sortConfigs(String args) {
        String[] parts = args.split(" --config ");
        return parts[0]
                + Arrays.stream(parts, 1, parts.length)
                        .sorted()
                        .map(c -> " --config " + c)
                        .collect(Collectors.joining());
    }

    private static String kafkaTopicsArgs(String prefix, TopicDefinition t, short replication) {
        StringBuilder args = new StringBuilder("--bootstrap-server kafka:9092 --create --if-not-exists")
                .append(" --topic ")
                .append(t.prefixedName(prefix))
                .append(" --partitions ")
                .append(t.partitions())
                .append(" --replication-factor ")
                .append(replication);
        t.configs()
                .forEach((k, v) ->
                        args.append(" --config ").append(k).append('=').append(v));
        return sortConfigs(args.toString());
    }

    /** Compose's "${VAR:-default}" with no VAR set: the default. */
    private static String interpolate(String value) {
        Matcher m = Pattern.compile("\\$\\{[A-Z_]+:-([^}]*)}").matcher(value);
        return m.replaceAll(r -> Matcher.quoteReplacement(r.group(1)));
    }

    private static List<String> texts(JsonNode array) {
        List<String> result = new ArrayList<>();
        array.forEach(n -> result.add(n.asText()));
        return result;
    }
}
