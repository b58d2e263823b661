package io.coordinate.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.TopicNames;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka side of a client: one producer of commands, and one read_committed consumer that is assigned only the
 * partitions it needs (the replies partition of this client's {@code reply_to}, and the assignments partition of
 * each worker it serves), never subscribed, with nothing committed. Positions are fixed at the end before the
 * first command that could be answered there is sent, so no answer is missed and none from before is read.
 *
 * <p>One daemon thread polls. A {@link KafkaConsumer} is not thread-safe, so a new worker's partition is handed to
 * that thread, which assigns it between two polls and then completes the caller's future.
 */
final class ClientConnection implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ClientConnection.class);
    private static final Duration POLL = Duration.ofMillis(500);
    private static final int FETCH_MAX_WAIT_MS = 50;

    private final TopicNames topics;
    private final String replyTo;
    private final KafkaProducer<String, byte[]> producer;
    private final KafkaConsumer<String, byte[]> consumer;
    private final Map<String, CompletableFuture<ObjectNode>> waiting = new ConcurrentHashMap<>();
    private final Map<String, Consumer<JsonNode>> assignmentSinks = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<PendingWatch> pendingWatches = new ConcurrentLinkedQueue<>();
    private final AtomicLong requestIds = new AtomicLong();
    private final String requestIdPrefix = Long.toString(System.nanoTime() & 0xffffffffL, 36) + "-";
    private final int assignmentPartitions;
    private final Thread poller;
    private volatile boolean running = true;

    private record PendingWatch(TopicPartition partition, CompletableFuture<Void> done) {}

    ClientConnection(Map<String, Object> kafkaProperties, TopicNames topics, String replyTo, Duration timeout) {
        Object servers = kafkaProperties.get(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG);
        String bootstrapServers = servers instanceof Collection<?> list
                ? list.stream().map(String::valueOf).collect(Collectors.joining(","))
                : String.valueOf(servers);
        String unreachable = servers == null ? null : BootstrapProbe.unreachable(bootstrapServers, timeout);
        if (unreachable != null) {
            throw new CoordinateUnreachableException(
                    "cannot reach Kafka at " + bootstrapServers + ": " + unreachable, null);
        }
        this.topics = topics;
        this.replyTo = replyTo;
        this.producer = new KafkaProducer<>(producerConfig(kafkaProperties, timeout));
        this.consumer = new KafkaConsumer<>(consumerConfig(kafkaProperties, timeout));
        try {
            TopicPartition replies = partitionOf(topics.replies(), replyTo);
            this.assignmentPartitions = partitionCount(topics.assignments());
            consumer.assign(List.of(replies));
            consumer.seekToEnd(List.of(replies));
            consumer.position(replies); // seekToEnd is lazy: resolve it now, before anything is sent
        } catch (KafkaException e) {
            closeQuietly();
            throw new CoordinateUnreachableException(
                    "cannot reach Kafka at " + bootstrapServers + ": " + e.getMessage()
                            + (e instanceof org.apache.kafka.common.errors.TimeoutException
                                    ? BootstrapProbe.HANDSHAKE_HINT
                                    : ""),
                    e);
        } catch (RuntimeException e) {
            closeQuietly();
            throw e;
        }
        this.poller = new Thread(this::poll, "coordinate-client-" + replyTo);
        poller.setDaemon(true);
        poller.start();
    }

    String replyTo() {
        return replyTo;
    }

    String nextRequestId() {
        return requestIdPrefix + requestIds.incrementAndGet();
    }

    /**
     * Sends a command with this client's {@code reply_to} and completes with its reply (the whole reply object:
     * {@code ok}, {@code result} or {@code error}). A command without a {@code request_id} gets a fresh one, which
     * matches the reply. One that carries its own (the caller's key, which a repeat must carry again) keeps it, and a
     * fresh {@code correlation_id} matches the reply instead: two calls with the same key each get an answer.
     */
    CompletableFuture<ObjectNode> call(String namespace, ObjectNode command, Duration timeout) {
        String waiterId = nextRequestId();
        command.put("namespace", namespace);
        JsonNode given = command.get("request_id");
        if (given == null || given.isNull()) {
            command.put("request_id", waiterId);
            command.remove("correlation_id");
        } else {
            command.put("correlation_id", waiterId);
        }
        command.put("reply_to", replyTo);
        CompletableFuture<ObjectNode> reply = new CompletableFuture<>();
        if (!running) {
            reply.completeExceptionally(new IllegalStateException("client closed"));
            return reply;
        }
        waiting.put(waiterId, reply);
        reply.orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
                .whenComplete((r, e) -> waiting.remove(waiterId)); // timed out or answered: never leave an entry behind
        send(namespace, command).whenComplete((ok, e) -> {
            if (e != null) {
                reply.completeExceptionally(e);
            }
        });
        return reply;
    }

    /** Sends a command that expects no reply (its fields say where any answer goes); completes once Kafka has it. */
    CompletableFuture<Void> send(String namespace, ObjectNode command) {
        command.put("namespace", namespace);
        CompletableFuture<Void> sent = new CompletableFuture<>();
        try {
            producer.send(
                    new ProducerRecord<>(topics.commands(), namespace, Json.bytes(command)), (metadata, error) -> {
                        if (error != null) {
                            sent.completeExceptionally(error);
                        } else {
                            sent.complete(null);
                        }
                    });
        } catch (RuntimeException e) { // a full buffer or a closed producer: fail now, not at a timeout
            sent.completeExceptionally(e);
        }
        return sent;
    }

    /**
     * Starts reading the assignments of {@code worker} (from the partition of its key only) and hands each one to
     * {@code sink} on the polling thread. Completes once the position is fixed: request work only after that.
     */
    CompletableFuture<Void> watchAssignments(String worker, Consumer<JsonNode> sink) {
        if (assignmentSinks.putIfAbsent(worker, sink) != null) {
            return CompletableFuture.failedFuture(new IllegalStateException("worker " + worker + " is already served"));
        }
        PendingWatch watch = new PendingWatch(
                new TopicPartition(
                        topics.assignments(),
                        NamespacePartitioner.partition(worker.getBytes(StandardCharsets.UTF_8), assignmentPartitions)),
                new CompletableFuture<>());
        pendingWatches.add(watch);
        consumer.wakeup();
        return watch.done();
    }

    void stopWatching(String worker) {
        assignmentSinks.remove(worker);
    }

    void flush() {
        producer.flush();
    }

    private void poll() {
        try {
            while (running) {
                applyPendingWatches();
                try {
                    for (ConsumerRecord<String, byte[]> record : consumer.poll(POLL)) {
                        dispatch(record);
                    }
                } catch (WakeupException e) {
                    // a new worker to watch, or close()
                }
            }
        } catch (RuntimeException e) {
            LOG.error("the client's consumer stopped; waiting calls fail", e);
            failWaiting(e);
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    private void applyPendingWatches() {
        List<PendingWatch> added = new ArrayList<>();
        for (PendingWatch watch; (watch = pendingWatches.poll()) != null; ) {
            added.add(watch);
        }
        if (added.isEmpty()) {
            return;
        }
        Set<TopicPartition> partitions = new java.util.HashSet<>(consumer.assignment());
        List<TopicPartition> fresh = new ArrayList<>();
        for (PendingWatch watch : added) {
            if (partitions.add(watch.partition())) {
                fresh.add(watch.partition());
            }
        }
        try {
            if (!fresh.isEmpty()) {
                consumer.assign(partitions);
                consumer.seekToEnd(fresh);
                for (TopicPartition partition : fresh) {
                    resolvePosition(partition);
                }
            }
            added.forEach(watch -> watch.done().complete(null));
        } catch (RuntimeException e) {
            added.forEach(watch -> watch.done().completeExceptionally(e));
        }
    }

    /** Resolves a position, past the wake-up that another watch request may have left pending. */
    private void resolvePosition(TopicPartition partition) {
        while (true) {
            try {
                consumer.position(partition);
                return;
            } catch (WakeupException e) {
                if (!running) {
                    throw e;
                }
            }
        }
    }

    private void dispatch(ConsumerRecord<String, byte[]> record) {
        JsonNode value;
        try {
            value = Json.parse(record.value());
        } catch (IOException | RuntimeException e) {
            LOG.warn("ignoring a record of {} that is not JSON: {}", record.topic(), e.getMessage());
            return;
        }
        if (record.topic().equals(topics.replies())) {
            if (replyTo.equals(record.key()) && value.isObject()) {
                JsonNode correlation = value.get("correlation_id");
                String waiterId = correlation != null && correlation.isTextual()
                        ? correlation.textValue()
                        : value.path("request_id").asText();
                CompletableFuture<ObjectNode> waiter = waiting.remove(waiterId);
                if (waiter != null) {
                    waiter.complete((ObjectNode) value);
                }
            }
        } else {
            Consumer<JsonNode> sink = record.key() == null ? null : assignmentSinks.get(record.key());
            if (sink != null) {
                try {
                    sink.accept(value);
                } catch (RuntimeException e) {
                    LOG.error("an assignment handler failed", e);
                }
            }
        }
    }

    private TopicPartition partitionOf(String topic, String key) {
        return new TopicPartition(
                topic, NamespacePartitioner.partition(key.getBytes(StandardCharsets.UTF_8), partitionCount(topic)));
    }

    private int partitionCount(String topic) {
        List<PartitionInfo> infos = consumer.partitionsFor(topic);
        if (infos == null || infos.isEmpty()) {
            throw new CoordinateUnreachableException(
                    "topic " + topic + " does not exist (is the app set up on this cluster,"
                            + " with this topic prefix?)",
                    null);
        }
        return infos.size();
    }

    private void failWaiting(Throwable cause) {
        waiting.values().forEach(waiter -> waiter.completeExceptionally(cause));
        waiting.clear();
    }

    @Override
    public void close() {
        if (!running) {
            return;
        }
        running = false;
        consumer.wakeup();
        try {
            poller.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producer.close(Duration.ofSeconds(10));
        failWaiting(new IllegalStateException("client closed"));
    }

    private void closeQuietly() {
        try {
            consumer.close(Duration.ZERO);
        } catch (RuntimeException ignored) {
            // closing after a failed start: the first error is the one to report
        }
        producer.close(Duration.ZERO);
    }

    private static Properties producerConfig(Map<String, Object> kafkaProperties, Duration timeout) {
        Properties props = new Properties();
        props.putAll(kafkaProperties);
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        props.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 1);
        // A send to an unreachable cluster fails within the timeout instead of a minute later.
        props.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, timeout.toMillis());
        return props;
    }

    private static Properties consumerConfig(Map<String, Object> kafkaProperties, Duration timeout) {
        Properties props = new Properties();
        props.putAll(kafkaProperties);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"); // an aborted transaction must not answer
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        props.putIfAbsent(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        // A worker's start looks up the end of its assignments' partition, and the broker answers that only after the
        // fetch waiting on the same connection: a shorter wait starts workers sooner (an answer ends a fetch anyway).
        props.putIfAbsent(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, FETCH_MAX_WAIT_MS);
        return props;
    }
}
