package io.coordinate.streams;

import io.coordinate.metrics.CommandObserver;
import io.coordinate.protocol.TopicNames;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Properties;
import java.util.SplittableRandom;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyTestDriver;

/**
 * The app's topology in a {@link TopologyTestDriver}, as the topology tests drive it: unprefixed topics, a punctuator
 * every second, a seeded random source per task, the app's RocksDB settings, and a wall clock that starts at
 * {@link #START} and moves only when the test says.
 */
final class TopologyDrivers {

    static final Instant START = Instant.parse("2026-11-22T10:00:00Z");
    static final TopicNames TOPICS = TopicNames.unprefixed();

    private TopologyDrivers() {}

    /** @param partitions the commands topic's partition count the processor routes by (the driver reads partition 0) */
    static TopologyTestDriver start(Path stateDir, int partitions) {
        return start(stateDir, partitions, CommandObserver.NONE);
    }

    /** @param metrics told of every command and time step, as the app's queue metrics are */
    static TopologyTestDriver start(Path stateDir, int partitions, CommandObserver metrics) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "topology-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        // The app's RocksDB settings (StreamsSettings): the stores run on the shared, bounded cache.
        props.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, BoundedRocksDbMemory.class);
        return new TopologyTestDriver(
                CoordinateTopology.build(
                        TOPICS,
                        Duration.ofSeconds(1),
                        Duration.ofMillis(100),
                        partitions,
                        () -> new SplittableRandom(7),
                        metrics),
                props,
                START);
    }
}
