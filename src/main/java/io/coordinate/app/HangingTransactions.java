package io.coordinate.app;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.AbortTransactionSpec;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.ListTransactionsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.internals.Topic;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds and aborts hanging transactions on the app's partitions before Kafka Streams starts, as Kafka's
 * {@code kafka-transactions.sh find-hanging} and {@code abort} do. A hanging transaction is one a partition holds
 * open (its read_committed end, the last stable offset, stops at its first record) that no transaction
 * coordinator will ever end: under exactly-once the app restores its stores and reads its committed offsets up to
 * that point only, so it would stay REBALANCING for ever.
 *
 * <p>An open transaction is hanging when, seen twice with the same producer, epoch and first offset, its producer
 * has no transaction its coordinator knows as ongoing (or completing) on that partition, or it is older than the
 * broker's {@code transaction.max.timeout.ms} (the coordinator would have aborted any legitimate one by then). A
 * young transaction of a live producer, in the coordinator's ongoing set, is left alone; one that ends between
 * the two looks is no longer open at the second.
 */
public final class HangingTransactions {

    private static final Logger LOG = LoggerFactory.getLogger(HangingTransactions.class);
    private static final long TIMEOUT_SECONDS = 30;
    /** Kafka's default {@code transaction.max.timeout.ms}, when the broker's cannot be read. */
    static final long DEFAULT_MAX_TIMEOUT_MS = 900_000;

    /** An aborted transaction: where, whose, and the partition's last stable and end offsets before the abort. */
    public record Aborted(
            TopicPartition partition,
            long producerId,
            int producerEpoch,
            long startOffset,
            long lastStableOffset,
            long endOffset) {}

    private final Admin admin;

    public HangingTransactions(Admin admin) {
        this.admin = admin;
    }

    /**
     * Checks the app's partitions: its public topics ({@code topics}, prefixed), its changelogs
     * ({@code <applicationId>-*-changelog}) and {@code __consumer_offsets}; aborts the hanging transactions and
     * returns them.
     */
    public List<Aborted> abortOnAppPartitions(String applicationId, Collection<String> topics)
            throws InterruptedException {
        Set<String> names = new HashSet<>(topics);
        // The committed offsets of a transaction live in __consumer_offsets: one held open there keeps Kafka Streams
        // from reading the group's committed offsets (a stable read waits for it), so it stays REBALANCING as well.
        for (String name :
                get(admin.listTopics(new ListTopicsOptions().listInternal(true)).names())) {
            if (name.startsWith(applicationId + "-") && name.endsWith("-changelog")
                    || name.equals(Topic.GROUP_METADATA_TOPIC_NAME)) {
                names.add(name);
            }
        }
        Map<String, TopicDescription> described =
                get(admin.describeTopics(List.copyOf(names)).allTopicNames());
        List<TopicPartition> partitions = new ArrayList<>();
        described
                .values()
                .forEach(d -> d.partitions().forEach(p -> partitions.add(new TopicPartition(d.name(), p.partition()))));
        return abortHanging(partitions);
    }

    /** Checks {@code partitions}, aborts the hanging transactions found there and returns them. */
    public List<Aborted> abortHanging(Collection<TopicPartition> partitions) throws InterruptedException {
        Map<TopicPartition, long[]> held = heldBack(partitions);
        if (held.isEmpty()) {
            return List.of();
        }
        Map<TopicPartition, List<ProducerState>> firstLook = openTransactions(held.keySet());
        Set<Long> producerIds = firstLook.values().stream()
                .flatMap(List::stream)
                .map(ProducerState::producerId)
                .collect(Collectors.toSet());
        Map<Long, TransactionDescription> coordinated = coordinatorView(producerIds);
        long maxTimeoutMs = maxTransactionTimeoutMs();
        Map<TopicPartition, List<ProducerState>> secondLook = openTransactions(firstLook.keySet());
        long now = System.currentTimeMillis();

        List<Aborted> aborted = new ArrayList<>();
        for (Map.Entry<TopicPartition, List<ProducerState>> entry : firstLook.entrySet()) {
            TopicPartition partition = entry.getKey();
            for (ProducerState producer : entry.getValue()) {
                boolean stillOpen = secondLook.getOrDefault(partition, List.of()).stream()
                        .anyMatch(p -> p.producerId() == producer.producerId()
                                && p.producerEpoch() == producer.producerEpoch()
                                && p.currentTransactionStartOffset().equals(producer.currentTransactionStartOffset()));
                if (!stillOpen) {
                    continue;
                }
                TransactionDescription txn = coordinated.get(producer.producerId());
                boolean tooOld = now - producer.lastTimestamp() > maxTimeoutMs;
                if (!tooOld && coordinatorWillEnd(txn, partition)) {
                    continue;
                }
                long[] offsets = held.get(partition);
                Aborted abort = new Aborted(
                        partition,
                        producer.producerId(),
                        producer.producerEpoch(),
                        producer.currentTransactionStartOffset().getAsLong(),
                        offsets[0],
                        offsets[1]);
                LOG.warn(
                        "aborting a hanging transaction on {}: producer {} epoch {} open since offset {} (last stable offset "
                                + "{}, end {}); its coordinator {}",
                        partition,
                        producer.producerId(),
                        producer.producerEpoch(),
                        abort.startOffset(),
                        abort.lastStableOffset(),
                        abort.endOffset(),
                        txn == null
                                ? "knows no transaction of this producer"
                                : "has it " + txn.state() + (tooOld ? ", older than transaction.max.timeout.ms" : ""));
                get(admin.abortTransaction(new AbortTransactionSpec(
                                partition,
                                producer.producerId(),
                                (short) producer.producerEpoch(),
                                producer.coordinatorEpoch().orElse(0)))
                        .all());
                aborted.add(abort);
            }
        }
        return aborted;
    }

