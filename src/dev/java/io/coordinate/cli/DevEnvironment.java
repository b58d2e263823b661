package io.coordinate.cli;

import io.coordinate.app.AppLauncher;
import io.coordinate.app.CoordinateApplication;
import io.coordinate.broker.EmbeddedKafkaBroker;
import io.coordinate.config.AppConfig;
import java.nio.file.Path;
import java.util.function.UnaryOperator;

/**
 * Broker + topics + app in one process: what {@code coordinate dev} runs, reusable by integration tests.
 *
 * <pre>{@code
 * try (DevEnvironment env = DevEnvironment.start(0, 0, tempDir)) {
 *   env.bootstrapServers(); // "127.0.0.1:<port>"
 *   env.httpPort();         // the real HTTP port
 * }
 * }</pre>
 *
 * Data lives in {@code <dataDir>/kafka} (broker log) and {@code <dataDir>/streams} (state stores), so starting again
 * on the same dir resumes where the previous run stopped.
 */
public final class DevEnvironment implements AutoCloseable {

    private final EmbeddedKafkaBroker broker;
    private final CoordinateApplication application;
    private final AppConfig config;

    private DevEnvironment(EmbeddedKafkaBroker broker, CoordinateApplication application, AppConfig config) {
        this.broker = broker;
        this.application = application;
        this.config = config;
    }

    /** Ports may be 0 (any free port). Returns once the broker and the app serve. */
    public static DevEnvironment start(int kafkaPort, int httpPort, Path dataDir) throws InterruptedException {
        return start(kafkaPort, httpPort, dataDir, UnaryOperator.identity());
    }

    /** As {@link #start(int, int, Path)}, with a hook to adjust the app's config (e.g. commit interval, prefix). */
    public static DevEnvironment start(int kafkaPort, int httpPort, Path dataDir, UnaryOperator<AppConfig> customize)
            throws InterruptedException {
        EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(dataDir.resolve("kafka"), kafkaPort);
        try {
            AppConfig config = customize.apply(
                    AppConfig.defaults(broker.bootstrapServers(), httpPort, dataDir.resolve("streams")));
            CoordinateApplication app = AppLauncher.start(config);
            return new DevEnvironment(broker, app, config);
        } catch (RuntimeException | InterruptedException e) {
            broker.close();
            throw e;
        }
    }

    public String bootstrapServers() {
        return broker.bootstrapServers();
    }

    public int httpPort() {
        return application.httpPort();
    }

    public AppConfig config() {
        return config;
    }

    public EmbeddedKafkaBroker broker() {
        return broker;
    }

    public CoordinateApplication application() {
        return application;
    }

    public String readyLine() {
        String host =
                HttpOptions.isWildcard(config.httpBindHost()) ? AppConfig.DEFAULT_HTTP_HOST : config.httpBindHost();
        return CoordinateCli.readyLine(bootstrapServers(), host, httpPort());
    }

    /** App first (it commits offsets and flushes state to the broker), then the broker. */
    @Override
    public void close() {
        try {
            application.close();
        } finally {
            broker.close();
        }
    }
}
