package io.coordinate.feeds;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;

/**
 * Reading {@code coordinate.dead-letter} (docs/reference.md "Dead-letter record"): its last records, one record by
 * its offset, and what its headers say. Shared by {@code coordinate dead-letters tail} and the HTTP API.
 */
public final class DeadLetters {

    public static final String ERROR_CODE = "error.code";
    public static final String ERROR_MESSAGE = "error.message";
    public static final String SOURCE_TOPIC = "source.topic";
    public static final String SOURCE_PARTITION = "source.partition";
    public static final String SOURCE_OFFSET = "source.offset";
    /** Only on the copy of a record too large to copy whole: that copy is not the command that was sent. */
    public static final String ORIGINAL_VALUE_BYTES = "error.original.value.bytes";

    /** Oldest first: the order records were dead-lettered in, whatever their partition. */
    public static final Comparator<ConsumerRecord<byte[], byte[]>> OLDEST_FIRST = Comparator.comparingLong(
                    ConsumerRecord<byte[], byte[]>::timestamp)
            .thenComparingInt(ConsumerRecord::partition)
            .thenComparingLong(ConsumerRecord::offset);

    private static final Duration POLL = Duration.ofMillis(200);

    private DeadLetters() {}

    /** Whether re-sending the record's key and value sends the original command: not when only a cut copy is kept. */
    public static boolean retryable(ConsumerRecord<?, ?> record) {
        return record.headers().lastHeader(ORIGINAL_VALUE_BYTES) == null;
    }

    /**
     * The last {@code n} records of {@code partitions} (assigned to the consumer) that {@code shown} accepts, oldest
     * first ({@link #OLDEST_FIRST}), read up to {@code end}, where the consumer is left. Offsets are not records
     * (transaction markers take offsets too) and other namespaces' records share the partitions, so it reads back
     * from the end in windows that grow until it has found enough or read everything.
     *
     * @param timeout how long it may read, null for no limit; then a Kafka {@link TimeoutException}
     */
    public static List<ConsumerRecord<byte[], byte[]>> last(
            Consumer<byte[], byte[]> consumer,
            List<TopicPartition> partitions,
            Map<TopicPartition, Long> end,
            int n,
            Predicate<ConsumerRecord<byte[], byte[]>> shown,
            Duration timeout) {
        long deadline = timeout == null ? 0 : System.nanoTime() + timeout.toNanos();
        Map<TopicPartition, Long> beginning = consumer.beginningOffsets(partitions);
        List<ConsumerRecord<byte[], byte[]>> found = new ArrayList<>();
        for (long window = Math.max(16, 2L * n); n > 0; window *= 4) {
            found.clear();
            boolean wholeTopic = true;
            for (TopicPartition partition : partitions) {
                long from = Math.max(beginning.get(partition), end.get(partition) - window);
                wholeTopic &= from == beginning.get(partition);
                consumer.seek(partition, from);
            }
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                if (timeout != null && System.nanoTime() - deadline > 0) {
                    throw new TimeoutException("reading the dead letters took over " + timeout.toSeconds() + " s");
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                    if (record.offset() < end.get(new TopicPartition(record.topic(), record.partition()))
                            && shown.test(record)) {
                        found.add(record);
                    }
                }
            }
            if (found.size() >= n || wholeTopic) {
                break;
            }
        }
        found.sort(OLDEST_FIRST);
        partitions.forEach(partition -> consumer.seek(partition, end.get(partition)));
        return found.subList(Math.max(0, found.size() - n), found.size());
    }

    /**
     * The committed record at {@code offset} of {@code partition} (which the consumer gets assigned), or empty: an
     * offset before the oldest one kept or past the end, a transaction marker's, or an aborted record's.
     */
    public static Optional<ConsumerRecord<byte[], byte[]>> at(
            Consumer<byte[], byte[]> consumer, TopicPartition partition, long offset, Duration timeout) {
        consumer.assign(List.of(partition));
        long first = consumer.beginningOffsets(List.of(partition)).get(partition);
        long end = consumer.endOffsets(List.of(partition)).get(partition);
        if (offset < first || offset >= end) {
            return Optional.empty();
        }
        consumer.seek(partition, offset);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (consumer.position(partition) < end) {
            if (System.nanoTime() - deadline > 0) {
                throw new TimeoutException(
                        "reading " + partition + " at " + offset + " took over " + timeout.toSeconds() + " s");
            }
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                // The first record read at or after the offset tells: it is the one, or the offset held none.
                return record.offset() == offset ? Optional.of(record) : Optional.empty();
            }
        }
        return Optional.empty();
    }
}
