package io.coordinate.testing;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.protocol.Json;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * What an integration test needs of a real cluster and the app: a plain Kafka producer for commands, a
 * read_committed reader of any topic from the beginning, and HTTP GETs of the query API.
 */
public final class KafkaTestClient implements AutoCloseable {

    private static final Duration WAIT = Duration.ofSeconds(60);

    private final String bootstrapServers;
    private final String httpBase;
    private final KafkaProducer<String, String> producer;
    private final HttpClient http = HttpClient.newHttpClient();

    public KafkaTestClient(String bootstrapServers, int httpPort) {
        this.bootstrapServers = bootstrapServers;
        this.httpBase = "http://127.0.0.1:" + httpPort;
        this.producer = new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrapServers,
                        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                        true,
                        ProducerConfig.ACKS_CONFIG,
                        "all"),
                new StringSerializer(),
                new StringSerializer());
    }

    /** Sends one record keyed by {@code key} and waits for the broker's ack. */
    /** Sends one record and waits for it to be written; answers where it was written. */
    public org.apache.kafka.clients.producer.RecordMetadata send(String topic, String key, String value) {
        try {
            return producer.send(new ProducerRecord<>(topic, key, value)).get();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Reads the topic from the beginning until {@code done} holds for what was read, or fails after 60 s. */
    public List<ConsumerRecord<byte[], byte[]>> readUntil(
            String topic, Predicate<List<ConsumerRecord<byte[], byte[]>>> done) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrapServers,
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed",
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                        "earliest",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        false),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (!done.test(records)) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("timed out reading " + topic + "; got " + records.size() + " records: "
                            + records.stream()
                                    .map(r -> new String(r.value(), StandardCharsets.UTF_8))
                                    .toList());
                }
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
            return records;
        }
    }

    /** The JSON values of the records of {@code topic} with key {@code key}, waiting until there are {@code n}. */
    public List<JsonNode> awaitValues(String topic, String key, int n) {
        return readUntil(topic, records -> withKey(records, key).size() >= n).stream()
                .filter(r -> key.equals(keyOf(r)))
                .map(r -> Json.parse(new String(r.value(), StandardCharsets.UTF_8)))
                .toList();
    }

    /** The JSON values of the records of {@code topic} with key {@code key}, read until {@code done} holds for them. */
    public List<JsonNode> valuesUntil(String topic, String key, Predicate<List<JsonNode>> done) {
        return values(readUntil(topic, records -> done.test(values(records, key))), key);
    }

    private static List<JsonNode> values(List<ConsumerRecord<byte[], byte[]>> records, String key) {
        return withKey(records, key).stream()
                .map(r -> Json.parse(new String(r.value(), StandardCharsets.UTF_8)))
                .toList();
    }

    private static List<ConsumerRecord<byte[], byte[]>> withKey(
            List<ConsumerRecord<byte[], byte[]>> records, String key) {
        return records.stream().filter(r -> key.equals(keyOf(r))).toList();
    }

    public static String keyOf(ConsumerRecord<byte[], byte[]> record) {
        return record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
    }

    /** GET {@code path} (segments already encoded) and parse the JSON answer; returns status and body. */
    public HttpAnswer get(String path) {
        try {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(URI.create(httpBase + path)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            return new HttpAnswer(
                    response.statusCode(), response.body().isEmpty() ? null : Json.parse(response.body()));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** GET {@code path} and return the body as text (for answers that are not JSON: {@code /metrics}). */
    public String getText(String path) {
        try {
            return http.send(
                            HttpRequest.newBuilder(URI.create(httpBase + path))
                                    .GET()
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    public HttpAnswer post(String path, String body) {
        try {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(URI.create(httpBase + path))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(body))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            return new HttpAnswer(
                    response.statusCode(), response.body().isEmpty() ? null : Json.parse(response.body()));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    public static String encode(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }

    @Override
    public void close() {
        producer.close();
    }

    /** An HTTP status and JSON body. */
    public record HttpAnswer(int status, JsonNode body) {}
}
