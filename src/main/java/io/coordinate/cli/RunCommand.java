package io.coordinate.cli;

import io.coordinate.app.AppConfig;
import io.coordinate.app.CoordinateApplication;
import io.coordinate.app.InstanceId;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code coordinate run}: the app against an existing cluster (production, docker-compose). */
@Command(name = "run",
    description = "Create missing topics and run the app against an existing Kafka cluster.")
public final class RunCommand implements Callable<Integer> {

  @Option(names = "--bootstrap-servers", required = true, paramLabel = "HOST:PORT[,HOST:PORT]",
      description = "Kafka bootstrap servers")
  String bootstrapServers;

  @Option(names = "--http-port", defaultValue = "8080", description = "HTTP API port (default: ${DEFAULT-VALUE})")
  int httpPort;

  @Option(names = "--http-host", defaultValue = "127.0.0.1",
      description = "Host name other instances use to reach this one's HTTP API (default: ${DEFAULT-VALUE})")
  String httpHost;

  @Option(names = "--data-dir", defaultValue = "./data",
      description = "Holds streams/ (state stores); relative to the working directory (default: ${DEFAULT-VALUE})")
  Path dataDir;

  @Option(names = "--application-id", defaultValue = AppConfig.DEFAULT_APPLICATION_ID,
      description = "Kafka Streams application id (default: ${DEFAULT-VALUE})")
  String applicationId;

  @Option(names = "--topic-prefix", defaultValue = "", description = "Prefix of every topic name (default: none)")
  String topicPrefix;

  @Option(names = "--replication-factor",
      description = "Replication factor of topics created here (default: the value in topics/, 1, for dev)")
  Short replicationFactor;

  // Membership and failover (docs/operations.md, "Failover and restarts").
  @Option(names = "--instance-id", paramLabel = "ID",
      description = "Stable name of this instance in the group (static membership); default: one generated once "
          + "and kept in the data dir's " + InstanceId.FILE + " file")
  String instanceId;

  @Option(names = "--standby-replicas", defaultValue = "" + DEFAULT_STANDBY_REPLICAS,
      description = "Warm copies of each partition's state on other instances, for fast failover "
          + "(default: ${DEFAULT-VALUE}; none is placed while a single instance runs)")
  int standbyReplicas;

  /** One standby: it costs nothing with one instance and spares the survivor of two a changelog restore. */
  static final int DEFAULT_STANDBY_REPLICAS = 1;

  /**
   * The app's settings from the options; public so a test can check docker-compose's command. The instance id is
   * the one given, null otherwise ({@link #call} then takes the data dir's).
   */
  public AppConfig config() {
    return new AppConfig(bootstrapServers, applicationId, httpHost, httpPort, dataDir.resolve("streams"),
        topicPrefix, AppConfig.DEFAULT_COMMIT_INTERVAL_MS, AppConfig.DEFAULT_PUNCTUATE_INTERVAL_MS)
        .withMembership(standbyReplicas, instanceId);
  }

  @Override
  public Integer call() throws Exception {
    AppConfig config = config();
    config = config.withMembership(config.standbyReplicas(), InstanceId.resolve(instanceId, dataDir));
    CoordinateApplication app = AppLauncher.start(config, Optional.ofNullable(replicationFactor));
    CoordinateCli.serveUntilSignalled(app, CoordinateCli.readyLine(bootstrapServers, app.httpPort()), System.out);
    return 0;
  }
}
