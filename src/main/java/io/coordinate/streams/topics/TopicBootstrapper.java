package io.coordinate.streams.topics;

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
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
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
 */
public final class TopicBootstrapper {

  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);
  private static final Logger log = LoggerFactory.getLogger(TopicBootstrapper.class);

  private final Admin admin;
  private final Duration timeout;

  public TopicBootstrapper(Admin admin) {
    this(admin, DEFAULT_TIMEOUT);
  }

  public TopicBootstrapper(Admin admin, Duration timeout) {
    this.admin = admin;
    this.timeout = timeout;
  }

  /** Opens a short-lived admin client on {@code bootstrapServers}; returns the (prefixed) names it created. */
  public static List<String> ensureTopics(String bootstrapServers, String prefix, List<TopicDefinition> definitions)
      throws InterruptedException {
    try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
      return new TopicBootstrapper(admin).ensureTopics(prefix, definitions);
    }
  }

  /** Creates what is missing and waits until all topics are usable; returns the (prefixed) names it created. */
  public List<String> ensureTopics(String prefix, List<TopicDefinition> definitions) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    Map<String, TopicDefinition> byName = definitions.stream()
        .collect(Collectors.toMap(d -> d.prefixedName(prefix), Function.identity()));
    Set<String> existing = get(admin.listTopics().names(), deadline, "list topics");

    List<NewTopic> missing = byName.entrySet().stream()
        .filter(e -> !existing.contains(e.getKey()))
        .map(e -> new NewTopic(e.getKey(), e.getValue().partitions(), e.getValue().replicationFactor())
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

  /** Polls until every topic is described and each partition has a leader. */
  private void awaitUsable(Map<String, TopicDefinition> byName, long deadline) throws InterruptedException {
    while (true) {
      try {
        Map<String, TopicDescription> descriptions =
            get(admin.describeTopics(byName.keySet()).allTopicNames(), deadline, "describe topics");
        boolean ready = descriptions.values().stream()
            .allMatch(d -> d.partitions().stream().allMatch(p -> p.leader() != null && !p.leader().isEmpty()));
        if (ready) {
          warnOnPartitionMismatch(byName, descriptions);
          return;
        }
      } catch (IllegalStateException e) {
        // Metadata of a just-created topic propagates asynchronously: UnknownTopicOrPartition is expected briefly.
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
        log.warn("Topic {} has {} partitions, its definition says {}: co-partitioning may be broken",
            name, description.partitions().size(), expected);
      }
    });
  }

  /** Waits for an admin future until the deadline; failures become IllegalStateException with the Kafka cause. */
  private static <T> T get(KafkaFuture<T> future, long deadline, String what) throws InterruptedException {
    try {
      return future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      throw new IllegalStateException("cannot " + what + ": " + e.getCause().getMessage(), e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException("cannot " + what + ": timed out", e);
    }
  }
}
