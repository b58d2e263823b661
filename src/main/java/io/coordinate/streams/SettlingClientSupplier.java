package io.coordinate.streams;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.metrics.KafkaMetric;
import org.apache.kafka.streams.KafkaClientSupplier;
import org.apache.kafka.streams.processor.internals.DefaultKafkaClientSupplier;

/**
 * Kafka Streams' own clients, with one addition: once a stream thread's producer has committed a transaction, the
 * {@link CommittedStore}s of that thread write the commit's writes to their files at once ({@link
 * StreamThreadStores#settleCommitted}), where they would otherwise wait for the thread's next call to them (up to a
 * poll's wait later). A process killed in that wait leaves the records' changelog ahead of the store's files: the
 * restart replays it, and the records then move past their indexes, which are rebuilt whole.
 */
public final class SettlingClientSupplier implements KafkaClientSupplier {

    private final KafkaClientSupplier clients = new DefaultKafkaClientSupplier();

    @Override
    public Admin getAdmin(Map<String, Object> config) {
        return clients.getAdmin(config);
    }

    @Override
    public Producer<byte[], byte[]> getProducer(Map<String, Object> config) {
        return new SettlingProducer(clients.getProducer(config));
    }

    @Override
    public Consumer<byte[], byte[]> getConsumer(Map<String, Object> config) {
        return clients.getConsumer(config);
    }

    @Override
    public Consumer<byte[], byte[]> getRestoreConsumer(Map<String, Object> config) {
        return clients.getRestoreConsumer(config);
    }

    @Override
    public Consumer<byte[], byte[]> getGlobalConsumer(Map<String, Object> config) {
        return clients.getGlobalConsumer(config);
    }

    /** The producer, and the settle after each commit it made. */
    static final class SettlingProducer implements Producer<byte[], byte[]> {
        private final Producer<byte[], byte[]> producer;

        SettlingProducer(Producer<byte[], byte[]> producer) {
            this.producer = producer;
        }

        @Override
        public void commitTransaction() {
            producer.commitTransaction(); // throws when the commit failed: nothing settles, the tasks close dirty
            StreamThreadStores.settleCommitted();
        }

        @Override
        public void initTransactions() {
            producer.initTransactions();
        }

        @Override
        public void beginTransaction() {
            producer.beginTransaction();
        }

        @Override
        public void sendOffsetsToTransaction(
                Map<TopicPartition, OffsetAndMetadata> offsets, ConsumerGroupMetadata groupMetadata) {
            producer.sendOffsetsToTransaction(offsets, groupMetadata);
        }

        @Override
        public void abortTransaction() {
            producer.abortTransaction();
        }

        @Override
        public void registerMetricForSubscription(KafkaMetric metric) {
            producer.registerMetricForSubscription(metric);
        }

        @Override
        public void unregisterMetricFromSubscription(KafkaMetric metric) {
            producer.unregisterMetricFromSubscription(metric);
        }

        @Override
        public Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record) {
            return producer.send(record);
        }

        @Override
        public Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record, Callback callback) {
            return producer.send(record, callback);
        }

        @Override
        public void flush() {
            producer.flush();
        }

        @Override
        public List<PartitionInfo> partitionsFor(String topic) {
            return producer.partitionsFor(topic);
        }

        @Override
        public Map<MetricName, ? extends Metric> metrics() {
            return producer.metrics();
        }

        @Override
        public Uuid clientInstanceId(Duration timeout) {
            return producer.clientInstanceId(timeout);
        }

        @Override
        public void close() {
            producer.close();
        }

        @Override
        public void close(Duration timeout) {
            producer.close(timeout);
        }
    }
}
