package io.coordinate.streams;

import io.coordinate.metrics.CommandObserver;
import io.coordinate.protocol.TopicNames;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;

/**
 * The topology: {@code coordinate.commands} and {@code coordinate.chained} (co-partitioned by namespace)
 * into one engine processor with two RocksDB stores (records, changelogged; derived indexes, local); one sink per output topic. Keys and values stay bytes
 * end to end; the processor does the parsing, so a bad record can never fail deserialization.
 */
public final class CoordinateTopology {

    private CoordinateTopology() {}

    public static Topology build(
            TopicNames topics, Duration punctuateInterval, Duration commitInterval, int commandPartitions) {
        return build(topics, punctuateInterval, commitInterval, commandPartitions, () -> new SplittableRandom());
    }

    /**
     * @param commitInterval the longest a processed command's outputs wait for their commit ({@link CommitPolicy})
     * @param commandPartitions the partition count of the commands topic, to detect records that a producer
     *     put on another partition than Kafka's default partitioner would (they are moved, see
     *     {@link CommandProcessor})
     * @param randomSource one random generator per task (tests pass seeded ones)
     */
    public static Topology build(
            TopicNames topics,
            Duration punctuateInterval,
            Duration commitInterval,
            int commandPartitions,
            Supplier<RandomGenerator> randomSource) {
        return build(topics, punctuateInterval, commitInterval, commandPartitions, randomSource, CommandObserver.NONE);
    }

    /** @param metrics told of every command and time step (the app's queue metrics) */
    public static Topology build(
            TopicNames topics,
            Duration punctuateInterval,
            Duration commitInterval,
            int commandPartitions,
            Supplier<RandomGenerator> randomSource,
            CommandObserver metrics) {
        Topology topology = new Topology();
        var bytes = Serdes.ByteArray();
        topology.addSource(StoreNames.COMMANDS_SOURCE, bytes.deserializer(), bytes.deserializer(), topics.commands());
        topology.addSource(StoreNames.CHAINED_SOURCE, bytes.deserializer(), bytes.deserializer(), topics.chained());
        topology.addProcessor(
                StoreNames.ENGINE,
                () -> new CommandProcessor(
                        punctuateInterval, commitInterval, topics.commands(), commandPartitions, randomSource, metrics),
                StoreNames.COMMANDS_SOURCE,
                StoreNames.CHAINED_SOURCE);
        // Records: changelogged, not cached. A command's writes are already merged by its WriteBuffer, and a unit's
        // writes fall in different commits (add, request, finish), so the record cache merged nothing and cost a
        // sorted-map insert per write (without it: more units/s, the same changelog bytes; docs/performance.md).
        // Indexes: neither changelog nor cache: a write is one RocksDB put (see TaskState).
        // Both are written on the stream thread only: Kafka Streams' stores read the task's record context as they
        // write, which a writer thread of their own would read while the stream thread moved on.
        // Both are CommittedStores: their files hold only committed writes, so a crash leaves them usable (TaskState).
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                                CommittedStore.supplier(StoreNames.STATE), Serdes.Bytes(), Serdes.ByteArray())
                        .withCachingDisabled(),
                StoreNames.ENGINE);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                                CommittedStore.supplier(StoreNames.INDEXES), Serdes.Bytes(), Serdes.ByteArray())
                        .withCachingDisabled()
                        .withLoggingDisabled(),
                StoreNames.ENGINE);
        addSink(topology, StoreNames.ASSIGNMENTS_SINK, topics.assignments());
        addSink(topology, StoreNames.REPLIES_SINK, topics.replies());
        addSink(topology, StoreNames.EVENTS_SINK, topics.events());
        addSink(topology, StoreNames.CHAINED_SINK, topics.chained());
        addSink(topology, StoreNames.RESULTS_SINK, topics.results());
        addSink(topology, StoreNames.DEAD_LETTER_SINK, topics.deadLetter());
        // Sinks use Kafka's default partitioner (murmur2 of the key bytes), the one this sink moves records to.
        addSink(topology, StoreNames.REROUTE_SINK, topics.commands());
        return topology;
    }

    private static void addSink(Topology topology, String name, String topic) {
        var bytes = Serdes.ByteArray();
        topology.addSink(name, topic, bytes.serializer(), bytes.serializer(), StoreNames.ENGINE);
    }
}
