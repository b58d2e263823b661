package io.coordinate.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** The plain Kafka clients and admin calls the benchmark phases share. */
final class BenchKafka implements AutoCloseable {

    private final String bootstrapServers;
    private final Admin admin;

    BenchKafka(String bootstrapServers) {
        this.bootstrapServers = bootstrapServers;
        this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers));
    }

    String bootstrapServers() {
        return bootstrapServers;
    }

    Admin admin() {
        return admin;
    }

    /**
     * A producer as a worker or client library would configure one: idempotent, acks=all, and the app's own
     * batching (linger 5 ms, lz4).
     */
    KafkaProducer<String, byte[]> producer() {
        return new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrapServers,
                        ProducerConfig.ACKS_CONFIG,
                        "all",
                        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                        true,
                        ProducerConfig.LINGER_MS_CONFIG,
                        5,
                        ProducerConfig.BATCH_SIZE_CONFIG,
                        128 * 1024,
                        ProducerConfig.COMPRESSION_TYPE_CONFIG,
                        "lz4"),
                new StringSerializer(),
                new ByteArraySerializer());
    }

    /** A read_committed consumer without a group, positioned by the caller with assign/seek. */
    KafkaConsumer<String, byte[]> consumer() {
        return new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrapServers,
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        false,
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                        "earliest",
                        ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
                        2000),
                new StringDeserializer(),
                new ByteArrayDeserializer());
    }

    List<TopicPartition> partitions(KafkaConsumer<?, ?> consumer, String topic) {
        return consumer.partitionsFor(topic).stream()
                .map(p -> new TopicPartition(topic, p.partition()))
                .toList();
    }

    void createTopics(Collection<String> names, int partitions) {
        List<NewTopic> topics =
                names.stream().map(n -> new NewTopic(n, partitions, (short) 1)).toList();
        await(admin.createTopics(topics).all());
        // A new topic is usable once every partition has a leader.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try {
                boolean ready = await(admin.describeTopics(names).allTopicNames()).values().stream()
                        .allMatch(d -> d.partitions().stream()
                                .allMatch(p -> p.leader() != null && !p.leader().isEmpty()));
                if (ready) {
                    return;
                }
            } catch (IllegalStateException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("topics " + names + " have no leaders after 60 s");
            }
            sleep(100);
        }
    }

    int partitionCount(String topic) {
        return await(admin.describeTopics(List.of(topic)).allTopicNames())
                .get(topic)
                .partitions()
                .size();
    }

    /** Deletes the topics whose name matches, best effort (used to clean an external cluster up). */
    void deleteTopics(Predicate<String> which) {
        Set<String> names = await(admin.listTopics().names());
        List<String> doomed = names.stream().filter(which).toList();
        if (!doomed.isEmpty()) {
            await(admin.deleteTopics(doomed).all());
        }
    }

    /**
     * Deletes the consumer and share groups whose id matches, best effort: a group whose members have not timed out
     * yet cannot be deleted and is left (it holds only offsets). Returns the ids left.
     */
    List<String> deleteGroups(Predicate<String> which) {
        List<String> left = new ArrayList<>();
        for (GroupListing group : await(admin.listGroups().all())) {
            if (!which.test(group.groupId())) {
                continue;
            }
            try {
                if (group.type().orElse(null) == GroupType.SHARE) {
                    await(admin.deleteShareGroups(List.of(group.groupId())).all());
                } else {
                    await(admin.deleteConsumerGroups(List.of(group.groupId())).all());
                }
            } catch (IllegalStateException e) {
                left.add(group.groupId());
            }
        }
        return left;
    }

    /** Bytes on the brokers' log dirs of every partition of the topics matching {@code which}. */
    long topicBytes(Predicate<String> which) {
        Collection<Node> nodes = await(admin.describeCluster().nodes());
        Map<Integer, Map<String, LogDirDescription>> dirs = await(
                admin.describeLogDirs(nodes.stream().map(Node::id).toList()).allDescriptions());
        return dirs.values().stream()
                .flatMap(m -> m.values().stream())
                .flatMap(d -> d.replicaInfos().entrySet().stream())
                .filter(e -> which.test(e.getKey().topic()))
                .mapToLong(e -> e.getValue().size())
                .sum();
    }

    static long directoryBytes(Path dir) {
        if (!Files.exists(dir)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile)
                    .mapToLong(f -> {
                        try {
                            return Files.size(f);
                        } catch (IOException e) {
                            return 0; // a RocksDB file removed by a compaction while we walk
                        }
                    })
                    .sum();
        } catch (IOException | UncheckedIOException e) {
            return -1;
        }
    }

    static <T> T await(org.apache.kafka.common.KafkaFuture<T> future) {
        try {
            return future.get(60, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("Kafka admin call timed out", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    public void close() {
        admin.close();
    }
}
