package io.coordinate.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.protocol.Json;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * (a) The limit: the least a Kafka Streams app can do per record — parse the JSON, one RocksDB put, one output
 * record — with the app's own Streams settings (exactly-once, commit interval, producer batching) and the app's
 * kind of store (persistent, cached, logged). The input is produced first; the clock runs from the moment the
 * streams instance is RUNNING until a read_committed consumer has seen every output record.
 */
public final class BaselineTopology {

    static final String STORE = "baseline-store";
    private static final Logger LOG = LoggerFactory.getLogger(BaselineTopology.class);

    private BaselineTopology() {}

    public static Topology build(String input, String output) {
        Topology topology = new Topology();
        var bytes = Serdes.ByteArray();
        topology.addSource("in", bytes.deserializer(), bytes.deserializer(), input);
        topology.addProcessor("pass-through", PassThrough::new, "in");
        topology.addStateStore(
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(STORE), Serdes.Bytes(), Serdes.ByteArray())
                        .withCachingEnabled(),
                "pass-through");
        topology.addSink("out", output, bytes.serializer(), bytes.serializer(), "pass-through");
        return topology;
    }

    /** Parse, put, forward. A record that is not JSON is dropped (there are none in the benchmark). */
    static final class PassThrough implements Processor<byte[], byte[], byte[], byte[]> {
        private ProcessorContext<byte[], byte[]> context;
        private KeyValueStore<Bytes, byte[]> store;

        @Override
        public void init(ProcessorContext<byte[], byte[]> context) {
            this.context = context;
            this.store = context.getStateStore(STORE);
        }

        @Override
        public void process(Record<byte[], byte[]> record) {
            JsonNode node;
            try {
                node = Json.parse(record.value());
            } catch (IOException e) {
                return;
            }
            if (node.isObject()) {
                store.put(Bytes.wrap(record.key()), record.value());
                context.forward(record);
            }
        }
    }

    /**
     * Produces {@code records} input records, runs the topology over them and times it.
     *
     * @param settings the app's Streams settings ({@code StreamsSettings.of}); application id and state dir are
     *     replaced, {@code application.server} dropped (no HTTP here)
     * @param name     a unique name: the application id and the topics' prefix
     */
    static BenchReport.Baseline run(
            BenchKafka kafka, Properties settings, String name, long records, int partitions, Path stateDir)
            throws InterruptedException {
        String input = name + ".in";
        String output = name + ".out";
        kafka.createTopics(List.of(input, output), partitions);
        InputRecords.produce(kafka, input, records, partitions);

        Properties props = new Properties();
        props.putAll(settings);
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, name);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toAbsolutePath().toString());
        props.remove(StreamsConfig.APPLICATION_SERVER_CONFIG);

        AtomicLong seen = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch allSeen = new CountDownLatch(1);
        long[] doneAt = new long[1];
        try (KafkaConsumer<String, byte[]> consumer = kafka.consumer()) {
            var parts = kafka.partitions(consumer, output);
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            parts.forEach(consumer::position);
            Thread counter = new Thread(
                    () -> {
                        while (seen.get() < records && !stop.get()) {
                            int n = consumer.poll(Duration.ofMillis(100)).count();
                            if (seen.addAndGet(n) >= records) {
                                doneAt[0] = System.nanoTime();
                                allSeen.countDown();
                            }
                        }
                    },
                    "bench-baseline-counter");
            counter.setDaemon(true);

            CountDownLatch running = new CountDownLatch(1);
            long[] runningAt = new long[1];
            KafkaStreams streams = new KafkaStreams(build(input, output), props);
            streams.setStateListener((now, before) -> {
                if (now == KafkaStreams.State.RUNNING && runningAt[0] == 0) {
                    runningAt[0] = System.nanoTime();
                    running.countDown();
                }
            });
            try {
                counter.start();
                long started = System.nanoTime();
                CpuMeter cpu = new CpuMeter();
                streams.start();
                if (!running.await(120, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("baseline streams not RUNNING after 120 s: " + streams.state());
                }
                long timeout = Math.max(120, records / 2_000);
                if (!allSeen.await(timeout, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("baseline: only " + seen.get() + " of " + records
                            + " output records after " + timeout + " s");
                }
                double seconds = (doneAt[0] - runningAt[0]) / 1e9;
                LOG.info("baseline {}: {} records in {} s", name, records, seconds);
                return new BenchReport.Baseline(
                        records, seconds, (runningAt[0] - started) / 1e9, cpu.otherProcessesCores());
            } finally {
                stop.set(true);
                counter.join(5_000);
                // Leave the group, so that an external cluster can delete it right after the run.
                streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                        .withTimeout(Duration.ofSeconds(30)));
                streams.cleanUp();
            }
        }
    }
}
