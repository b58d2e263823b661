package io.coordinate.cli;

import io.coordinate.app.AppLauncher;
import io.coordinate.app.CoordinateApplication;
import io.coordinate.app.InstanceId;
import io.coordinate.config.AppConfig;
import io.coordinate.config.KafkaClientSettings;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code coordinate run}: the app against an existing cluster (production, docker-compose). */
@Command(name = "run", description = "Create missing topics and run the app against an existing Kafka cluster.")
public final class RunCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(
            names = "--bootstrap-servers",
            required = true,
            paramLabel = "HOST:PORT[,HOST:PORT]",
            description = "Kafka bootstrap servers")
    String bootstrapServers;

    @Option(
            names = "--kafka-config",
            paramLabel = "FILE",
            description = "Java .properties file of Kafka client settings (security.protocol, sasl.*, ssl.*) given to "
                    + "every Kafka client of the app (default: none, plaintext)")
    Path kafkaConfig;

    @Option(names = "--http-port", defaultValue = "8080", description = "HTTP API port (default: ${DEFAULT-VALUE})")
    int httpPort;

    @Mixin
    HttpOptions http;

    @Option(
            names = "--data-dir",
            defaultValue = "./data",
            description =
                    "Holds streams/ (state stores); relative to the working directory (default: ${DEFAULT-VALUE})")
    Path dataDir;

    @Option(
            names = "--application-id",
            defaultValue = AppConfig.DEFAULT_APPLICATION_ID,
            description = "Kafka Streams application id (default: ${DEFAULT-VALUE})")
    String applicationId;

    @Option(names = "--topic-prefix", defaultValue = "", description = "Prefix of every topic name (default: none)")
    String topicPrefix;

    @Option(
            names = "--replication-factor",
            defaultValue = "0",
            description =
                    "Replication factor of the topics the app creates, its changelog included (default: the value "
                            + "in topics/, 1, for dev; the broker's default for the changelog)")
    int replicationFactor;

    @Option(
            names = "--min-insync-replicas",
            defaultValue = "0",
            description = "min.insync.replicas of the topics the app creates, its changelog included (default: the "
                    + "broker's)")
    int minInsyncReplicas;

    // Membership and failover (docs/operations.md, "Failover and restarts").
    @Option(
            names = "--instance-id",
            paramLabel = "ID",
            description = "Stable name of this instance in the group (static membership); default: one generated once "
                    + "and kept in the data dir's " + InstanceId.FILE + " file")
    String instanceId;

    @Option(
            names = "--standby-replicas",
            defaultValue = "" + DEFAULT_STANDBY_REPLICAS,
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
        if (replicationFactor < 0
                || replicationFactor > Short.MAX_VALUE
                || minInsyncReplicas < 0
                || (replicationFactor > 0 && minInsyncReplicas > replicationFactor)) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    "--replication-factor must be in 1.." + Short.MAX_VALUE
                            + ", --min-insync-replicas >= 1 and at most the replication factor");
        }
        Map<String, String> clientProperties = kafkaConfig == null ? Map.of() : KafkaClientSettings.load(kafkaConfig);
        AppConfig config = new AppConfig(
                bootstrapServers,
                applicationId,
                AppConfig.DEFAULT_HTTP_HOST,
                httpPort,
                dataDir.resolve("streams"),
                topicPrefix,
                AppConfig.DEFAULT_COMMIT_INTERVAL_MS,
                AppConfig.DEFAULT_PUNCTUATE_INTERVAL_MS);
        return http.apply(config)
                .withKafkaProperties(clientProperties)
                .withReplication(replicationFactor, minInsyncReplicas)
                .withMembership(standbyReplicas, instanceId);
    }

    @Override
    public Integer call() throws Exception {
        AppConfig config = config();
        StartChecks.check(dataDir, "streams");
        config = config.withMembership(config.standbyReplicas(), InstanceId.resolve(instanceId, dataDir));
        CoordinateApplication app = AppLauncher.start(config);
        return CoordinateCli.serveUntilSignalled(
                app,
                app.stopped(),
                CoordinateCli.readyLine(bootstrapServers, http.localHost(), app.httpPort()),
                System.out);
    }
}
