package io.coordinate.query;

import io.coordinate.protocol.TopicNames;
import io.javalin.router.JavalinDefaultRouting;
import java.util.Map;

/**
 * The routes read from Kafka rather than from the state stores: the event feed ({@link EventRoutes}) and the dead
 * letters ({@link DeadLetterRoutes}). Any instance serves them, with the app's Kafka client settings. Each read
 * holds a consumer, so an instance may keep them for the holders of its token ({@code readToken}).
 */
final class FeedRoutes implements AutoCloseable {

    private final EventRoutes events;
    private final DeadLetterRoutes deadLetters;
    private final BearerToken readToken;

    /**
     * @param clientProperties bootstrap servers, TLS and SASL ({@code KafkaClientSettings.base})
     * @param readToken        when not null, reading the feeds (GET too) needs this token
     */
    FeedRoutes(
            Map<String, Object> clientProperties, TopicNames topics, EventRoutes.Limits limits, BearerToken readToken) {
        this.events = new EventRoutes(clientProperties, topics.events(), limits);
        this.deadLetters = new DeadLetterRoutes(clientProperties, topics);
        this.readToken = readToken;
    }

    void register(JavalinDefaultRouting routes) {
        if (readToken != null) {
            for (String path : new String[] {EventRoutes.PATH, DeadLetterRoutes.LIST_PATH}) {
                routes.before(path, ctx -> readToken.require(ctx, "reading the event feed and the dead letters"));
            }
        }
        events.register(routes);
        deadLetters.register(routes);
    }

    @Override
    public void close() {
        events.close();
        deadLetters.close();
    }
}
