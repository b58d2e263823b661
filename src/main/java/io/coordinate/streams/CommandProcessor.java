package io.coordinate.streams;

import io.coordinate.client.NamespacePartitioner;
import io.coordinate.engine.Engine;
import io.coordinate.engine.EngineResult;
import io.coordinate.engine.OutRecord;
import io.coordinate.metrics.CommandObserver;
import io.coordinate.protocol.Command;
import io.coordinate.protocol.CommandParser;
import io.coordinate.protocol.CommandRejection;
import io.coordinate.protocol.ErrorCode;
import io.coordinate.protocol.RecordLimit;
import io.coordinate.protocol.Replies;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The thin adapter between Kafka Streams and the {@link Engine}: parses each record, hands it to the engine
 * with the wall-clock time, and forwards what comes out to the sink of each topic. Malformed records go to
 * the dead-letter topic with the original key and bytes; nothing a producer sends can stop the task. It also
 * decides when the task commits ({@link CommitPolicy}): under exactly-once nothing it forwards is visible before.
 */
final class CommandProcessor implements Processor<byte[], byte[], byte[], byte[]> {

    private static final Logger LOG = LoggerFactory.getLogger(CommandProcessor.class);

    /** Marks a record this processor moved to its namespace's partition, so it is never moved twice. */
    static final String REROUTED_HEADER = "coordinate.rerouted";

    /** What a dead letter keeps of a record too large to copy whole: enough to tell what it was. */
    static final int DEAD_LETTER_KEY_BYTES = 1024;

    static final int DEAD_LETTER_VALUE_BYTES = 64 * 1024;
    static final int DEAD_LETTER_HEADER_BYTES = 64 * 1024;

    /** See {@link CommitPolicy}: how long the input must be idle, and how far apart its early commits are. */
    private static final Duration COMMIT_WHEN_IDLE_FOR = Duration.ofMillis(2);

    private static final Duration COMMIT_SPACING = Duration.ofMillis(20);
    /** How often the policy is checked while no command comes. */
    private static final Duration COMMIT_CHECK = Duration.ofMillis(1);

    private final Duration punctuateInterval;
    private final Duration commitInterval;
    private final int commandPartitions;
    private final String commandsTopic;
    private final Supplier<RandomGenerator> randomSource;
    private final CommandObserver metrics;
    private ProcessorContext<byte[], byte[]> context;
    private Engine engine;
    private CommitPolicy commits;
    /** Writes the stores' last committed batch to their files (TaskState#settler). */
    private Runnable settle;

    private final RefusedOutputs.Source applying = new RefusedOutputs.Source();
    private String refusalScope; // whose refused commands this task skips (RefusedOutputs.scope)

    CommandProcessor(
            Duration punctuateInterval,
            Duration commitInterval,
            String commandsTopic,
            int commandPartitions,
            Supplier<RandomGenerator> randomSource,
            CommandObserver metrics) {
        this.metrics = metrics;
        this.punctuateInterval = punctuateInterval;
        this.commitInterval = commitInterval;
        this.commandsTopic = commandsTopic;
        this.commandPartitions = commandPartitions;
        this.randomSource = randomSource;
    }

    @Override
    public void init(ProcessorContext<byte[], byte[]> context) {
        this.context = context;
        this.refusalScope = RefusedOutputs.scope(context.appConfigs());
        this.engine = new Engine(TaskState.open(context), randomSource.get());
        this.settle = TaskState.settler(context);
        context.schedule(punctuateInterval, PunctuationType.WALL_CLOCK_TIME, this::advanceTime);
        commits = new CommitPolicy(
                commitInterval.toNanos(), COMMIT_WHEN_IDLE_FOR.toNanos(), COMMIT_SPACING.toNanos(), System.nanoTime());
        context.schedule(COMMIT_CHECK, PunctuationType.WALL_CLOCK_TIME, now -> {
            settle.run(); // an idle task's last commit reaches the stores' files without waiting for a command
            commitIfDue();
        });
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        settle.run();
        // Checked before the command: one that comes after an idle spell commits what the burst before it left.
        commitIfDue();
        RecordMetadata source = context.recordMetadata().orElse(null);
        if (source != null) {
            applying.applying(source.topic(), source.partition(), source.offset());
        }
        try {
            apply(record, source);
        } finally {
            applying.done();
            commits.processed(System.nanoTime());
        }
    }

