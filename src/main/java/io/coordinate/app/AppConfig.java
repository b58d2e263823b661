package io.coordinate.app;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Everything one instance of the app needs to run: where the cluster is, where its state lives and how it
 * serves queries. Built by the CLI ({@code bin/coordinate dev|run}) and by the integration tests.
 *
 * @param bootstrapServers Kafka bootstrap servers, {@code host:port[,host:port]}
 * @param applicationId    the Kafka Streams application id; instances with the same id share the partitions
 * @param httpHost         host name other instances use to reach this one's HTTP API ({@code application.server})
 * @param httpPort         port of the HTTP API (0 picks a free port)
 * @param stateDir         directory of the RocksDB state stores
 * @param topicPrefix      prefix of every topic name ("" for none)
 * @param commitIntervalMs the longest a command's outputs wait for their commit (streams.CommitPolicy commits sooner
 *                         when the input is idle); Kafka Streams' own {@code commit.interval.ms} is a backstop
 *                         derived from it
 * @param punctuateIntervalMs how often the wall-clock punctuator expires attempts and releases delayed units
 */
public record AppConfig(
    String bootstrapServers,
    String applicationId,
    String httpHost,
    int httpPort,
    Path stateDir,
    String topicPrefix,
    long commitIntervalMs,
    long punctuateIntervalMs) {

  public static final String DEFAULT_APPLICATION_ID = "coordinate";
  /** See docs/operations.md ("When the app commits"): under a steady load the app commits every 100 ms. */
  public static final long DEFAULT_COMMIT_INTERVAL_MS = 100;
  public static final long DEFAULT_PUNCTUATE_INTERVAL_MS = 1000;

  public AppConfig {
    Objects.requireNonNull(bootstrapServers, "bootstrapServers");
    Objects.requireNonNull(applicationId, "applicationId");
    Objects.requireNonNull(httpHost, "httpHost");
    Objects.requireNonNull(stateDir, "stateDir");
    topicPrefix = topicPrefix == null ? "" : topicPrefix;
  }

  public static AppConfig defaults(String bootstrapServers, int httpPort, Path stateDir) {
    return new AppConfig(bootstrapServers, DEFAULT_APPLICATION_ID, "127.0.0.1", httpPort, stateDir, "",
        DEFAULT_COMMIT_INTERVAL_MS, DEFAULT_PUNCTUATE_INTERVAL_MS);
  }

  public AppConfig withCommitIntervalMs(long intervalMs) {
    return new AppConfig(bootstrapServers, applicationId, httpHost, httpPort, stateDir, topicPrefix, intervalMs,
        punctuateIntervalMs);
  }

  public AppConfig withHttpPort(int port) {
    return new AppConfig(bootstrapServers, applicationId, httpHost, port, stateDir, topicPrefix, commitIntervalMs,
        punctuateIntervalMs);
  }
}
