package io.coordinate.streams;

import io.coordinate.config.AppConfig;
import io.coordinate.config.KafkaClientSettings;
import io.coordinate.protocol.RecordLimit;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.streams.StreamsConfig;

/** The Kafka Streams settings of the app; each one that differs from Kafka's default says why. */
public final class StreamsSettings {

    /** The producer's {@code batch.size}; see {@link #of}. */
    static final int PRODUCER_BATCH_BYTES = 128 * 1024;

    /** Kafka Streams {@code poll.ms}: see {@link #of}. */
    static final long POLL_MS = 10;
    /** Kafka Streams' commit timer, as a multiple of the app's commit interval that {@link CommitPolicy} keeps. */
    static final long COMMIT_BACKSTOP_FACTOR = 10;
    /**
     * The backstop's ceiling: Kafka Streams refuses a commit interval above the producer's transaction timeout (10 s
     * under exactly-once), and an open transaction holds back every read_committed consumer of its partitions.
     */
    static final long COMMIT_BACKSTOP_MAX_MS = 5_000;
    /** The producer's first retry backoff (Kafka's default 100 ms); see {@link #of}. */
    static final long PRODUCER_RETRY_BACKOFF_MS = 10;

    /** The main consumer's {@code session.timeout.ms}; see {@link #of}. */
    static final int SESSION_TIMEOUT_MS = 10_000;
    /** The main consumer's {@code heartbeat.interval.ms}: a third of the session, as Kafka recommends. */
    static final int HEARTBEAT_INTERVAL_MS = 3_000;

    private StreamsSettings() {}

    /** Kafka Streams' own {@code commit.interval.ms}: ten times the app's, at most 5 s, never below the app's. */
    static long commitBackstopMs(long commitIntervalMs) {
        return Math.max(commitIntervalMs, Math.min(COMMIT_BACKSTOP_FACTOR * commitIntervalMs, COMMIT_BACKSTOP_MAX_MS));
    }