    private void commitIfDue() {
        if (commits.commitDue(System.nanoTime())) {
            context.commit(); // Kafka Streams commits after the current batch of records
        }
    }

    /** @param source where the record was read (null: unknown, as in some tests); read once per record */
    private void apply(Record<byte[], byte[]> record, RecordMetadata source) {
        long now = context.currentSystemTimeMs();
        long size = RecordLimit.size(record.key(), record.value()) + headerBytes(record.headers());
        if (size > RecordLimit.MAX_RECORD_BYTES) {
            // Only a compressed batch gets one in (the broker checks batches, compressed); nothing this big could go
            // out.
            reject(
                    record,
                    new CommandRejection(
                            ErrorCode.TOO_LARGE,
                            "the record is " + size + " bytes; at most " + RecordLimit.MAX_RECORD_BYTES),
                    now);
            return;
        }
        String refused = refusedBefore(source);
        if (refused != null) {
            // Its copy is cut whatever its size: the producer's limit may be lower than the app's.
            CommandRejection rejection =
                    new CommandRejection(ErrorCode.TOO_LARGE, refused + "; the command was skipped");
            metrics.refused(rejection.code());
            deadLetter(record, rejection, true);
            reply(record, rejection, now);
            return;
        }
        int owner = owningPartition(record, source);
        if (owner >= 0) {
            if (record.headers().lastHeader(REROUTED_HEADER) == null
                    && source.topic().equals(commandsTopic)) {
                // A producer with another partitioner (kcat's default, say) put the namespace on the wrong partition:
                // move it, once, to the partition Kafka's default partitioner picks, so one task owns each namespace.
                Headers headers = new RecordHeaders(record.headers().toArray());
                headers.add(REROUTED_HEADER, new byte[] {1});
                context.forward(record.withHeaders(headers), StoreNames.REROUTE_SINK);
            } else {
                // Moved already, or on the chained topic, which only the app writes: a forged header or a changed
                // partition
                // count. Applied here it would split the namespace's state between two tasks.
                reject(
                        record,
                        new CommandRejection(
                                ErrorCode.WRONG_PARTITION,
                                "the key belongs to partition " + owner + " of " + commandPartitions + ", not "
                                        + source.partition()),
                        now);
            }
            return;
        }
        Command command;
        try {
            command = CommandParser.parse(record.key(), record.value());
        } catch (CommandRejection rejection) {
            reject(record, rejection, now);
            return;
        }
        long start = System.nanoTime();
        EngineResult result = engine.process(command, now);
        metrics.command(command.type(), result, record.timestamp(), now, System.nanoTime() - start);
        if (result.rejected() && result.rejection().code().deadLetter()) {
            deadLetter(record, result.rejection());
        }
        emit(result, now);
    }

    /** A record the processor cannot apply: dead-lettered, and answered when its {@code reply_to} can be read. */
    private void reject(Record<byte[], byte[]> record, CommandRejection rejection, long now) {
        metrics.refused(rejection.code());
        deadLetter(record, rejection, false);
        reply(record, rejection, now);
    }

    private void reply(Record<byte[], byte[]> record, CommandRejection rejection, long now) {
        CommandParser.ReplyAddress address = CommandParser.readableReplyAddress(record.value());
        if (address != null) {
            forward(
                    StoreNames.REPLIES_SINK,
                    List.of(new OutRecord(
                            address.replyTo(), Replies.error(address.requestId(), address.correlationId(), rejection))),
                    now);
        }
    }

    /**
     * The partition that owns the record's key by Kafka's default partitioner when it is not the one the record was
     * read from; -1 when it is (or when there is one partition, or no key: the parser refuses that).
     */
    private int owningPartition(Record<byte[], byte[]> record, RecordMetadata source) {
        if (commandPartitions <= 1 || record.key() == null || source == null) {
            return -1;
        }
        int owner = NamespacePartitioner.partition(record.key(), commandPartitions);
        return owner == source.partition() ? -1 : owner;
    }

