package io.coordinate.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.config.AppConfig;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

/** Failover settings: static membership when an instance id is set, a 10 s session, the standby replicas asked. */
class MembershipSettingsTest {

    private static final AppConfig BASE = AppConfig.defaults("127.0.0.1:9092", 8080, Path.of("/var/lib/coordinate"));

    @Test
    void anInstanceIdMakesTheMainConsumerAStaticMember() {
        Properties props = StreamsSettings.of(BASE.withMembership(2, "node-7"));
        assertThat(props.get("main.consumer.group.instance.id")).isEqualTo("node-7");
        assertThat(props.get(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG)).isEqualTo(2);
    }

    @Test
    void withoutAnInstanceIdMembershipIsDynamic() {
        Properties props = StreamsSettings.of(BASE);
        assertThat(props).doesNotContainKey("main.consumer.group.instance.id");
        assertThat(props.get(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG)).isEqualTo(0);
    }

    @Test
    void aSilentMemberLosesItsPartitionsAfterTenSeconds() {
        Properties props = StreamsSettings.of(BASE);
        assertThat(props.get("main.consumer.session.timeout.ms")).isEqualTo(10_000);
        assertThat(props.get("main.consumer.heartbeat.interval.ms")).isEqualTo(3_000);
    }
}
