package io.coordinate.query;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.client.NamespacePartitioner;
import io.coordinate.feeds.DeadLetters;
import io.coordinate.feeds.TopicReader;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.Times;
import io.coordinate.protocol.TopicNames;
import io.javalin.http.Context;
import io.javalin.router.JavalinDefaultRouting;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The dead letters over HTTP ({@code coordinate.dead-letter}, read with {@link DeadLetters} as {@code coordinate
 * dead-letters tail} reads it). Any instance answers; each request reads with a consumer of its own.
 *
 * <p>{@code GET /api/dead-letters?limit=N[&namespace=ns]}: {@code {"dead_letters": [{"partition", "offset",
 * "timestamp", "key", "error_code", "error_message", "source_topic", "source_partition", "source_offset",
 * "value_preview", "retryable"}]}}: the dead letter's own place, and the place of the record it replaces; the last
 * {@code limit} (default 100, at most 1000) records, newest first; with {@code namespace}, only those keyed by it.
 *
 * <p>{@code POST /api/dead-letters/{partition}/{offset}/retry} (a mutation: it needs the token when one is set)
 * sends the record's key and value again to {@code coordinate.commands}, without its headers, and answers {@code
 * {"retried": {"partition", "offset"}, "sent_to": {"topic", "partition", "offset"}}}: 404 {@code
 * no_such_dead_letter} for an offset that holds no dead letter, 409 {@code not_retryable} for the cut copy of a
 * record too large to copy whole, 502 {@code gateway_error} / 504 {@code timeout} when the record cannot be sent.
 * 503 {@code unavailable} when Kafka cannot be read.
 */
final class DeadLetterRoutes implements AutoCloseable {

    /** How much of a value the list shows: enough to recognise a command, never a page of megabytes. */
    static final int PREVIEW_BYTES = 2048;

    static final String LIST_PATH = "/api/dead-letters";
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration SEND_TIMEOUT = Duration.ofSeconds(30);

    private final Map<String, Object> clientProperties;
    private final TopicNames topics;
    private KafkaProducer<byte[], byte[]> producer;

    DeadLetterRoutes(Map<String, Object> clientProperties, TopicNames topics) {
        this.clientProperties = Map.copyOf(clientProperties);
        this.topics = topics;
    }

    void register(JavalinDefaultRouting routes) {
        routes.get(LIST_PATH, this::list);
        routes.post("/api/dead-letters/{partition}/{offset}/retry", this::retry);
    }

