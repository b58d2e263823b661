package io.coordinate.streams;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.DefaultProductionExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The commands whose outputs the producer refused (a record over its {@code max.request.size}), so that their
 * replay is skipped instead of failing again for ever. Under exactly-once such a refusal aborts the whole transaction:
 * the task is restored from its changelog and replays the same records, the refused command among them. The engine
 * keeps every record under {@link io.coordinate.protocol.RecordLimit}, so this is the last line: a producer limit set
 * lower than the app's, say. The refusal is noted here by the command's source offset (the producer checks the size
 * as the record is sent, while that command is being processed), the stream thread fails once, and on the replay the
 * processor dead-letters the command and skips it ({@link CommandProcessor}).
 *
 * <p>Kept in memory: after a restart of the process a refused command fails its thread once more before it is
 * skipped. Bounded: the oldest entries are dropped past {@link #MAX_ENTRIES}.
 */
public final class RefusedOutputs implements ProductionExceptionHandler {

    private static final Logger LOG = LoggerFactory.getLogger(RefusedOutputs.class);
    static final int MAX_ENTRIES = 10_000;
    private static final Map<String, String> REFUSED = new ConcurrentHashMap<>();

    private final ProductionExceptionHandler fallback = new DefaultProductionExceptionHandler();
    private String scope = "";

    @Override
    public void configure(Map<String, ?> configs) {
        scope = scope(configs);
        fallback.configure(configs);
    }

    /**
     * Whose refusals these are: the application id on its cluster. Offsets are only comparable within one
     * application's topics, and a JVM may run apps on several clusters (the integration tests do).
     */
    static String scope(Map<String, ?> configs) {
        Object servers = configs.get(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG);
        // The same servers may come as a list or as its comma-separated text.
        String cluster = servers instanceof java.util.Collection<?> list
                ? String.join(",", list.stream().map(String::valueOf).toList())
                : String.valueOf(servers);
        return configs.get(StreamsConfig.APPLICATION_ID_CONFIG) + "@" + cluster.replace(" ", "");
    }

    /**
     * The record the processor on this thread is applying. Kafka Streams gives the handler no source for a changelog
     * record, but the producer checks a record's size in {@code send}, on the thread that sends it: this one.
     */
    static final class Source {
        private String topic;
        private int partition;
        private long offset;
        private boolean active;

        void applying(String topic, int partition, long offset) {
            this.topic = topic;
            this.partition = partition;
            this.offset = offset;
            this.active = true;
            CURRENT.set(this);
        }

        void done() {
            active = false;
        }
    }

    private static final ThreadLocal<Source> CURRENT = new ThreadLocal<>();

    @Override
    public Response handleError(
            ErrorHandlerContext context, ProducerRecord<byte[], byte[]> record, Exception exception) {
        Source source = CURRENT.get();
        if (exception instanceof RecordTooLargeException && source != null && source.active) {
            if (REFUSED.size() >= MAX_ENTRIES) {
                REFUSED.clear();
            }
            REFUSED.put(
                    key(scope, source.topic, source.partition, source.offset),
                    "Kafka refused an output of the command (a record for " + record.topic() + "): "
                            + exception.getMessage());
            LOG.error(
                    "the producer refused a record for {} made by {}-{}@{}; the command will be skipped when it is "
                            + "processed again",
                    record.topic(),
                    source.topic,
                    source.partition,
                    source.offset);
            return Response.fail();
        }
        return fallback.handleError(context, record, exception);
    }

    /** Why the command at this source offset must be skipped, or null when nothing of it was refused. */
    static String refused(String scope, String topic, int partition, long offset) {
        return REFUSED.isEmpty() ? null : REFUSED.get(key(scope, topic, partition, offset));
    }

    private static String key(String scope, String topic, int partition, long offset) {
        return scope + '\u0000' + topic + '\u0000' + partition + '\u0000' + offset;
    }
}
