package io.coordinate.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.broker.EmbeddedKafkaBroker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A transaction that no coordinator will end (here: its coordinator's state was lost with the broker's
 * {@code __transaction_state} log) holds a partition's last stable offset for ever; the check at start aborts it.
 * A young transaction its coordinator knows as ongoing is left alone.
 */
class HangingTransactionsIT {

    private static final String APP = "hang-app";
    private static final String CHANGELOG = APP + "-coordinate-state-changelog";
    private static final TopicPartition PARTITION = new TopicPartition(CHANGELOG, 0);

    @TempDir
    Path dataDir;

    @Test
    void abortsATransactionItsCoordinatorForgotAndLeavesALiveOneAlone() throws Exception {
        Path logDir = dataDir.resolve("kafka");
        EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(logDir, 0);
        int port = broker.port();
        try (Admin admin = admin(broker)) {
            admin.createTopics(List.of(new NewTopic(CHANGELOG, 1, (short) 1)))
                    .all()
                    .get();
        }
        // A producer that opens a transaction and never ends it: 15 min, the broker's maximum.
        KafkaProducer<String, String> stuck = transactional(broker, "stuck");
        stuck.beginTransaction();
        for (int i = 0; i < 4; i++) {
            stuck.send(new ProducerRecord<>(CHANGELOG, "k" + i, "v" + i)).get();
        }
        try (Admin admin = admin(broker)) {
            assertThat(offsets(admin)).containsExactly(0L, 4L); // last stable offset, end
            // Young, and its coordinator has it ongoing on the partition: a live transaction, not touched.
            assertThat(new HangingTransactions(admin).abortOnAppPartitions(APP, List.of()))
                    .isEmpty();
            assertThat(offsets(admin)).containsExactly(0L, 4L);
        }
        stuck.close(Duration.ZERO); // forced: no abort on the way out
        broker.close();
        deleteTransactionState(logDir);

        broker = EmbeddedKafkaBroker.start(logDir, port);
        try (Admin admin = admin(broker)) {
            assertThat(offsets(admin)).containsExactly(0L, 4L); // the partition still holds it open: hanging

            // A live transaction of another producer on the same partition, begun after the hanging one.
            try (KafkaProducer<String, String> live = transactional(broker, "live")) {
                live.beginTransaction();
                live.send(new ProducerRecord<>(CHANGELOG, "live", "1")).get();

                List<HangingTransactions.Aborted> aborted =
                        new HangingTransactions(admin).abortOnAppPartitions(APP, List.of());

                assertThat(aborted).hasSize(1);
                assertThat(aborted.get(0).partition()).isEqualTo(PARTITION);
                assertThat(aborted.get(0).startOffset()).isEqualTo(0L);
                assertThat(aborted.get(0).lastStableOffset()).isEqualTo(0L);
                assertThat(aborted.get(0).endOffset()).isEqualTo(5L);
                // The stable offset moves up to the live transaction's first record (offset 4), past the abort marker's
                // place no further: the live one is still open.
                assertThat(offsets(admin).get(0)).isEqualTo(4L);

                live.commitTransaction();
            }
            // The live transaction committed normally: its record is readable, the hanging one's are not.
            assertThat(readCommitted(broker)).containsExactly("live=1");
            List<Long> after = offsets(admin);
            assertThat(after.get(0)).isEqualTo(after.get(1)); // nothing held back any more
        } finally {
            broker.close();
        }
    }

    /**
     * Seen after a kill -9 of {@code coordinate dev}: a transaction held open on {@code __consumer_offsets} keeps a
     * stable read of the group's committed offsets waiting, and Kafka Streams with it (REBALANCING for ever).
     */
    @Test
    void abortsATransactionItsCoordinatorForgotOnTheGroupsCommittedOffsets() throws Exception {
        Path logDir = dataDir.resolve("kafka");
        EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(logDir, 0);
        int port = broker.port();
        TopicPartition input = new TopicPartition("in", 0);
        try (Admin admin = admin(broker)) {
            admin.createTopics(List.of(new NewTopic("in", 1, (short) 1))).all().get();
        }
        KafkaProducer<String, String> stuck = transactional(broker, "stuck-offsets");
        stuck.beginTransaction();
        stuck.sendOffsetsToTransaction(Map.of(input, new OffsetAndMetadata(7)), new ConsumerGroupMetadata("group-x"));
        stuck.close(Duration.ZERO); // forced: no abort on the way out
        broker.close();
        deleteTransactionState(logDir);

        broker = EmbeddedKafkaBroker.start(logDir, port);
        try (Admin admin = admin(broker)) {
            List<HangingTransactions.Aborted> aborted =
                    new HangingTransactions(admin).abortOnAppPartitions(APP, List.of());

            assertThat(aborted).hasSize(1);
            assertThat(aborted.get(0).partition().topic()).isEqualTo("__consumer_offsets");
            // A stable read of the group's offsets answers again, without the aborted commit.
            assertThat(admin.listConsumerGroupOffsets(
                                    "group-x", new ListConsumerGroupOffsetsOptions().requireStable(true))
                            .partitionsToOffsetAndMetadata()
                            .get(30, TimeUnit.SECONDS))
                    .doesNotContainKey(input);
        } finally {
            broker.close();
        }
    }

    private static List<Long> offsets(Admin admin) throws Exception {
        long stable = admin.listOffsets(
                        Map.of(PARTITION, OffsetSpec.latest()), new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
                .all()
                .get()
                .get(PARTITION)
                .offset();
        long end = admin.listOffsets(Map.of(PARTITION, OffsetSpec.latest()))
                .all()
                .get()
                .get(PARTITION)
                .offset();
        return List.of(stable, end);
    }

    private static List<String> readCommitted(EmbeddedKafkaBroker broker) {
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        broker.bootstrapServers(),
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed"),
                new StringDeserializer(),
                new StringDeserializer())) {
            consumer.assign(List.of(PARTITION));
            consumer.seekToBeginning(List.of(PARTITION));
            List<String> values = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            // The committed end is known: read up to it, however long the fetches take.
            while (consumer.position(PARTITION)
                            < consumer.endOffsets(List.of(PARTITION)).get(PARTITION)
                    && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> values.add(r.key() + "=" + r.value()));
            }
            return values;
        }
    }

    private static KafkaProducer<String, String> transactional(EmbeddedKafkaBroker broker, String id) {
        KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        broker.bootstrapServers(),
                        ProducerConfig.TRANSACTIONAL_ID_CONFIG,
                        id,
                        ProducerConfig.TRANSACTION_TIMEOUT_CONFIG,
                        900_000),
                new StringSerializer(),
                new StringSerializer());
        producer.initTransactions();
        return producer;
    }

    private static Admin admin(EmbeddedKafkaBroker broker) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()));
    }

    /** The coordinator's memory of every transaction: gone, as if its log had been lost. */
    private static void deleteTransactionState(Path logDir) throws IOException {
        try (Stream<Path> dirs = Files.list(logDir)) {
            for (Path dir : dirs.filter(d -> d.getFileName().toString().startsWith("__transaction_state-"))
                    .toList()) {
                try (Stream<Path> tree = Files.walk(dir)) {
                    for (Path p : tree.sorted(Comparator.reverseOrder()).toList()) {
                        Files.delete(p);
                    }
                }
            }
        }
    }
}
