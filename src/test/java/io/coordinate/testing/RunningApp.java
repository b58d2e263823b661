package io.coordinate.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.cli.DevEnvironment;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.TopicNames;
import io.coordinate.query.KafkaCommandGateway;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The app on an embedded broker, with what integration tests talk to it through: the command gateway
 * (request/reply over Kafka) and a plain Kafka/HTTP client. Closed in reverse order of starting.
 */
public final class RunningApp implements AutoCloseable {

    public static final Duration TIMEOUT = Duration.ofSeconds(60);

    private final DevEnvironment env;
    private final KafkaCommandGateway gateway;
    private final KafkaTestClient client;

    private RunningApp(DevEnvironment env) {
        this.env = env;
        this.gateway = new KafkaCommandGateway(env.bootstrapServers(), TopicNames.unprefixed());
        this.client = new KafkaTestClient(env.bootstrapServers(), env.httpPort());
    }

    public static RunningApp start(Path dataDir) throws InterruptedException {
        return new RunningApp(DevEnvironment.start(0, 0, dataDir));
    }

    /** Sends a command to {@code ns}, asserts an ok reply and returns its {@code result}. */
    public JsonNode call(String ns, String json) {
        JsonNode reply =
                gateway.submit(ns, (ObjectNode) Json.parse(json), TIMEOUT).join();
        assertThat(reply.get("ok").asBoolean())
                .as("reply to %s: %s", json, reply)
                .isTrue();
        return reply.get("result");
    }

    public DevEnvironment env() {
        return env;
    }

    public KafkaCommandGateway gateway() {
        return gateway;
    }

    public KafkaTestClient client() {
        return client;
    }

    @Override
    public void close() {
        client.close();
        gateway.close();
        env.close();
    }
}