    /**
     * The same settings for a topology without a {@link CommitPolicy} (the bench's pass-through baseline): Kafka
     * Streams' timer commits it, at the app's commit interval.
     */
    public static Properties withoutCommitPolicy(AppConfig config) {
        Properties props = of(config);
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, config.commitIntervalMs());
        return props;
    }

    public static Properties of(AppConfig config) {
        Properties props = new Properties();
        // Bootstrap servers and the client properties of --kafka-config (TLS, SASL) as plain keys: Kafka Streams gives
        // them to each of its clients, producer, consumers and admin alike. The app's own settings below win.
        props.putAll(KafkaClientSettings.base(config));
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, config.applicationId());
        // The changelog is the state: without these it gets the broker's defaults, which a cluster sized for
        // replication may not have (default.replication.factor is 1 unless set).
        if (config.replicationFactor() > 0) {
            props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, config.replicationFactor());
        }
        if (config.minInsyncReplicas() > 0) {
            props.put(
                    StreamsConfig.topicPrefix(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG),
                    String.valueOf(config.minInsyncReplicas()));
        }
        // Exactly-once: a command's state change, its replies, assignments and events commit together.
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        // Under exactly-once an output is visible only after its commit. The app's processor decides when to commit
        // (CommitPolicy: once its input is idle, and at the latest config.commitIntervalMs() after the last commit);
        // Kafka Streams' own timer, which commits wherever it is in a burst, is only a backstop. docs/operations.md.
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, commitBackstopMs(config.commitIntervalMs()));
        // The stream thread checks whether a commit is due only between polls, and an idle poll blocks for up to
        // poll.ms: at Kafka Streams' default a commit came late, and the outputs waiting for it with it, which showed
        // in
        // the request -> assignment p99 (docs/operations.md); an idle thread wakes more often for it, which costs
        // nothing measurable.
        props.put(StreamsConfig.POLL_MS_CONFIG, POLL_MS);
        props.put(
                StreamsConfig.STATE_DIR_CONFIG,
                config.stateDir().toAbsolutePath().toString());
        // A task reads two topics, the commands and the chained commands, and the second is nearly always empty. With
        // max.task.idle.ms at its default (0) Kafka Streams asks, before each record, whether the empty partition has
        // fetched data, and formats a message with String.format for the answer, a visible share of the stream
        // thread (docs/performance.md). Disabled (-1), it processes what it has. Nothing waits on the order of the two
        // topics: a chained command comes after its finish in any case, and no command depends on one.
        props.put(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, StreamsConfig.MAX_TASK_IDLE_MS_DISABLED);
        // Other instances find this one's HTTP API here to forward interactive queries.
        props.put(StreamsConfig.APPLICATION_SERVER_CONFIG, config.httpHost() + ":" + config.httpPort());
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
        // --- Membership and failover (docs/operations.md, "Failover and restarts") ---
        // Static membership: a restart under the same instance id (kept in the data dir) takes its member's place and
        // its tasks at once, instead of waiting for the dead member's session to time out. Kafka Streams appends the
        // stream thread's index.
        if (config.instanceId() != null) {
            props.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG), config.instanceId());
        }
        // How long a silent member keeps its partitions: the survivor of a kill -9 takes over after this (plus a
        // rebalance and the dead producer's transaction timeout), so Kafka's default made failover slow
        // (docs/operations.md, "Failover and restarts").
        // Heartbeats come from the consumer's own thread, not the stream thread, so a long command does not count;
        // the shorter timeout still rides out a GC pause or a broker's leader move, and stays above the broker's
        // minimum.
        props.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), SESSION_TIMEOUT_MS);
        props.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), HEARTBEAT_INTERVAL_MS);
        // Standby replicas keep a warm copy of a task's state on another instance, so the survivor of a failure
        // resumes without restoring the whole changelog first; with a single instance none is placed.
        props.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, config.standbyReplicas());
        // --- end of membership and failover ---
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        props.put(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), 5);
        // A transaction begun right after a commit (CommitPolicy commits as soon as the input is idle) can find the
        // broker still writing the last one's markers: it answers CONCURRENT_TRANSACTIONS and the producer retries
        // after retry.backoff.ms, blocking the stream thread in its next commit. At Kafka's default that stall showed
        // in the request -> assignment p99 (docs/operations.md).
        // Other retries back off exponentially from here to retry.backoff.max.ms (1 s), as before.
        props.put(StreamsConfig.producerPrefix(ProducerConfig.RETRY_BACKOFF_MS_CONFIG), PRODUCER_RETRY_BACKOFF_MS);
        props.put(StreamsConfig.producerPrefix(ProducerConfig.COMPRESSION_TYPE_CONFIG), "lz4");
        // A command whose output the producer still refuses is skipped when it is processed again (RefusedOutputs).
        props.put(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG, RefusedOutputs.class);
        // Kafka's default, stated: the engine keeps every record below it (RecordLimit), and the two must not drift.
        // A producer.-prefixed setting of --kafka-config wins (a test sets it lower to reach RefusedOutputs).
        props.putIfAbsent(
                StreamsConfig.producerPrefix(ProducerConfig.MAX_REQUEST_SIZE_CONFIG),
                RecordLimit.PRODUCER_MAX_REQUEST_BYTES);
        // Batches of up to 128 KiB instead of 16: every new batch costs the stream thread a compression stream (lz4
        // allocates, clears and hashes its buffers) and the broker a batch to validate; the changelog alone sends
        // a record per write (the gain: docs/performance.md). linger.ms stays 5: a batch leaves when full or 5 ms
        // old, whichever comes first.
        props.put(StreamsConfig.producerPrefix(ProducerConfig.BATCH_SIZE_CONFIG), PRODUCER_BATCH_BYTES);
        // One bounded RocksDB cache (memtables included) for all stores: off-heap memory no longer grows with the
        // number of tasks or of stored units. BoundedRocksDbMemory, docs/operations.md.
        props.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, BoundedRocksDbMemory.class);
        // The stores write a commit's writes to their files as soon as the producer committed it (CommittedStore).
        props.put(StreamsConfig.DEFAULT_CLIENT_SUPPLIER_CONFIG, SettlingClientSupplier.class);
        return props;
    }
}
