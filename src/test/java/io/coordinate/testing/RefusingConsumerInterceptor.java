package io.coordinate.testing;

import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerInterceptor;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * A consumer interceptor that makes the consumer it is configured into fail to build while {@link #refuse} is set:
 * given to Kafka Streams' main consumer, it stands for a replacement stream thread that cannot start (as one cannot
 * in a process out of file descriptors).
 */
public final class RefusingConsumerInterceptor<K, V> implements ConsumerInterceptor<K, V> {

    public static volatile boolean refuse;

    @Override
    public void configure(Map<String, ?> configs) {
        if (refuse) {
            throw new IllegalStateException("RefusingConsumerInterceptor: no new consumer");
        }
    }

    @Override
    public ConsumerRecords<K, V> onConsume(ConsumerRecords<K, V> records) {
        return records;
    }

    @Override
    public void onCommit(Map<TopicPartition, OffsetAndMetadata> offsets) {}

    @Override
    public void close() {}
}
