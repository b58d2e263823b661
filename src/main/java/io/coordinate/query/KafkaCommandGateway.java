package io.coordinate.query;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.client.CoordinateClient;
import io.coordinate.protocol.TopicNames;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * The {@link CommandGateway} over Kafka: the Java client's {@link CoordinateClient#submit}, with this instance's
 * {@code reply_to} ({@code http-gateway-<uuid>}). The client keeps a command's {@code request_id} (the caller's key)
 * and matches the reply by a fresh {@code correlation_id}, or sets a fresh {@code request_id} on a command without
 * one; it reads the replies of its key from that key's partition only, read_committed (an aborted transaction must
 * not answer), from a position fixed before the first command is sent.
 */
public final class KafkaCommandGateway implements CommandGateway {

    private final CoordinateClient client;

    public KafkaCommandGateway(String bootstrapServers, TopicNames topics) {
        this(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers), topics);
    }

    /**
     * @param clientProperties what every client of the app starts from: bootstrap servers and the TLS and SASL
     *     settings ({@code io.coordinate.config.KafkaClientSettings.base})
     */
    public KafkaCommandGateway(Map<String, Object> clientProperties, TopicNames topics) {
        this.client = CoordinateClient.builder()
                .kafkaProperties(clientProperties)
                .topicPrefix(topics.prefix())
                .replyTo("http-gateway-" + UUID.randomUUID())
                .build();
    }

    /** The {@code reply_to} this gateway's commands carry. */
    public String replyTo() {
        return client.replyTo();
    }

    @Override
    public CompletableFuture<ObjectNode> submit(String namespace, ObjectNode command, Duration timeout) {
        try {
            return client.inNamespace(namespace).submit(command, timeout);
        } catch (RuntimeException e) { // e.g. an empty namespace: fail the call, as a send error would
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public void close() {
        client.close();
    }
}
