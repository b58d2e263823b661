package io.coordinate.cli;

import io.coordinate.app.InstanceId;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code coordinate dev}: embedded broker + topics + app in one process, for development and demos. */
@Command(
        name = "dev",
        description = "Start an embedded Kafka broker, create the topics and run the app; Ctrl-C stops all.")
final class DevCommand implements Callable<Integer> {

    @Option(
            names = "--kafka-port",
            defaultValue = "9092",
            description = "Broker port on 127.0.0.1, 0 = any free (default: ${DEFAULT-VALUE})")
    int kafkaPort;

    @Option(
            names = "--http-port",
            defaultValue = "8080",
            description = "HTTP API port, 0 = any free (default: ${DEFAULT-VALUE})")
    int httpPort;

    @Mixin
    HttpOptions http;

    @Option(
            names = "--data-dir",
            defaultValue = "./data",
            description =
                    "Holds kafka/ (broker log) and streams/ (state stores); relative to the working directory (default: ${DEFAULT-VALUE})")
    Path dataDir;

    // Membership and failover (docs/operations.md, "Failover and restarts"), as for `run`.
    @Option(
            names = "--instance-id",
            paramLabel = "ID",
            description = "Stable name of this instance in the group (static membership); default: one generated once "
                    + "and kept in the data dir's " + InstanceId.FILE + " file")
    String instanceId;

    @Option(
            names = "--standby-replicas",
            defaultValue = "" + RunCommand.DEFAULT_STANDBY_REPLICAS,
            description = "Warm copies of each partition's state on other instances (default: ${DEFAULT-VALUE})")
    int standbyReplicas;

    @Override
    public Integer call() throws Exception {
        StartChecks.check(dataDir, "kafka", "streams");
        String instance = InstanceId.resolve(instanceId, dataDir);
        DevEnvironment env = DevEnvironment.start(
                kafkaPort, httpPort, dataDir, config -> http.apply(config).withMembership(standbyReplicas, instance));
        return CoordinateCli.serveUntilSignalled(
                env,
                env.application().stopped(),
                CoordinateCli.readyLine(env.bootstrapServers(), http.localHost(), env.httpPort()),
                System.out);
    }
}
