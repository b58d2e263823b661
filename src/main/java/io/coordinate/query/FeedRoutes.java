package io.coordinate.query;

import io.coordinate.protocol.TopicNames;
import io.javalin.router.JavalinDefaultRouting;
import java.time.Duration;
import java.util.Map;

/**
 * The routes read from Kafka rather than from the state stores: the event feed ({@link EventRoutes}) and the dead
 * letters ({@link DeadLetterRoutes}). Any instance serves them, with the app's Kafka client settings.
 */
final class FeedRoutes implements AutoCloseable {

  private final EventRoutes events;
  private final DeadLetterRoutes deadLetters;

  /** @param clientProperties bootstrap servers, TLS and SASL ({@code KafkaClientSettings.base}) */
  FeedRoutes(Map<String, Object> clientProperties, TopicNames topics, int maxStreams, Duration heartbeat) {
    this.events = new EventRoutes(clientProperties, topics.events(), maxStreams, heartbeat);
    this.deadLetters = new DeadLetterRoutes(clientProperties, topics);
  }

  void register(JavalinDefaultRouting routes) {
    events.register(routes);
    deadLetters.register(routes);
  }

  @Override
  public void close() {
    events.close();
    deadLetters.close();
  }
}
