package io.coordinate.query;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * Submits a command through {@code coordinate.commands} and completes with its reply from
 * {@code coordinate.replies}: the HTTP gateway for clients without a Kafka client.
 */
public interface CommandGateway extends AutoCloseable {

  /** Sends the command (its {@code reply_to}/{@code request_id} are set by the gateway) and awaits the reply. */
  CompletableFuture<ObjectNode> submit(String namespace, ObjectNode command, Duration timeout);

  @Override
  void close();
}
