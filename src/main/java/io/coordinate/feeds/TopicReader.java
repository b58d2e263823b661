package io.coordinate.feeds;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reading the app's output topics from outside Kafka Streams (the HTTP event feed and dead letters, the CLI): a
 * plain consumer with {@code assign}, no group and nothing committed, read_committed so that the records of an
 * aborted transaction never show.
 */
public final class TopicReader {

    private TopicReader() {}

    /**
     * A consumer of bytes over {@code clientProperties} (bootstrap servers, TLS, SASL: {@code
     * KafkaClientSettings.base} or the CLI's {@code --kafka-config}); the caller closes it.
     */
    public static KafkaConsumer<byte[], byte[]> open(
            Map<String, Object> clientProperties, String clientId, Duration apiTimeout) {
        Map<String, Object> config = new HashMap<>(clientProperties);
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        // A position that retention has deleted meanwhile: go on from the oldest record kept, never jump to the end.
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        config.putIfAbsent(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) apiTimeout.toMillis());
        config.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        return new KafkaConsumer<>(config);
    }

    /** The partitions of {@code topic}; {@link NoSuchTopicException} when it does not exist. */
    public static List<TopicPartition> partitions(Consumer<?, ?> consumer, String topic) {
        List<PartitionInfo> infos = consumer.partitionsFor(topic);
        if (infos == null || infos.isEmpty()) {
            throw new NoSuchTopicException(topic);
        }
        return infos.stream()
                .map(info -> new TopicPartition(topic, info.partition()))
                .sorted(Comparator.comparingInt(TopicPartition::partition))
                .toList();
    }

    /** UTF-8, with U+FFFD for bytes that are not; null stays null. */
    public static String text(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    /** The last header of that name as text, or null. */
    public static String header(ConsumerRecord<?, ?> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : text(header.value());
    }

    /** A topic the app should have made is not there: another cluster, or another topic prefix. */
    public static final class NoSuchTopicException extends RuntimeException {

        private final String topic;

        public NoSuchTopicException(String topic) {
            super("topic " + topic + " does not exist (is the app set up on this cluster, with this topic prefix?)");
            this.topic = topic;
        }

        public String topic() {
            return topic;
        }
    }
}
