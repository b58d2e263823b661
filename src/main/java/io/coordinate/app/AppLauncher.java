package io.coordinate.app;

import io.coordinate.config.AppConfig;
import io.coordinate.config.KafkaClientSettings;
import io.coordinate.streams.topics.TopicBootstrapper;
import io.coordinate.streams.topics.TopicDefinition;
import io.coordinate.streams.topics.TopicDefinitions;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.config.TopicConfig;

/** Creates the missing topics, then starts the app: the part shared by {@code dev}, {@code run} and tests. */
public final class AppLauncher {

    private AppLauncher() {}

    /**
     * Returns once the app serves. The topics come from the classpath copy of {@code topics/}, with the config's
     * replication factor and {@code min.insync.replicas} when it sets them.
     *
     * @throws io.coordinate.streams.topics.KafkaUnreachableException when the cluster does not answer
     */
    public static CoordinateApplication start(AppConfig config) throws InterruptedException {
        TopicBootstrapper.ensureTopics(KafkaClientSettings.base(config), config.topicPrefix(), topics(config));
        CoordinateApplication app = new CoordinateApplication(config);
        try {
            app.start();
        } catch (RuntimeException | InterruptedException e) {
            app.close();
            throw e;
        }
        return app;
    }

    /** @deprecated the replication factor is {@link AppConfig#replicationFactor()} now */
    @Deprecated
    public static CoordinateApplication start(AppConfig config, Optional<Short> replicationFactor)
            throws InterruptedException {
        return start(replicationFactor
                .map(f -> config.withReplication(f, config.minInsyncReplicas()))
                .orElse(config));
    }

    /** The topic definitions of {@code topics/} as this config creates them. */
    public static List<TopicDefinition> topics(AppConfig config) {
        return TopicDefinitions.fromClasspath().stream()
                .map(t -> config.replicationFactor() > 0
                        ? t.withReplicationFactor((short) config.replicationFactor())
                        : t)
                .map(t -> config.minInsyncReplicas() > 0
                        ? t.withConfig(
                                TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, String.valueOf(config.minInsyncReplicas()))
                        : t)
                .toList();
    }
}
