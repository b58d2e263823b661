package io.coordinate.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Properties;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

class BaselineTopologyTest {

    @Test
    void parsesPutsAndForwardsEachRecord() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "baseline-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        try (TopologyTestDriver driver = new TopologyTestDriver(BaselineTopology.build("in", "out"), props)) {
            var in = driver.createInputTopic("in", new ByteArraySerializer(), new ByteArraySerializer());
            var out = driver.createOutputTopic("out", new ByteArrayDeserializer(), new ByteArrayDeserializer());
            for (long i = 0; i < 3; i++) {
                in.pipeInput(InputRecords.key(i).getBytes(StandardCharsets.UTF_8), InputRecords.value(i));
            }
            in.pipeInput("bad".getBytes(StandardCharsets.UTF_8), "{oops".getBytes(StandardCharsets.UTF_8));

            var records = out.readKeyValuesToList();
            assertThat(records).hasSize(3);
            assertThat(records.get(2).value).isEqualTo(InputRecords.value(2));
            KeyValueStore<Bytes, byte[]> store = driver.getKeyValueStore(BaselineTopology.STORE);
            assertThat(store.get(Bytes.wrap(InputRecords.key(1).getBytes(StandardCharsets.UTF_8))))
                    .isEqualTo(InputRecords.value(1));
            assertThat(store.approximateNumEntries()).isEqualTo(3);
        }
    }

    @Test
    void inputRecordsAreAbout200Bytes() {
        assertThat(InputRecords.value(0).length).isBetween(180, 220);
        assertThat(InputRecords.value(123_456_789).length).isBetween(180, 230);
    }
}
