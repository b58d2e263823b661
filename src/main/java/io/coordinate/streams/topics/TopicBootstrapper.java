package io.coordinate.streams.topics;

import io.coordinate.client.BootstrapProbe;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the missing topics of a list of {@link TopicDefinition}s, with the deployment's prefix applied.
 *
 * <p>Existing topics are left alone (changing partitions would break key → partition routing); a partition count
 * that differs from the definition is only logged. Several instances may bootstrap at once, so a concurrent
 * creation ({@link TopicExistsException}) is fine. Returns once every topic is described with a leader for each
 * partition, because a freshly created topic is not immediately usable by clients.
 *
 * <p>A cluster that does not answer fails fast, with a {@link KafkaUnreachableException} naming the address: first
 * a plain TCP connection to the bootstrap addresses (no Kafka client, so no retry warnings in the log), then the
 * first Admin call with a timeout of its own, which also catches a TLS or SASL refusal.
 */
public final class TopicBootstrapper {

    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);
    /** How long the first Admin call may wait for the cluster; with {@link #PROBE_TIMEOUT}, under 30 s. */
    static final Duration REACH_TIMEOUT = Duration.ofSeconds(15);
    /** How long the TCP probe may try the bootstrap addresses, all together. */
    static final Duration PROBE_TIMEOUT = Duration.ofSeconds(10);

    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);
    private static final Logger log = LoggerFactory.getLogger(TopicBootstrapper.class);

    private final Admin admin;
    private final Duration timeout;
    private final String address;

    public TopicBootstrapper(Admin admin) {
        this(admin, DEFAULT_TIMEOUT);
    }

    public TopicBootstrapper(Admin admin, Duration timeout) {
        this(admin, timeout, "the configured bootstrap servers");
    }

    private TopicBootstrapper(Admin admin, Duration timeout, String address) {
        this.admin = admin;
        this.timeout = timeout;
        this.address = address;
    }

    /** Opens a short-lived admin client on {@code bootstrapServers}; returns the (prefixed) names it created. */
    public static List<String> ensureTopics(String bootstrapServers, String prefix, List<TopicDefinition> definitions)
            throws InterruptedException {
        return ensureTopics(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers), prefix, definitions);
    }

    /**
     * As {@link #ensureTopics(String, String, List)}, with an admin client of these properties (those of
     * {@code io.coordinate.config.KafkaClientSettings.base}: bootstrap servers, TLS, SASL).
     *
     * @throws KafkaUnreachableException when the cluster does not answer
     */
    public static List<String> ensureTopics(
            Map<String, Object> clientProperties, String prefix, List<TopicDefinition> definitions)
            throws InterruptedException {
        String bootstrapServers = String.valueOf(clientProperties.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG));
        probe(bootstrapServers, PROBE_TIMEOUT);
        Admin admin;
        try {
            admin = Admin.create(clientProperties);
        } catch (ConfigException e) { // a setting Kafka refuses: the operator's to fix, as it says
            throw e;
        } catch (KafkaException e) { // a bootstrap address that does not resolve, a login module that fails
            throw new KafkaUnreachableException(bootstrapServers, rootMessage(e), e);
        }
        try {
            return new TopicBootstrapper(admin, DEFAULT_TIMEOUT, bootstrapServers).ensureTopics(prefix, definitions);
        } finally {
            admin.close(CLOSE_TIMEOUT);
        }
    }

    /** Creates what is missing and waits until all topics are usable; returns the (prefixed) names it created. */
    public List<String> ensureTopics(String prefix, List<TopicDefinition> definitions) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<String, TopicDefinition> byName =
                definitions.stream().collect(Collectors.toMap(d -> d.prefixedName(prefix), Function.identity()));
        Set<String> existing = listTopics();

        List<NewTopic> missing = byName.entrySet().stream()
                .filter(e -> !existing.contains(e.getKey()))
                .map(e -> new NewTopic(
                                e.getKey(),
                                e.getValue().partitions(),
                                e.getValue().replicationFactor())
                        .configs(e.getValue().configs()))
                .toList();
        List<String> created = new ArrayList<>();
        if (!missing.isEmpty()) {
            Map<String, KafkaFuture<Void>> results = admin.createTopics(missing).values();
            for (Map.Entry<String, KafkaFuture<Void>> result : results.entrySet()) {
                try {
                    get(result.getValue(), deadline, "create topic " + result.getKey());
                    created.add(result.getKey());
                } catch (IllegalStateException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw e;
                    }
                    log.debug("Topic {} was created concurrently", result.getKey());
                }
            }
            log.info("Created topics {}", created);
        }
        awaitUsable(byName, deadline);
        return List.copyOf(created);
    }

    /** The first call: its own timeout, so that a silent cluster fails in seconds, not after the API's 60 s. */
    private Set<String> listTopics() throws InterruptedException {
        ListTopicsOptions options = new ListTopicsOptions().timeoutMs((int) REACH_TIMEOUT.toMillis());
        try {
            return admin.listTopics(options).names().get();
        } catch (ExecutionException e) {
            // probe() found the address listening (run and dev probe first): no answer at all means no common protocol.
            String hint = e.getCause() instanceof org.apache.kafka.common.errors.TimeoutException
                    ? BootstrapProbe.HANDSHAKE_HINT
                    : "";
            throw new KafkaUnreachableException(address, rootMessage(e.getCause()) + hint, e.getCause());
        }
    }

    /**
     * Throws when none of the bootstrap addresses accepts a connection within {@code timeout} ({@link
     * BootstrapProbe}): a cluster that is down is named at once, not after a client's metadata timeout.
     */
    public static void probe(String bootstrapServers, Duration timeout) {
        String reason = BootstrapProbe.unreachable(bootstrapServers, timeout);
        if (reason != null) {
            throw new KafkaUnreachableException(bootstrapServers, reason, null);
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    }

    /** Polls until every topic is described and each partition has a leader. */
    private void awaitUsable(Map<String, TopicDefinition> byName, long deadline) throws InterruptedException {
        while (true) {
            try {
                Map<String, TopicDescription> descriptions =
                        get(admin.describeTopics(byName.keySet()).allTopicNames(), deadline, "describe topics");
                boolean ready = descriptions.values().stream()
                        .allMatch(d -> d.partitions().stream()
                                .allMatch(p -> p.leader() != null && !p.leader().isEmpty()));
                if (ready) {
                    warnOnPartitionMismatch(byName, descriptions);
                    return;
                }
            } catch (IllegalStateException e) {
                // Metadata of a just-created topic propagates asynchronously: UnknownTopicOrPartition is expected
                // briefly.
                if (System.nanoTime() > deadline) {
                    throw e;
                }
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("topics " + byName.keySet() + " not ready after " + timeout);
            }
            Thread.sleep(100);
        }
    }

    private static void warnOnPartitionMismatch(
            Map<String, TopicDefinition> byName, Map<String, TopicDescription> descriptions) {
        descriptions.forEach((name, description) -> {
            int expected = byName.get(name).partitions();
            if (description.partitions().size() != expected) {
                log.warn(
                        "Topic {} has {} partitions, its definition says {}: co-partitioning may be broken",
                        name,
                        description.partitions().size(),
                        expected);
            }
        });
    }

    /** Waits for an admin future until the deadline; failures become IllegalStateException with the Kafka cause. */
    private static <T> T get(KafkaFuture<T> future, long deadline, String what) throws InterruptedException {
        try {
            return future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException(
                    "cannot " + what + ": " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("cannot " + what + ": timed out", e);
        }
    }
}
