package io.coordinate.broker;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real single-node KRaft broker (combined broker + controller) running inside this JVM, for {@code bin/coordinate
 * dev} and the integration tests: no Docker, no second process.
 *
 * <p>The log dir is formatted only once, so topics, offsets and state survive a restart on the same dir (the cluster
 * id lives in its {@code meta.properties}). The controller quorum is static ({@code controller.quorum.voters}), not
 * stored in the log, so the controller may get a different free port on every start. Nothing is static here: several
 * brokers (on different dirs) may run in one JVM, one after the other or side by side.
 *
 * <p>The client listener is PLAINTEXT; {@link #startWithSaslPlain} makes it SASL_PLAINTEXT (mechanism PLAIN) with a
 * fixed set of users instead, for tests of the app against a cluster that wants credentials.
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {

    /** Node id of the single node; persisted in meta.properties, so it must never change. */
    private static final int NODE_ID = 1;

    private static final String CONTROLLER_LISTENER = "CONTROLLER";
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);
    private static final Logger log = LoggerFactory.getLogger(EmbeddedKafkaBroker.class);

    private static final String SASL_LISTENER = "SASL_PLAINTEXT";
    private static final String PLAIN_LOGIN = "org.apache.kafka.common.security.plain.PlainLoginModule";

    private final KafkaRaftServer server;
    private final Path logDir;
    private final String clusterId;
    private final int port;
    /** What a client needs besides the bootstrap servers: nothing for PLAINTEXT, the broker's own user for SASL. */
    private final Map<String, String> ownClientProperties;

    private boolean closed;

    private EmbeddedKafkaBroker(
            KafkaRaftServer server, Path logDir, String clusterId, int port, Map<String, String> ownClientProperties) {
        this.server = server;
        this.logDir = logDir;
        this.clusterId = clusterId;
        this.port = port;
        this.ownClientProperties = ownClientProperties;
    }

    /**
     * Formats {@code logDir} if needed, starts the broker and returns once it answers {@code describeCluster}.
     *
     * @param port the client port on 127.0.0.1; 0 picks a free one
     */
    public static EmbeddedKafkaBroker start(Path logDir, int port) {
        return start(logDir, port, null);
    }

    /**
     * As {@link #start(Path, int)}, with a SASL_PLAINTEXT client listener (mechanism PLAIN) that knows exactly these
     * users (name → password); the broker talks to itself as a user of its own. Clients connect with {@link
     * #saslPlainClient}.
     */
    public static EmbeddedKafkaBroker startWithSaslPlain(Path logDir, int port, Map<String, String> users) {
        return start(logDir, port, Map.copyOf(users));
    }

    /** The client properties of a user of a {@link #startWithSaslPlain} broker. */
    public static Map<String, String> saslPlainClient(String user, String password) {
        return Map.of(
                "security.protocol", "SASL_PLAINTEXT",
                "sasl.mechanism", "PLAIN",
                "sasl.jaas.config", PLAIN_LOGIN + " required username=\"" + user + "\" password=\"" + password + "\";");
    }

    private static EmbeddedKafkaBroker start(Path logDir, int port, Map<String, String> saslUsers) {
        Path dir = logDir.toAbsolutePath().normalize();
        int brokerPort = port == 0 ? freePort() : port;
        int controllerPort = freePort();
        String clusterId = formatIfNeeded(dir);
        Map<String, Object> settings = brokerConfig(dir, brokerPort, controllerPort);
        Map<String, String> ownClient = Map.of();
        if (saslUsers != null) {
            String brokerUser = "broker-" + UUID.randomUUID();
            String brokerPassword = UUID.randomUUID().toString();
            settings = withSaslPlain(settings, brokerPort, controllerPort, saslUsers, brokerUser, brokerPassword);
            ownClient = saslPlainClient(brokerUser, brokerPassword);
        }
        KafkaConfig config = new KafkaConfig(settings, false);
        KafkaRaftServer server = new KafkaRaftServer(config, Time.SYSTEM);
        EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(server, dir, clusterId, brokerPort, ownClient);
        try {
            server.startup();
            broker.awaitServing();
        } catch (RuntimeException e) {
            broker.close();
            throw e;
        }
        log.info("Kafka broker serving on {} (cluster {}, log dir {})", broker.bootstrapServers(), clusterId, dir);
        return broker;
    }

    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    public String clusterId() {
        return clusterId;
    }

    public Path logDir() {
        return logDir;
    }

    /** Shuts the broker down cleanly and waits for it: the next start on this dir needs no log recovery. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        server.shutdown();
        server.awaitShutdown();
    }

    /** The client listener as SASL_PLAINTEXT/PLAIN; the controller's stays PLAINTEXT, on the loopback address. */
    private static Map<String, Object> withSaslPlain(
            Map<String, Object> plain,
            int brokerPort,
            int controllerPort,
            Map<String, String> users,
            String brokerUser,
            String brokerPassword) {
        StringBuilder jaas = new StringBuilder(PLAIN_LOGIN)
                .append(" required username=\"")
                .append(brokerUser)
                .append("\" password=\"")
                .append(brokerPassword)
                .append("\" user_")
                .append(brokerUser)
                .append("=\"")
                .append(brokerPassword)
                .append('"');
        users.forEach((user, password) -> jaas.append(" user_")
                .append(user)
                .append("=\"")
                .append(password)
                .append('"'));
        jaas.append(';');
        Map<String, Object> settings = new HashMap<>(plain);
        settings.put(
                "listeners",
                SASL_LISTENER + "://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
        settings.put("advertised.listeners", SASL_LISTENER + "://127.0.0.1:" + brokerPort);
        settings.put("listener.security.protocol.map", SASL_LISTENER + ":SASL_PLAINTEXT,CONTROLLER:PLAINTEXT");
        settings.put("inter.broker.listener.name", SASL_LISTENER);
        settings.put("sasl.enabled.mechanisms", "PLAIN");
        settings.put("sasl.mechanism.inter.broker.protocol", "PLAIN");
        settings.put("listener.name.sasl_plaintext.plain.sasl.jaas.config", jaas.toString());
        return settings;
    }

    private static Map<String, Object> brokerConfig(Path dir, int brokerPort, int controllerPort) {
        return Map.ofEntries(
                Map.entry("process.roles", "broker,controller"),
                Map.entry("node.id", String.valueOf(NODE_ID)),
                Map.entry("controller.quorum.voters", NODE_ID + "@127.0.0.1:" + controllerPort),
                Map.entry(
                        "listeners",
                        "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort),
                Map.entry("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort),
                Map.entry("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT"),
                Map.entry("controller.listener.names", CONTROLLER_LISTENER),
                Map.entry("inter.broker.listener.name", "PLAINTEXT"),
                // Always set: the default is a /tmp dir shared by every broker on the machine.
                Map.entry("log.dirs", dir.toString()),
                // One node: internal topics cannot have more replicas than that.
                Map.entry("offsets.topic.replication.factor", "1"),
                Map.entry("offsets.topic.num.partitions", "5"),
                Map.entry("transaction.state.log.replication.factor", "1"),
                Map.entry("transaction.state.log.min.isr", "1"),
                Map.entry("transaction.state.log.num.partitions", "5"),
                Map.entry("share.coordinator.state.topic.replication.factor", "1"),
                Map.entry("share.coordinator.state.topic.min.isr", "1"),
                // No 3 s wait before the first consumer group rebalance: tests and `dev` start faster.
                Map.entry("group.initial.rebalance.delay.ms", "0"),
                // Topics come from topics/ only; a typo in a client must not create a stray topic.
                Map.entry("auto.create.topics.enable", "false"),
                Map.entry("num.partitions", "1"),
                Map.entry("default.replication.factor", "1"));
    }

    /** Formats a fresh dir with a new cluster id; an already formatted dir keeps its id (read from meta.properties). */
    private static String formatIfNeeded(Path dir) {
        Optional<String> existing = readClusterId(dir);
        if (existing.isPresent()) {
            return existing.get();
        }
        String clusterId = Uuid.randomUuid().toString();
        try {
            Files.createDirectories(dir);
            new Formatter()
                    .setPrintStream(
                            new PrintStream(OutputStream.nullOutputStream())) // default is stdout: keep it clean
                    .setNodeId(NODE_ID)
                    .setClusterId(clusterId)
                    .setDirectories(List.of(dir.toString()))
                    .setMetadataLogDirectory(dir.toString())
                    .setControllerListenerName(CONTROLLER_LISTENER)
                    .run();
        } catch (Exception e) {
            throw new IllegalStateException("cannot format Kafka log dir " + dir, e);
        }
        log.info("Formatted Kafka log dir {} (cluster {})", dir, clusterId);
        return clusterId;
    }

    private static Optional<String> readClusterId(Path dir) {
        Path meta = dir.resolve("meta.properties");
        if (!Files.isRegularFile(meta)) {
            return Optional.empty();
        }
        Properties props = new Properties();
        try (Reader reader = Files.newBufferedReader(meta, StandardCharsets.UTF_8)) {
            props.load(reader);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + meta, e);
        }
        String clusterId = props.getProperty("cluster.id");
        if (clusterId == null || clusterId.isBlank()) {
            throw new IllegalStateException(meta + " has no cluster.id");
        }
        return Optional.of(clusterId);
    }

    /** startup() returns before the broker serves clients: poll describeCluster until it lists the node. */
    private void awaitServing() {
        long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
        Map<String, Object> adminConfig = new HashMap<>(ownClientProperties);
        adminConfig.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        adminConfig.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2_000);
        adminConfig.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 3_000);
        try (Admin admin = Admin.create(adminConfig)) {
            Exception last = null;
            while (System.nanoTime() < deadline) {
                try {
                    if (!admin.describeCluster()
                            .nodes()
                            .get(3, TimeUnit.SECONDS)
                            .isEmpty()) {
                        return;
                    }
                } catch (ExecutionException | TimeoutException e) {
                    last = e;
                }
                Thread.sleep(100);
            }
            throw new IllegalStateException("Kafka broker not serving after " + STARTUP_TIMEOUT, last);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the Kafka broker", e);
        }
    }

    /** A free port now; a small race with other processes is acceptable for a dev broker. */
    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port", e);
        }
    }
}
