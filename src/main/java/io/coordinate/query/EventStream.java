package io.coordinate.query;

import io.coordinate.client.NamespacePartitioner;
import io.coordinate.feeds.TopicReader;
import io.coordinate.protocol.Json;
import io.javalin.http.sse.SseClient;
import jakarta.servlet.ServletOutputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.eclipse.jetty.server.Request;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One open event feed: a consumer of the namespace's partition of {@code coordinate.events}, and the thread that
 * sends its batches to one SSE client ({@link EventRoutes}). The consumer is opened and positioned before the
 * answer starts, so a failure there is still an HTTP error; it is closed when the client goes or the server stops.
 *
 * <p>Its memory is bounded whatever the client does: the consumer hands out one record per poll and fetches a
 * bounded number of (compressed) bytes, and the thread polls the next record only once the last one is written,
 * with a blocking write. A write that makes no progress for the write timeout fails (the connection's idle timeout
 * in Jetty), which ends the stream: a client that stopped reading holds a slot for that long, and no more memory.
 */
final class EventStream {

    private static final Logger LOG = LoggerFactory.getLogger(EventStream.class);
    private static final Duration POLL = Duration.ofMillis(250);
    /** How long opening and positioning the consumer may take before the request is answered 503. */
    static final Duration OPEN_TIMEOUT = Duration.ofSeconds(10);
    /** The most a fetch asks for; Kafka still returns a larger batch whole, so that a stream never sticks. */
    static final int FETCH_BYTES = 256 * 1024;

    private static final byte[] MESSAGE_END = "\n\n".getBytes(StandardCharsets.US_ASCII);
    private static final AtomicLong NUMBERS = new AtomicLong();

    /** Where a stream starts: the end ({@code now}), the oldest record kept, or an offset. */
    record From(String kind, long offset) {
        static final From NOW = new From("now", -1);
        static final From EARLIEST = new From("earliest", -1);

        static From offset(long offset) {
            return new From("offset", offset);
        }
    }

    private final String namespace;
    private final byte[] key;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final TopicPartition partition;
    private final long endAtOpen;
    private final EventRoutes.Limits limits;
    private final Runnable onEnd;
    private final AtomicBoolean ended = new AtomicBoolean();
    private volatile boolean running = true;
    private SseClient client;
    private String peer;

    private EventStream(
            String namespace,
            KafkaConsumer<byte[], byte[]> consumer,
            TopicPartition partition,
            long endAtOpen,
            EventRoutes.Limits limits,
            Runnable onEnd) {
        this.namespace = namespace;
        this.key = namespace.getBytes(StandardCharsets.UTF_8);
        this.consumer = consumer;
        this.partition = partition;
        this.endAtOpen = endAtOpen;
        this.limits = limits;
        this.onEnd = onEnd;
    }

