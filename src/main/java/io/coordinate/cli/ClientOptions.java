package io.coordinate.cli;

import io.coordinate.client.CoordinateClient;
import io.coordinate.config.KafkaClientSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * What every operator command needs to reach a deployment: Kafka for commands (a {@link CoordinateClient}), the HTTP
 * API of any instance for reads, and the namespace. A picocli mixin.
 */
public final class ClientOptions {

    /** How long a command waits for Kafka or for the app's reply before it gives up. */
    static final Duration TIMEOUT = Duration.ofSeconds(10);

    @Option(
            names = "--bootstrap-servers",
            defaultValue = "${env:COORDINATE_BOOTSTRAP_SERVERS:-127.0.0.1:9092}",
            description = "Kafka to send commands to (default: ${DEFAULT-VALUE}; env COORDINATE_BOOTSTRAP_SERVERS).")
    String bootstrapServers;

    @Option(
            names = {"-n", "--namespace"},
            required = true,
            defaultValue = "${env:COORDINATE_NAMESPACE}",
            description = "The namespace (env COORDINATE_NAMESPACE).")
    String namespace;

    @Option(
            names = "--http-url",
            defaultValue = "${env:COORDINATE_HTTP_URL:-http://127.0.0.1:8080}",
            description =
                    "The HTTP API of any app instance, for reads (default: ${DEFAULT-VALUE}; env COORDINATE_HTTP_URL).")
    String httpUrl;

    @Option(
            names = "--kafka-config",
            paramLabel = "FILE",
            description = "Kafka client settings (TLS, SASL) as a properties file.")
    Path kafkaConfig;

    @Option(names = "--topic-prefix", defaultValue = "", description = "The prefix of the deployment's topic names.")
    String topicPrefix;

    /**
     * A connected client (the caller closes it); fails with CoordinateUnreachableException within the timeout, at once
     * when nothing listens at the address or its name does not resolve.
     */
    public CoordinateClient client() {
        return CoordinateClient.builder()
                .bootstrapServers(bootstrapServers)
                .namespace(namespace)
                .topicPrefix(topicPrefix)
                .kafkaProperties(kafkaProperties())
                .timeout(TIMEOUT)
                .build();
    }

    public String namespace() {
        return namespace;
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** The HTTP API's base URL, without a trailing slash. */
    public String httpUrl() {
        return httpUrl.endsWith("/") ? httpUrl.substring(0, httpUrl.length() - 1) : httpUrl;
    }

    public String topicPrefix() {
        return topicPrefix;
    }

    /** The settings of {@code --kafka-config}, read as {@code run} reads them, and the bootstrap servers. */
    public Map<String, Object> kafkaProperties() {
        Map<String, Object> properties = new HashMap<>();
        if (kafkaConfig != null) {
            properties.putAll(KafkaClientSettings.load(kafkaConfig));
        }
        properties.put("bootstrap.servers", bootstrapServers);
        return properties;
    }
}