    /** Whether the producer's coordinator has a transaction that includes {@code partition} and will end it. */
    private static boolean coordinatorWillEnd(TransactionDescription txn, TopicPartition partition) {
        if (txn == null) {
            return false;
        }
        TransactionState state = txn.state();
        if (state == TransactionState.PREPARE_COMMIT
                || state == TransactionState.PREPARE_ABORT
                || state == TransactionState.PREPARE_EPOCH_FENCE) {
            return true; // writing its markers now
        }
        return state == TransactionState.ONGOING && txn.topicPartitions().contains(partition);
    }

    /** The partitions whose last stable offset is below their end, with {last stable offset, end}. */
    private Map<TopicPartition, long[]> heldBack(Collection<TopicPartition> partitions) throws InterruptedException {
        Map<TopicPartition, OffsetSpec> latest =
                partitions.stream().collect(Collectors.toMap(Function.identity(), p -> OffsetSpec.latest()));
        Map<TopicPartition, ListOffsetsResultInfo> stable =
                get(admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
                        .all());
        Map<TopicPartition, ListOffsetsResultInfo> end =
                get(admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_UNCOMMITTED))
                        .all());
        Map<TopicPartition, long[]> held = new HashMap<>();
        stable.forEach((partition, info) -> {
            long endOffset = end.get(partition).offset();
            if (info.offset() < endOffset) {
                held.put(partition, new long[] {info.offset(), endOffset});
            }
        });
        return held;
    }

    /** The producers with an open transaction, per partition. */
    private Map<TopicPartition, List<ProducerState>> openTransactions(Collection<TopicPartition> partitions)
            throws InterruptedException {
        Map<TopicPartition, List<ProducerState>> open = new HashMap<>();
        get(admin.describeProducers(partitions).all()).forEach((partition, state) -> {
            List<ProducerState> producers = state.activeProducers().stream()
                    .filter(p -> p.currentTransactionStartOffset().isPresent())
                    .toList();
            if (!producers.isEmpty()) {
                open.put(partition, producers);
            }
        });
        return open;
    }

    /** What the transaction coordinators know of these producers' transactions, by producer id. */
    private Map<Long, TransactionDescription> coordinatorView(Set<Long> producerIds) throws InterruptedException {
        if (producerIds.isEmpty()) {
            return Map.of();
        }
        Collection<TransactionListing> listings =
                get(admin.listTransactions(new ListTransactionsOptions().filterProducerIds(producerIds))
                        .all());
        if (listings.isEmpty()) {
            return Map.of();
        }
        Map<String, TransactionDescription> described = get(admin.describeTransactions(listings.stream()
                        .map(TransactionListing::transactionalId)
                        .toList())
                .all());
        Map<Long, TransactionDescription> byProducer = new HashMap<>();
        described.values().forEach(d -> byProducer.put(d.producerId(), d));
        return byProducer;
    }

    private long maxTransactionTimeoutMs() throws InterruptedException {
        try {
            String node =
                    Integer.toString(get(admin.describeCluster().controller()).id());
            ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, node);
            Config config = get(admin.describeConfigs(List.of(broker)).all()).get(broker);
            ConfigEntry entry = config == null ? null : config.get("transaction.max.timeout.ms");
            return entry == null || entry.value() == null ? DEFAULT_MAX_TIMEOUT_MS : Long.parseLong(entry.value());
        } catch (RuntimeException e) {
            LOG.debug("cannot read transaction.max.timeout.ms; assuming Kafka's default", e);
            return DEFAULT_MAX_TIMEOUT_MS;
        }
    }

    private static <T> T get(KafkaFuture<T> future) throws InterruptedException {
        try {
            return future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("hanging-transaction check failed: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("hanging-transaction check timed out after " + TIMEOUT_SECONDS + " s", e);
        }
    }
}