    /**
     * The app's client settings, with one record per poll and small fetches: by default a poll hands out up to 500
     * records, which the lz4-compressed topic packs into a fetch many times over, and a stream would hold them all
     * while its client reads none.
     */
    static Map<String, Object> consumerSettings(Map<String, Object> clientProperties) {
        Map<String, Object> config = new HashMap<>(clientProperties);
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1);
        config.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, FETCH_BYTES);
        config.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, FETCH_BYTES);
        return config;
    }

    /**
     * Opens a consumer on the partition that holds {@code namespace}'s events and seeks to {@code from}: an offset
     * before the oldest one kept starts at the oldest, one past the end at the end. {@code onEnd} runs once, when the
     * stream ends, or here when opening fails (then the exception is thrown).
     */
    static EventStream open(
            Map<String, Object> clientProperties,
            String topic,
            String namespace,
            From from,
            EventRoutes.Limits limits,
            Runnable onEnd) {
        KafkaConsumer<byte[], byte[]> consumer = null;
        try {
            // One client id per stream: the consumers' metrics would collide under one name.
            consumer = TopicReader.open(
                    consumerSettings(clientProperties),
                    "coordinate-event-feed-" + NUMBERS.incrementAndGet(),
                    OPEN_TIMEOUT);
            int partitions = TopicReader.partitions(consumer, topic).size();
            // The app's sink writes a namespace's batches with the namespace as key, through Kafka's default
            // partitioner.
            TopicPartition partition = new TopicPartition(
                    topic, NamespacePartitioner.partition(namespace.getBytes(StandardCharsets.UTF_8), partitions));
            consumer.assign(List.of(partition));
            long first = consumer.beginningOffsets(List.of(partition)).get(partition);
            long end = consumer.endOffsets(List.of(partition)).get(partition);
            long position = switch (from.kind()) {
                case "now" -> end;
                case "earliest" -> first;
                default -> Math.max(first, Math.min(end, from.offset()));
            };
            consumer.seek(partition, position);
            return new EventStream(namespace, consumer, partition, end, limits, onEnd);
        } catch (RuntimeException e) {
            if (consumer != null) {
                consumer.close(Duration.ZERO);
            }
            onEnd.run();
            throw e;
        }
    }

    /** Starts sending to the client, on a thread of its own (a stream lasts as long as the client stays). */
    void start(SseClient sseClient) {
        this.client = sseClient;
        this.peer = client.ctx().req().getRemoteAddr();
        client.onClose(() -> running = false);
        client.keepAlive();
        // Jetty fails a blocked write once the connection has been idle this long: the write timeout, for this
        // connection only, whatever the server's default.
        Request request = Request.getBaseRequest(client.ctx().req());
        if (request != null) {
            request.getHttpChannel().setIdleTimeout(limits.writeTimeout().toMillis());
        }
        Thread thread = new Thread(this::run, "event-feed-" + partition.partition());
        thread.setDaemon(true);
        thread.start();
    }

    /** Ends the stream from another thread (the server stops). A stream that never started ends at once. */
    void close() {
        running = false;
        if (client == null) {
            end();
        } else {
            consumer.wakeup();
        }
    }

    private void run() {
        try {
            boolean caughtUp = false;
            long lastWrite = System.nanoTime();
            while (running && !client.terminated()) {
                if (!caughtUp && consumer.position(partition) >= endAtOpen) {
                    // Every batch before the end seen at open has been sent: a reader that wants no more stops here.
                    client.sendEvent("caught_up", Json.text(Json.object().put("end_offset", endAtOpen)));
                    caughtUp = true;
                    lastWrite = System.nanoTime();
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                    if (Arrays.equals(record.key(), key) && record.value() != null) {
                        sendBatch(record);
                        lastWrite = System.nanoTime();
                    }
                }
                if (System.nanoTime() - lastWrite >= limits.heartbeat().toNanos()) {
                    // A comment: EventSource ignores it; proxies see traffic, and a client that has gone is noticed
                    // here.
                    client.sendComment("keep-alive");
                    lastWrite = System.nanoTime();
                }
            }
        } catch (WakeupException e) {
            // close(): the server stops
        } catch (IOException e) {
            if (timedOut(e)) {
                // Nothing can tell the client why: its connection holds no room for another byte. It sees the stream
                // end.
                LOG.info(
                        "closed the event stream of namespace \"{}\" to {}: it took nothing for {} s (it may resume with "
                                + "Last-Event-ID)",
                        namespace,
                        peer,
                        limits.writeTimeout().toSeconds());
            }
        } catch (RuntimeException e) {
            LOG.warn("the event feed of namespace \"{}\" failed; closing it", namespace, e);
        } finally {
            end();
            client.close();
        }
    }

    /**
     * One batch as a message, written from the record's bytes: Javalin's {@code sendEvent} would copy them several
     * times over (as lines, as strings, into an encoding buffer). The app writes compact JSON, which holds no line
     * break; a value that does is left to Javalin, which splits it into {@code data:} lines.
     */
    private void sendBatch(ConsumerRecord<byte[], byte[]> record) throws IOException {
        byte[] value = record.value();
        String id = Long.toString(record.offset());
        if (hasLineBreak(value)) {
            client.sendEvent("batch", new ByteArrayInputStream(value), id);
            return;
        }
        ServletOutputStream out = client.ctx().res().getOutputStream();
        out.write(("id: " + id + "\nevent: batch\ndata: ").getBytes(StandardCharsets.US_ASCII));
        out.write(value);
        out.write(MESSAGE_END);
        out.flush();
    }

    private static boolean hasLineBreak(byte[] value) {
        for (byte b : value) {
            if (b == '\n' || b == '\r') {
                return true;
            }
        }
        return false;
    }

    /** Whether the write failed for want of progress (Jetty's idle timeout) rather than a client that hung up. */
    private static boolean timedOut(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof TimeoutException) {
                return true;
            }
        }
        return false;
    }

    private void end() {
        if (ended.compareAndSet(false, true)) {
            consumer.close(Duration.ZERO);
            onEnd.run();
        }
    }
}
