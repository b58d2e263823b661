package io.coordinate.streams;

import io.coordinate.engine.Engine;
import io.coordinate.engine.EngineResult;
import io.coordinate.engine.OutRecord;
import io.coordinate.protocol.Command;
import io.coordinate.protocol.CommandParser;
import io.coordinate.protocol.CommandRejection;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.Replies;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
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
  private ProcessorContext<byte[], byte[]> context;
  private Engine engine;
  private CommitPolicy commits;

  CommandProcessor(Duration punctuateInterval, Duration commitInterval, String commandsTopic, int commandPartitions,
      Supplier<RandomGenerator> randomSource) {
    this.punctuateInterval = punctuateInterval;
    this.commitInterval = commitInterval;
    this.commandsTopic = commandsTopic;
    this.commandPartitions = commandPartitions;
    this.randomSource = randomSource;
  }

  @Override
  public void init(ProcessorContext<byte[], byte[]> context) {
    this.context = context;
    this.engine = new Engine(TaskState.open(context), randomSource.get());
    context.schedule(punctuateInterval, PunctuationType.WALL_CLOCK_TIME, this::advanceTime);
    commits = new CommitPolicy(commitInterval.toNanos(), COMMIT_WHEN_IDLE_FOR.toNanos(), COMMIT_SPACING.toNanos(),
        System.nanoTime());
    context.schedule(COMMIT_CHECK, PunctuationType.WALL_CLOCK_TIME, now -> commitIfDue());
  }

  @Override
  public void process(Record<byte[], byte[]> record) {
    // Checked before the command: one that comes after an idle spell commits what the burst before it left.
    commitIfDue();
    try {
      apply(record);
    } finally {
      commits.processed(System.nanoTime());
    }
  }

  private void commitIfDue() {
    if (commits.commitDue(System.nanoTime())) {
      context.commit(); // Kafka Streams commits after the current batch of records
    }
  }

  private void apply(Record<byte[], byte[]> record) {
    if (misrouted(record)) {
      // A producer with another partitioner (kcat's default, say) put the namespace on the wrong partition:
      // move it to the partition Kafka's default partitioner picks, so one task owns each namespace.
      Headers headers = new RecordHeaders(record.headers().toArray());
      headers.add(REROUTED_HEADER, new byte[] {1});
      context.forward(record.withHeaders(headers), StoreNames.REROUTE_SINK);
      return;
    }
    long now = context.currentSystemTimeMs();
    Command command;
    try {
      command = CommandParser.parse(record.key(), record.value());
    } catch (CommandRejection rejection) {
      deadLetter(record, rejection);
      String replyTo = CommandParser.readableReplyTo(record.value());
      if (replyTo != null) {
        String requestId = CommandParser.readableRequestId(record.value());
        forward(StoreNames.REPLIES_SINK, List.of(new OutRecord(replyTo, Replies.error(requestId, rejection))), now);
      }
      return;
    }
    EngineResult result = engine.process(command, now);
    if (result.rejected() && result.rejection().code().deadLetter()) {
      deadLetter(record, result.rejection());
    }
    emit(result, now);
  }

  private boolean misrouted(Record<byte[], byte[]> record) {
    if (commandPartitions <= 1 || record.key() == null || record.headers().lastHeader(REROUTED_HEADER) != null) {
      return false;
    }
    RecordMetadata source = context.recordMetadata().orElse(null);
    if (source == null || !source.topic().equals(commandsTopic)) {
      return false;
    }
    return source.partition() != NamespacePartitioner.partition(record.key(), commandPartitions);
  }

  /** The wall-clock punctuator: expires attempts and releases delayed units, in bounded batches. */
  private void advanceTime(long now) {
    EngineResult result = engine.advanceTime(now, Engine.TIME_STEP_BATCH);
    emit(result, now);
    if (!result.isEmpty()) {
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
      context.forward(new Record<>(utf8(out.key()), out.json(), now), sink);
    }
  }

  private void deadLetter(Record<byte[], byte[]> record, CommandRejection rejection) {
    Headers headers = new RecordHeaders();
    record.headers().forEach(headers::add);
    headers.add("error.code", utf8(rejection.code().code()));
    headers.add("error.message", utf8(String.valueOf(rejection.getMessage())));
    RecordMetadata source = context.recordMetadata().orElse(null);
    if (source != null) {
      headers.add("source.topic", utf8(source.topic()));
      headers.add("source.partition", utf8(Integer.toString(source.partition())));
      headers.add("source.offset", utf8(Long.toString(source.offset())));
    }
    LOG.warn("dead-lettered a record from {}: {} {}", source == null ? "?" : source.topic() + "-"
        + source.partition() + "@" + source.offset(), rejection.code().code(), rejection.getMessage());
    // Keys leave as bytes: the original key is kept byte for byte, even when it is not UTF-8.
    context.forward(new Record<>(record.key(), record.value(), record.timestamp(), headers),
        StoreNames.DEAD_LETTER_SINK);
  }

  private static byte[] utf8(String text) {
    return text == null ? null : text.getBytes(StandardCharsets.UTF_8);
  }
}
