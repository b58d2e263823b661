package io.coordinate.bench;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The records the baseline and the share group consume: one JSON object of about 200 bytes per record, keyed by a
 * distinct id, like the unit objects of {@code add_work_units} (the size of the Streams figures in KAFKA-FACTS).
 */
final class InputRecords {

    private static final String PADDING = "x".repeat(96);

    private InputRecords() {}

    static String key(long i) {
        return String.format(Locale.ROOT, "r%09d", i);
    }

    static byte[] value(long i) {
        return String.format(
                        Locale.ROOT,
                        "{\"name\":\"%s\",\"priority\":%d,\"data\":{\"i\":%d,\"pad\":\"%s\"},\"time\":\"2026-01-01T00:00:00.000Z\"}",
                        key(i),
                        i % 10,
                        i,
                        PADDING)
                .getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Sends {@code count} records and waits until the broker has them all. The first record of each partition is sent
     * alone and waited for: a topic created a moment ago may not have its leader ready, and an idempotent producer
     * that gets NOT_LEADER on its first batches while later ones are in flight can end up retrying them out of
     * order (OUT_OF_ORDER_SEQUENCE_NUMBER until the delivery timeout). A failed send fails the run.
     */
    static void produce(BenchKafka kafka, String topic, long count, int partitions) {
        AtomicReference<Exception> failure = new AtomicReference<>();
        try (KafkaProducer<String, byte[]> producer = kafka.producer()) {
            long i = 0;
            for (; i < Math.min(count, partitions); i++) {
                try {
                    producer.send(new ProducerRecord<>(topic, (int) i, key(i), value(i)))
                            .get(120, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted", e);
                } catch (ExecutionException | TimeoutException e) {
                    throw new IllegalStateException("cannot produce to " + topic + ": " + e.getMessage(), e);
                }
            }
            for (; i < count; i++) {
                producer.send(new ProducerRecord<>(topic, key(i), value(i)), (metadata, e) -> {
                    if (e != null) {
                        failure.compareAndSet(null, e);
                    }
                });
            }
            producer.flush();
        }
        if (failure.get() != null) {
            throw new IllegalStateException(
                    "cannot produce to " + topic + ": " + failure.get().getMessage(), failure.get());
        }
    }
}
