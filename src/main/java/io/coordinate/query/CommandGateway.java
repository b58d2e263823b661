package io.coordinate.query;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * Submits a command through {@code coordinate.commands} and completes with its reply from
 * {@code coordinate.replies}: the HTTP gateway for clients without a Kafka client.
 */
public interface CommandGateway extends AutoCloseable {

    /**
     * Sends the command and awaits the reply. The gateway sets its {@code reply_to} and what matches the reply; a
     * {@code request_id} the command carries is sent as it is.
     */
    CompletableFuture<ObjectNode> submit(String namespace, ObjectNode command, Duration timeout);

    @Override
    void close();
}