    /** Why this record's outputs were refused by the producer when it was processed before (see RefusedOutputs). */
    private String refusedBefore(RecordMetadata source) {
        return source == null
                ? null
                : RefusedOutputs.refused(refusalScope, source.topic(), source.partition(), source.offset());
    }

    /** The wall-clock punctuator: expires attempts and releases delayed units, in bounded batches. */
    private void advanceTime(long now) {
        settle.run();
        EngineResult result = engine.advanceTime(now, Engine.TIME_STEP_BATCH);
        emit(result, now);
        if (!result.isEmpty()) {
            metrics.timeStep(result, now);
            commits.processed(System.nanoTime());
        }
    }

    private void emit(EngineResult result, long now) {
        forward(StoreNames.EVENTS_SINK, result.events(), now);
        forward(StoreNames.ASSIGNMENTS_SINK, result.assignments(), now);
        forward(StoreNames.CHAINED_SINK, result.chained(), now);
        forward(StoreNames.RESULTS_SINK, result.results(), now);
        forward(StoreNames.REPLIES_SINK, result.replies(), now);
    }

    private void forward(String sink, List<OutRecord> records, long now) {
        for (OutRecord out : records) {
            byte[] key = utf8(out.key());
            byte[] value = out.json();
            if (RecordLimit.fits(key, value)) {
                context.forward(new Record<>(key, value, now), sink);
            } else {
                // The engine refuses commands whose outputs would not fit; what is left (an error reply quoting a huge
                // request_id or reply_to) is not sent: Kafka would refuse it and fail the task's transaction.
                LOG.warn(
                        "dropped a record of {} bytes for {}: over the limit of {}",
                        RecordLimit.size(key, value),
                        sink,
                        RecordLimit.MAX_RECORD_BYTES);
            }
        }
    }

    private void deadLetter(Record<byte[], byte[]> record, CommandRejection rejection) {
        deadLetter(record, rejection, false);
    }

    /** @param cut keep only the first bytes of the record (see below), even when the whole would fit */
    private void deadLetter(Record<byte[], byte[]> record, CommandRejection rejection, boolean cut) {
        Headers headers = new RecordHeaders();
        record.headers().forEach(headers::add);
        byte[] key = record.key();
        byte[] value = record.value();
        if (cut || !RecordLimit.fits(key, value) || headerBytes(headers) > DEAD_LETTER_HEADER_BYTES) {
            // The copy must fit in a record; the whole original stays on its topic, where the source headers point.
            headers = new RecordHeaders();
            headers.add("error.original.key.bytes", utf8(Integer.toString(key == null ? 0 : key.length)));
            headers.add("error.original.value.bytes", utf8(Integer.toString(value == null ? 0 : value.length)));
            key = truncate(key, DEAD_LETTER_KEY_BYTES);
            value = truncate(value, DEAD_LETTER_VALUE_BYTES);
        }
        metrics.deadLettered(rejection.code());
        headers.add("error.code", utf8(rejection.code().code()));
        headers.add("error.message", utf8(String.valueOf(rejection.getMessage())));
        RecordMetadata source = context.recordMetadata().orElse(null);
        if (source != null) {
            headers.add("source.topic", utf8(source.topic()));
            headers.add("source.partition", utf8(Integer.toString(source.partition())));
            headers.add("source.offset", utf8(Long.toString(source.offset())));
        }
        LOG.warn(
                "dead-lettered a record from {}: {} {}",
                source == null ? "?" : source.topic() + "-" + source.partition() + "@" + source.offset(),
                rejection.code().code(),
                rejection.getMessage());
        // Keys leave as bytes: the original key is kept byte for byte, even when it is not UTF-8.
        context.forward(new Record<>(key, value, record.timestamp(), headers), StoreNames.DEAD_LETTER_SINK);
    }

    private static long headerBytes(Headers headers) {
        long bytes = 0;
        for (Header header : headers) {
            bytes += header.key().length() + (header.value() == null ? 0 : header.value().length);
        }
        return bytes;
    }

    private static byte[] truncate(byte[] bytes, int max) {
        return bytes == null || bytes.length <= max ? bytes : Arrays.copyOf(bytes, max);
    }

    private static byte[] utf8(String text) {
        return text == null ? null : text.getBytes(StandardCharsets.UTF_8);
    }
}
