package io.coordinate.config;

import java.nio.file.Path;
import java.util.Map;
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
 * @param httpBindHost     the address the HTTP API listens on
 * @param httpToken        when set, every mutation over HTTP needs {@code Authorization: Bearer <token>}; null: none
 * @param kafkaProperties  client properties (TLS, SASL, ...) given to every Kafka client of the app
 * @param replicationFactor replication factor of the topics the app creates, its internal ones included; 0: the
 *                         topic files' value for the topics, the broker's default for the internal ones
 * @param minInsyncReplicas {@code min.insync.replicas} of the topics the app creates; 0: the broker's default
 * @param standbyReplicas  Kafka Streams standby replicas per task
 * @param instanceId       a stable name of this instance ({@code group.instance.id}: static membership); null: none
 * @param http             the HTTP API's connection bounds and the hosts and origins it answers; null: the defaults
 * @param feedsNeedToken   reading the event feed and the dead letters over HTTP needs the token too (one must be set)
 */
public record AppConfig(
        String bootstrapServers,
        String applicationId,
        String httpHost,
        int httpPort,
        Path stateDir,
        String topicPrefix,
        long commitIntervalMs,
        long punctuateIntervalMs,
        String httpBindHost,
        String httpToken,
        Map<String, String> kafkaProperties,
        int replicationFactor,
        int minInsyncReplicas,
        int standbyReplicas,
        String instanceId,
        HttpSettings http,
        boolean feedsNeedToken) {

    public static final String DEFAULT_APPLICATION_ID = "coordinate";
    /** See docs/operations.md ("When the app commits"): under a steady load the app commits every 100 ms. */
    public static final long DEFAULT_COMMIT_INTERVAL_MS = 100;

    public static final long DEFAULT_PUNCTUATE_INTERVAL_MS = 1000;
    public static final String DEFAULT_HTTP_HOST = "127.0.0.1";

    public AppConfig {
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        Objects.requireNonNull(applicationId, "applicationId");
        Objects.requireNonNull(httpHost, "httpHost");
        Objects.requireNonNull(stateDir, "stateDir");
        topicPrefix = topicPrefix == null ? "" : topicPrefix;
        httpBindHost = httpBindHost == null ? DEFAULT_HTTP_HOST : httpBindHost;
        kafkaProperties = kafkaProperties == null ? Map.of() : Map.copyOf(kafkaProperties);
        http = http == null ? HttpSettings.DEFAULTS : http;
        if (feedsNeedToken && httpToken == null) {
            throw new IllegalArgumentException("the feeds cannot need the HTTP token: none is set");
        }
    }

    /** The settings of the eight first components, the others at their defaults. */
    public AppConfig(
            String bootstrapServers,
            String applicationId,
            String httpHost,
            int httpPort,
            Path stateDir,
            String topicPrefix,
            long commitIntervalMs,
            long punctuateIntervalMs) {
        this(
                bootstrapServers,
                applicationId,
                httpHost,
                httpPort,
                stateDir,
                topicPrefix,
                commitIntervalMs,
                punctuateIntervalMs,
                DEFAULT_HTTP_HOST,
                null,
                Map.of(),
                0,
                0,
                0,
                null,
                null,
                false);
    }

    public static AppConfig defaults(String bootstrapServers, int httpPort, Path stateDir) {
        return new AppConfig(
                bootstrapServers,
                DEFAULT_APPLICATION_ID,
                DEFAULT_HTTP_HOST,
                httpPort,
                stateDir,
                "",
                DEFAULT_COMMIT_INTERVAL_MS,
                DEFAULT_PUNCTUATE_INTERVAL_MS);
    }

    public AppConfig withCommitIntervalMs(long intervalMs) {
        return new AppConfig(
                bootstrapServers,
                applicationId,
                httpHost,
                httpPort,
                stateDir,
                topicPrefix,
                intervalMs,
                punctuateIntervalMs,
                httpBindHost,
                httpToken,
                kafkaProperties,
                replicationFactor,
                minInsyncReplicas,
                standbyReplicas,
                instanceId,
                http,
                feedsNeedToken);
    }

    public AppConfig withHttpPort(int port) {
        return new AppConfig(
                bootstrapServers,
                applicationId,
                httpHost,
                port,
                stateDir,
                topicPrefix,
                commitIntervalMs,
                punctuateIntervalMs,
                httpBindHost,
                httpToken,
                kafkaProperties,
                replicationFactor,
                minInsyncReplicas,
                standbyReplicas,
                instanceId,
                http,
                feedsNeedToken);
    }

    /** Where HTTP listens ({@code bindHost}) and the name other instances reach it by ({@code advertisedHost}). */
    public AppConfig withHttp(String bindHost, String advertisedHost, String token) {
        return new AppConfig(
                bootstrapServers,
                applicationId,
                advertisedHost,
                httpPort,
                stateDir,
                topicPrefix,
                commitIntervalMs,
                punctuateIntervalMs,
                bindHost,
                token,
                kafkaProperties,
                replicationFactor,
                minInsyncReplicas,
                standbyReplicas,
                instanceId,
                http,
                feedsNeedToken);
    }

    /** Whether reading the feeds over HTTP needs the token ({@link #withHttp} sets it first). */
    public AppConfig withFeedsNeedToken(boolean needToken) {
        return new AppConfig(
                bootstrapServers,
                applicationId,
                httpHost,
                httpPort,
                stateDir,
                topicPrefix,
                commitIntervalMs,
                punctuateIntervalMs,
                httpBindHost,
                httpToken,
                kafkaProperties,
                replicationFactor,
                minInsyncReplicas,
                standbyReplicas,
                instanceId,
                http,
                needToken);
    }

    public AppConfig withKafkaProperties(Map<String, String> properties) {
        return new AppConfig(
                bootstrapServers,
                applicationId,
                httpHost,
                httpPort,
                stateDir,
                topicPrefix,
                commitIntervalMs,
                punctuateIntervalMs,
                httpBindHost,
                httpToken,
                properties,
                replicationFactor,
                minInsyncReplicas,
                standbyReplicas,
                instanceId,
                http,
                feedsNeedToken);
    }

    public AppConfig withReplication(int factor, int minInsync) {
        return new AppConfig(
                bootstrapServers,
                applicationId,
                httpHost,
                httpPort,
                stateDir,
                topicPrefix,
                commitIntervalMs,
                punctuateIntervalMs,
                httpBindHost,
                httpToken,
                kafkaProperties,
                factor,
                minInsync,
                standbyReplicas,
                instanceId,
                http,
                feedsNeedToken);
    }

    public AppConfig withHttpSettings(HttpSettings settings) {
        return new AppConfig(
                bootstrapServers,
                applicationId,
                httpHost,
                httpPort,
                stateDir,
                topicPrefix,
                commitIntervalMs,
                punctuateIntervalMs,
                httpBindHost,
                httpToken,
                kafkaProperties,
                replicationFactor,
                minInsyncReplicas,
                standbyReplicas,
                instanceId,
                settings,
                feedsNeedToken);
    }

    public AppConfig withMembership(int standbys, String instance) {
        return new AppConfig(
                bootstrapServers,
                applicationId,
                httpHost,
                httpPort,
                stateDir,
                topicPrefix,
                commitIntervalMs,
                punctuateIntervalMs,
                httpBindHost,
                httpToken,
                kafkaProperties,
                replicationFactor,
                minInsyncReplicas,
                standbys,
                instance,
                http,
                feedsNeedToken);
    }
}
