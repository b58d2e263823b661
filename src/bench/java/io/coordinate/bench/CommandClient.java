package io.coordinate.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.TopicNames;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * The load generator's side of the protocol, with plain Kafka clients as a worker fleet would use them: one
 * producer of commands (shared by the worker threads; a KafkaProducer is thread-safe and batches their sends), and
 * one read_committed consumer of {@code coordinate.assignments} and {@code coordinate.replies} that dispatches each
 * assignment by its key (the worker) to that worker's inbox, and each reply addressed to this client's
 * {@code reply_to} to the current reply handler. Every received record carries the {@link System#nanoTime()} of
 * its arrival, for the latency figures.
 */
final class CommandClient implements AutoCloseable {

    /**
     * A record as it arrived: the dispatcher's clock at arrival, the wall clock then, the record's timestamp (the
     * app's wall clock when it processed the command that made it) and its value, parsed into a tree only when asked
     * for, by the thread that takes the record (a worker reads its assignment with {@link WorkerMessages}).
     */
    record Received(long nanos, long wallMillis, long timestampMillis, byte[] bytes) {
        /** The value as a tree, parsed at each call. */
        JsonNode value() {
            return parse(bytes);
        }
    }

    private final TopicNames topics;
    private final String replyTo;
    private final KafkaProducer<String, byte[]> producer;
    private final KafkaConsumer<String, byte[]> consumer;
    private final ConcurrentHashMap<String, BlockingQueue<Received>> inboxes = new ConcurrentHashMap<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final Thread dispatcher;
    private volatile Consumer<Received> replyHandler = r -> {};
    private volatile boolean stopped;

    CommandClient(BenchKafka kafka, TopicNames topics, String replyTo) {
        this.topics = topics;
        this.replyTo = replyTo;
        this.producer = kafka.producer();
        this.consumer = kafka.consumer();
        List<TopicPartition> partitions = new ArrayList<>(kafka.partitions(consumer, topics.assignments()));
        partitions.addAll(kafka.partitions(consumer, topics.replies()));
        consumer.assign(partitions);
        // Only what is answered from now on; positions resolved here, before any command is sent.
        consumer.seekToEnd(partitions);
        partitions.forEach(consumer::position);
        dispatcher = new Thread(this::dispatch, "bench-dispatcher");
        dispatcher.setDaemon(true);
        dispatcher.start();
    }

    String replyTo() {
        return replyTo;
    }

    /** The inbox of a worker's assignments; create it before the worker's first request. */
    BlockingQueue<Received> inbox(String worker) {
        return inboxes.computeIfAbsent(worker, w -> new LinkedBlockingQueue<>());
    }

    void onReply(Consumer<Received> handler) {
        this.replyHandler = handler;
    }

    /** Sends a command keyed by its namespace (asynchronously; a failed send fails the run). */
    void send(String namespace, ObjectNode command) {
        send(namespace, Json.bytes(command));
    }

    /** Sends a command already written as JSON, keyed by its namespace (as {@link #send(String, ObjectNode)}). */
    void send(String namespace, byte[] command) {
        checkHealthy();
        producer.send(new ProducerRecord<>(topics.commands(), namespace, command), (metadata, e) -> {
            if (e != null) {
                failure.compareAndSet(null, e);
            }
        });
    }

    void flush() {
        producer.flush();
    }

    void checkHealthy() {
        Throwable e = failure.get();
        if (e != null) {
            throw new IllegalStateException("bench client failed: " + e.getMessage(), e);
        }
    }

    static ObjectNode command(String name, String namespace) {
        ObjectNode command = Json.object();
        command.put("command", name);
        command.put("namespace", namespace);
        return command;
    }

    private void dispatch() {
        try {
            while (!stopped) {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(50))) {
                    long now = System.nanoTime();
                    long wall = System.currentTimeMillis();
                    if (record.topic().equals(topics.assignments())) {
                        BlockingQueue<Received> inbox = inboxes.get(record.key());
                        if (inbox != null) {
                            inbox.add(new Received(now, wall, record.timestamp(), record.value()));
                        }
                    } else if (replyTo.equals(record.key())) {
                        replyHandler.accept(new Received(now, wall, record.timestamp(), record.value()));
                    }
                }
            }
        } catch (RuntimeException e) {
            failure.compareAndSet(null, e);
        }
    }

    private static JsonNode parse(byte[] value) {
        try {
            return Json.parse(value);
        } catch (IOException e) {
            throw new IllegalStateException("unreadable record from the app", e);
        }
    }

    @Override
    public void close() {
        stopped = true;
        try {
            dispatcher.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        consumer.close();
        producer.close(Duration.ofSeconds(5));
    }
}
