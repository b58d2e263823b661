package io.coordinate.cli;

import io.coordinate.app.AppConfig;
import io.coordinate.app.CoordinateApplication;
import io.coordinate.streams.topics.TopicBootstrapper;
import io.coordinate.streams.topics.TopicDefinition;
import io.coordinate.streams.topics.TopicDefinitions;
import java.util.List;
import java.util.Optional;

/** Creates the missing topics, then starts the app: the part shared by {@code dev}, {@code run} and tests. */
public final class AppLauncher {

  private AppLauncher() {}

  /**
   * Returns once the app serves. The topics come from the classpath copy of {@code topics/}.
   *
   * @param replicationFactor overrides the files' (dev) replication factor for the topics created here
   */
  public static CoordinateApplication start(AppConfig config, Optional<Short> replicationFactor)
      throws InterruptedException {
    List<TopicDefinition> topics = TopicDefinitions.fromClasspath().stream()
        .map(t -> replicationFactor.map(t::withReplicationFactor).orElse(t))
        .toList();
    TopicBootstrapper.ensureTopics(config.bootstrapServers(), config.topicPrefix(), topics);
    CoordinateApplication app = new CoordinateApplication(config);
    try {
      app.start();
    } catch (RuntimeException | InterruptedException e) {
      app.close();
      throw e;
    }
    return app;
  }
}