    private void list(Context ctx) {
        int limit = QueryParams.limit(ctx);
        String namespace = ctx.queryParam("namespace");
        byte[] key = namespace == null || namespace.isEmpty() ? null : namespace.getBytes(StandardCharsets.UTF_8);
        String topic = topics.deadLetter();
        List<ConsumerRecord<byte[], byte[]>> records;
        try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
            List<TopicPartition> partitions = TopicReader.partitions(consumer, topic);
            if (key != null) {
                // A dead letter keeps the original key, and the sink partitions by key: one partition holds them all.
                partitions = List.of(partitions.get(NamespacePartitioner.partition(key, partitions.size())));
            }
            consumer.assign(partitions);
            records = DeadLetters.last(
                    consumer,
                    partitions,
                    consumer.endOffsets(partitions),
                    limit,
                    record -> key == null || Arrays.equals(key, record.key()),
                    READ_TIMEOUT);
        } catch (TopicReader.NoSuchTopicException | KafkaException e) {
            throw QueryError.unavailable("cannot read " + topic + ": " + e.getMessage());
        }
        ObjectNode body = Json.object();
        ArrayNode list = body.putArray("dead_letters");
        for (int i = records.size() - 1; i >= 0; i--) {
            list.add(view(records.get(i)));
        }
        Responses.json(ctx, 200, body);
    }

    private void retry(Context ctx) {
        ConsumerRecord<byte[], byte[]> record = find(ctx.pathParam("partition"), ctx.pathParam("offset"));
        if (!DeadLetters.retryable(record)) {
            throw new QueryError(
                    409,
                    "not_retryable",
                    "dead letter " + record.partition() + "/" + record.offset()
                            + " is a cut copy of a record of "
                            + TopicReader.header(record, DeadLetters.ORIGINAL_VALUE_BYTES)
                            + " bytes, not the command that was sent; the whole record is on "
                            + TopicReader.header(record, DeadLetters.SOURCE_TOPIC) + " at offset "
                            + TopicReader.header(record, DeadLetters.SOURCE_OFFSET),
                    false);
        }
        RecordMetadata sent;
        try {
            sent = producer()
                    .send(new ProducerRecord<>(topics.commands(), record.key(), record.value()))
                    .get(SEND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            Responses.json(
                    ctx,
                    504,
                    Responses.error(
                            "timeout",
                            "not acknowledged within " + SEND_TIMEOUT.toSeconds()
                                    + " s; the record may still be sent"));
            return;
        } catch (ExecutionException | KafkaException e) {
            Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            Responses.json(ctx, 502, Responses.error("gateway_error", "the record could not be sent: " + cause));
            return;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw QueryError.unavailable("interrupted while sending");
        }
        ObjectNode body = Json.object();
        body.putObject("retried").put("partition", record.partition()).put("offset", record.offset());
        body.putObject("sent_to")
                .put("topic", sent.topic())
                .put("partition", sent.partition())
                .put("offset", sent.offset());
        Responses.json(ctx, 200, body);
    }

    /** The dead letter at that place; 404 when the numbers name none. */
    private ConsumerRecord<byte[], byte[]> find(String partitionText, String offsetText) {
        String topic = topics.deadLetter();
        QueryError none = QueryError.notFound(
                "no_such_dead_letter",
                "no dead letter at partition " + partitionText + ", offset " + offsetText + " of " + topic);
        int partition;
        long offset;
        try {
            partition = Integer.parseInt(partitionText);
            offset = Long.parseLong(offsetText);
        } catch (NumberFormatException e) {
            throw none;
        }
        try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
            if (partition < 0
                    || partition >= TopicReader.partitions(consumer, topic).size()) {
                throw none;
            }
            Optional<ConsumerRecord<byte[], byte[]>> record =
                    DeadLetters.at(consumer, new TopicPartition(topic, partition), offset, READ_TIMEOUT);
            return record.orElseThrow(() -> none);
        } catch (TopicReader.NoSuchTopicException | KafkaException e) {
            throw QueryError.unavailable("cannot read " + topic + ": " + e.getMessage());
        }
    }

    private ObjectNode view(ConsumerRecord<byte[], byte[]> record) {
        ObjectNode view = Json.object();
        view.put("partition", record.partition());
        view.put("offset", record.offset());
        view.put("timestamp", Times.format(record.timestamp()));
        view.put("key", TopicReader.text(record.key()));
        view.put("error_code", TopicReader.header(record, DeadLetters.ERROR_CODE));
        view.put("error_message", TopicReader.header(record, DeadLetters.ERROR_MESSAGE));
        view.put("source_topic", TopicReader.header(record, DeadLetters.SOURCE_TOPIC));
        view.set("source_partition", number(TopicReader.header(record, DeadLetters.SOURCE_PARTITION)));
        view.set("source_offset", number(TopicReader.header(record, DeadLetters.SOURCE_OFFSET)));
        view.put("value_preview", preview(record.value()));
        view.put("retryable", DeadLetters.retryable(record));
        return view;
    }

    /** A header's number as JSON; null when it is missing or not a number (a record dead-lettered by hand). */
    private static JsonNode number(String header) {
        if (header != null) {
            try {
                return Json.MAPPER.getNodeFactory().numberNode(Long.parseLong(header));
            } catch (NumberFormatException e) {
                // not one of the app's headers: shown as missing
            }
        }
        return Json.MAPPER.nullNode();
    }

    /** The first {@link #PREVIEW_BYTES} bytes as UTF-8 text, not cutting a character in two; null for no value. */
    static String preview(byte[] value) {
        if (value == null) {
            return null;
        }
        int length = Math.min(value.length, PREVIEW_BYTES);
        // Back off to the start of a character: UTF-8 continuation bytes are 10xxxxxx.
        while (length < value.length && length > 0 && (value[length] & 0xC0) == 0x80) {
            length--;
        }
        return new String(value, 0, length, StandardCharsets.UTF_8);
    }

    private KafkaConsumer<byte[], byte[]> consumer() {
        return TopicReader.open(clientProperties, "coordinate-http-dead-letters", READ_TIMEOUT);
    }

    /** Made on the first retry: most instances never send one. */
    private synchronized KafkaProducer<byte[], byte[]> producer() {
        if (producer == null) {
            Map<String, Object> config = new HashMap<>(clientProperties);
            config.put(ProducerConfig.ACKS_CONFIG, "all");
            config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
            config.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "coordinate-http-retry");
            producer = new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
        }
        return producer;
    }

    @Override
    public synchronized void close() {
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
            producer = null;
        }
    }
}
