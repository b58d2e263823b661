package io.coordinate.broker;

import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.protocol.TopicNames;
import io.coordinate.streams.topics.TopicBootstrapper;
import io.coordinate.streams.topics.TopicDefinitions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded broker is a real broker: topics, produce, consume, and data that survives a restart. */
class EmbeddedKafkaBrokerIT {

    @TempDir
    Path dir;

    @Test
    void createsTopicsAndKeepsRecordsAcrossARestart() throws Exception {
        String clusterId;
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(dir, 0)) {
            clusterId = broker.clusterId();
            assertThat(broker.bootstrapServers()).matches("127\\.0\\.0\\.1:\\d+");

            List<String> created =
                    TopicBootstrapper.ensureTopics(broker.bootstrapServers(), "", TopicDefinitions.fromClasspath());
            assertThat(created).containsExactlyInAnyOrderElementsOf(TopicNames.ALL);
            // A second bootstrap finds everything in place and creates nothing.
            assertThat(TopicBootstrapper.ensureTopics(broker.bootstrapServers(), "", TopicDefinitions.fromClasspath()))
                    .isEmpty();
            assertTopicsAsDefined(broker.bootstrapServers());

            produce(broker.bootstrapServers(), "ns-1", "{\"command\":\"hello\"}");
            assertThat(consumeAll(broker.bootstrapServers())).containsExactly("ns-1={\"command\":\"hello\"}");
        }

        // Same dir, new ports: same cluster, the topics and the record are still there.
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(dir, 0)) {
            assertThat(broker.clusterId()).isEqualTo(clusterId);
            assertThat(TopicBootstrapper.ensureTopics(broker.bootstrapServers(), "", TopicDefinitions.fromClasspath()))
                    .isEmpty();
            assertThat(consumeAll(broker.bootstrapServers())).containsExactly("ns-1={\"command\":\"hello\"}");
        }
    }

    @Test
    void twoBrokersRunSideBySideInOneJvm(@TempDir Path other) throws Exception {
        try (EmbeddedKafkaBroker a = EmbeddedKafkaBroker.start(dir, 0);
                EmbeddedKafkaBroker b = EmbeddedKafkaBroker.start(other, 0)) {
            assertThat(a.clusterId()).isNotEqualTo(b.clusterId());
            List<String> created =
                    TopicBootstrapper.ensureTopics(b.bootstrapServers(), "test-", TopicDefinitions.fromClasspath());
            assertThat(created).contains("test-" + TopicNames.COMMANDS);
            try (Admin admin = admin(a.bootstrapServers())) {
                assertThat(admin.listTopics().names().get()).doesNotContain("test-" + TopicNames.COMMANDS);
            }
        }
    }

    private static void assertTopicsAsDefined(String bootstrap) throws Exception {
        try (Admin admin = admin(bootstrap)) {
            var descriptions = admin.describeTopics(
                            Set.of(TopicNames.COMMANDS, TopicNames.DEAD_LETTER, TopicNames.EVENTS))
                    .allTopicNames()
                    .get();
            assertThat(descriptions.get(TopicNames.COMMANDS).partitions()).hasSize(6);
            assertThat(descriptions.get(TopicNames.DEAD_LETTER).partitions()).hasSize(1);
            ConfigResource events = new ConfigResource(ConfigResource.Type.TOPIC, TopicNames.EVENTS);
            ConfigEntry retention = admin.describeConfigs(List.of(events))
                    .all()
                    .get()
                    .get(events)
                    .get("retention.ms");
            assertThat(retention.value()).isEqualTo("-1");
        }
    }

    private static void produce(String bootstrap, String key, String value) throws Exception {
        Map<String, Object> config = Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(config)) {
            producer.send(new ProducerRecord<>(TopicNames.COMMANDS, key, value)).get();
        }
    }

    /** Reads coordinate.commands from the beginning until one record arrived or 30 s passed. */
    private static List<String> consumeAll(String bootstrap) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                StringDeserializer.class,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest",
                ConsumerConfig.GROUP_ID_CONFIG,
                "it-" + System.nanoTime());
        List<String> seen = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config)) {
            consumer.subscribe(List.of(TopicNames.COMMANDS));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (seen.isEmpty() && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    seen.add(r.key() + "=" + r.value());
                }
            }
        }
        return seen;
    }

    private static Admin admin(String bootstrap) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
    }
}
