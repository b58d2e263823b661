package io.coordinate.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code coordinate dev}: embedded broker + topics + app in one process, for development and demos. */
@Command(name = "dev",
    description = "Start an embedded Kafka broker, create the topics and run the app; Ctrl-C stops all.")
final class DevCommand implements Callable<Integer> {

  @Option(names = "--kafka-port", defaultValue = "9092", description = "Broker port on 127.0.0.1, 0 = any free (default: ${DEFAULT-VALUE})")
  int kafkaPort;

  @Option(names = "--http-port", defaultValue = "8080", description = "HTTP API port, 0 = any free (default: ${DEFAULT-VALUE})")
  int httpPort;

  @Mixin HttpOptions http;

  @Option(names = "--data-dir", defaultValue = "./data",
      description = "Holds kafka/ (broker log) and streams/ (state stores); relative to the working directory (default: ${DEFAULT-VALUE})")
  Path dataDir;

  @Override
  public Integer call() throws Exception {
    DevEnvironment env = DevEnvironment.start(kafkaPort, httpPort, dataDir, http::apply);
    CoordinateCli.serveUntilSignalled(env,
        CoordinateCli.readyLine(env.bootstrapServers(), http.localHost(), env.httpPort()), System.out);
    return 0;
  }
}
