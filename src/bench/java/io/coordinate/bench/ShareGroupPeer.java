package io.coordinate.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * (b) The peer: a Kafka share group (KIP-932, queues for Kafka) on the same broker, as a job queue with no-op
 * workers: {@code consumers} {@link KafkaShareConsumer}s in explicit acknowledgement mode ACCEPT every record. A
 * record counts once the broker has confirmed its acknowledgement (the commit callback), and the clock starts at
 * the first record received, so the ~5 s group join is not counted (it is reported apart).
 */
public final class ShareGroupPeer {

    private static final Logger LOG = LoggerFactory.getLogger(ShareGroupPeer.class);

    private ShareGroupPeer() {}

    static BenchReport.Share run(BenchKafka kafka, String name, long records, int partitions, int consumers)
            throws InterruptedException {
        String topic = name + ".share";
        String group = name;
        kafka.createTopics(List.of(topic), partitions);
        InputRecords.produce(kafka, topic, records, partitions);
        // A new share group starts at "latest": records produced before the consumers join would never arrive.
        BenchKafka.await(kafka.admin()
                .incrementalAlterConfigs(Map.of(
                        new ConfigResource(ConfigResource.Type.GROUP, group),
                        List.of(new AlterConfigOp(
                                new ConfigEntry("share.auto.offset.reset", "earliest"), AlterConfigOp.OpType.SET))))
                .all());

        AtomicLong acknowledged = new AtomicLong();
        AtomicLong firstAt = new AtomicLong();
        AtomicLong doneAt = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Exception> failure = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        long started = System.nanoTime();
        CpuMeter cpu = new CpuMeter();
        for (int c = 0; c < consumers; c++) {
            Thread thread = new Thread(
                    () -> {
                        try (KafkaShareConsumer<byte[], byte[]> consumer = new KafkaShareConsumer<>(
                                Map.of(
                                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                                        kafka.bootstrapServers(),
                                        ConsumerConfig.GROUP_ID_CONFIG,
                                        group,
                                        "share.acknowledgement.mode",
                                        "explicit"),
                                new ByteArrayDeserializer(),
                                new ByteArrayDeserializer())) {
                            consumer.setAcknowledgementCommitCallback((offsets, e) -> {
                                if (e != null) {
                                    failure.compareAndSet(null, e);
                                    return;
                                }
                                long n = offsets.values().stream()
                                        .mapToLong(Set::size)
                                        .sum();
                                if (acknowledged.addAndGet(n) >= records
                                        && doneAt.compareAndSet(0, System.nanoTime())) {
                                    done.countDown();
                                }
                            });
                            consumer.subscribe(List.of(topic));
                            while (!stop.get()) {
                                var batch = consumer.poll(Duration.ofMillis(100));
                                if (!batch.isEmpty()) {
                                    firstAt.compareAndSet(0, System.nanoTime());
                                }
                                for (ConsumerRecord<byte[], byte[]> record : batch) {
                                    consumer.acknowledge(record, AcknowledgeType.ACCEPT);
                                }
                                if (!batch.isEmpty()) {
                                    consumer.commitAsync(); // send the acknowledgements now rather than with the next
                                    // fetch
                                }
                            }
                        } catch (RuntimeException e) {
                            failure.compareAndSet(null, e);
                            done.countDown();
                        }
                    },
                    "bench-share-" + c);
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
        try {
            long timeout = Math.max(120, records / 2_000);
            if (!done.await(timeout, TimeUnit.SECONDS)) {
                throw new IllegalStateException("share group: " + acknowledged.get() + " of " + records
                        + " acknowledged after " + timeout + " s");
            }
            if (failure.get() != null) {
                throw new IllegalStateException(
                        "share group failed: " + failure.get().getMessage(), failure.get());
            }
        } finally {
            stop.set(true);
            for (Thread thread : threads) {
                thread.join(10_000);
            }
        }
        double seconds = (doneAt.get() - firstAt.get()) / 1e9;
        LOG.info(
                "share group {}: {} records in {} s after a {} s join",
                name,
                records,
                seconds,
                (firstAt.get() - started) / 1e9);
        return new BenchReport.Share(
                records, seconds, (firstAt.get() - started) / 1e9, consumers, cpu.otherProcessesCores());
    }
}
