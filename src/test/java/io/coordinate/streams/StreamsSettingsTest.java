package io.coordinate.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.config.AppConfig;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

class StreamsSettingsTest {

    private final Properties props =
            StreamsSettings.of(AppConfig.defaults("127.0.0.1:9092", 8080, Path.of("/var/lib/coordinate")));

    @Test
    void exactlyOnceWithKafkaStreamsCommitTimerAsABackstop() {
        assertThat(props.get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG)).isEqualTo("exactly_once_v2");
        // the processor's CommitPolicy commits at least every 100 ms; the timer only if it did not for 1 s
        assertThat(props.get(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG)).isEqualTo(1000L);
        assertThat(props.get(StreamsConfig.STATE_DIR_CONFIG)).isEqualTo("/var/lib/coordinate");
        assertThat(props.get(StreamsConfig.APPLICATION_SERVER_CONFIG)).isEqualTo("127.0.0.1:8080");
    }

    @Test
    void theBackstopIsTenIntervalsAtMostFiveSecondsNeverBelowTheInterval() {
        assertThat(StreamsSettings.commitBackstopMs(100)).isEqualTo(1_000);
        assertThat(StreamsSettings.commitBackstopMs(400)).isEqualTo(4_000);
        assertThat(StreamsSettings.commitBackstopMs(1_000)).isEqualTo(5_000);
        assertThat(StreamsSettings.commitBackstopMs(9_000)).isEqualTo(9_000);
    }

    @Test
    void aTopologyWithoutTheCommitPolicyIsCommittedByTheTimerAtTheAppsInterval() {
        Properties timer = StreamsSettings.withoutCommitPolicy(
                AppConfig.defaults("127.0.0.1:9092", 8080, Path.of("/var/lib/coordinate")));
        assertThat(timer.get(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG)).isEqualTo(100L);
        timer.remove(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG);
        props.remove(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG);
        assertThat(timer).isEqualTo(props);
    }

    @Test
    void anIdlePollBlocksATenthOfTheCommitIntervalAtMost() {
        // a commit is checked for between polls: a long idle poll delays it, and every output with it
        assertThat(props.get(StreamsConfig.POLL_MS_CONFIG)).isEqualTo(10L);
        assertThat(new StreamsConfig(props).getLong(StreamsConfig.POLL_MS_CONFIG))
                .isEqualTo(10L);
    }

    @Test
    void producerBatchesUpTo128KibCompressedWithLz4() {
        assertThat(props.get(StreamsConfig.producerPrefix("batch.size"))).isEqualTo(131_072);
        assertThat(props.get(StreamsConfig.producerPrefix("linger.ms"))).isEqualTo(5);
        assertThat(props.get(StreamsConfig.producerPrefix("compression.type"))).isEqualTo("lz4");
    }

    @Test
    void theProducerRetriesATransactionStillBeingClosedAfter10Ms() {
        assertThat(props.get(StreamsConfig.producerPrefix("retry.backoff.ms"))).isEqualTo(10L);
        assertThat(new StreamsConfig(props).originalsWithPrefix(StreamsConfig.PRODUCER_PREFIX))
                .containsEntry("retry.backoff.ms", 10L);
    }

    @Test
    void aTaskProcessesItsCommandsWithoutWaitingForTheEmptyChainedTopic() {
        assertThat(new StreamsConfig(props).getLong(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG))
                .isEqualTo(-1L);
    }

    private static final Map<String, String> SASL = Map.of(
            "security.protocol",
            "SASL_SSL",
            "sasl.mechanism",
            "PLAIN",
            "sasl.jaas.config",
            "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\" " + "password=\"p\";",
            "ssl.truststore.location",
            "/etc/kafka/truststore.jks");

    @Test
    void theClientPropertiesReachEveryClientOfKafkaStreams() {
        StreamsConfig streams = new StreamsConfig(
                StreamsSettings.of(AppConfig.defaults("broker:9093", 8080, Path.of("/var/lib/coordinate"))
                        .withKafkaProperties(SASL)));
        for (Map<String, Object> client : java.util.List.of(
                streams.getProducerConfigs("p"),
                streams.getMainConsumerConfigs("g", "c", 0),
                streams.getRestoreConsumerConfigs("r"),
                streams.getAdminConfigs("a"))) {
            assertThat(client).containsAllEntriesOf(SASL).containsEntry("bootstrap.servers", "broker:9093");
        }
    }

    @Test
    void theReplicationFactorAndMinInSyncReplicasReachTheInternalTopics() {
        StreamsConfig streams = new StreamsConfig(
                StreamsSettings.of(AppConfig.defaults("broker:9093", 8080, Path.of("/var/lib/coordinate"))
                        .withReplication(3, 2)));
        assertThat(streams.getInt(StreamsConfig.REPLICATION_FACTOR_CONFIG)).isEqualTo(3);
        assertThat(streams.originalsWithPrefix(StreamsConfig.TOPIC_PREFIX))
                .isEqualTo(Map.of("min.insync.replicas", "2"));
    }

    @Test
    void unsetReplicationLeavesTheBrokersDefaults() {
        assertThat(new StreamsConfig(props).getInt(StreamsConfig.REPLICATION_FACTOR_CONFIG))
                .isEqualTo(-1);
        assertThat(new StreamsConfig(props).originalsWithPrefix(StreamsConfig.TOPIC_PREFIX))
                .isEmpty();
    }
}
