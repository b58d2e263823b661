package io.coordinate.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.TopicNames;
import io.coordinate.streams.topics.TopicBootstrapper;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code coordinate dead-letters tail}: the records the app could not read (docs/reference.md "Dead-letter record"). */
@Command(name = "dead-letters", description = "Read the records the app could not apply.",
    subcommands = DeadLettersCommand.Tail.class)
final class DeadLettersCommand {

  @Command(name = "tail", description = "Print the last dead-letter records of the namespace (their key), or all of "
      + "them with --from-beginning; stop at the end unless --follow.")
  static final class Tail extends OperatorCommand {

    private static final Duration POLL = Duration.ofMillis(500);

    @Option(names = "--from-beginning", description = "Print every record kept, from the oldest.")
    boolean fromBeginning;

    @Option(names = "--last", defaultValue = "10", paramLabel = "N",
        description = "Print the last N records (default: ${DEFAULT-VALUE}); ignored with --from-beginning.")
    int last;

    @Option(names = "--follow", description = "Keep reading new records until interrupted (Ctrl-C).")
    boolean follow;

    @Option(names = "--all-keys", description = "Every record, not only those keyed by the namespace.")
    boolean allKeys;

    @Override
    void run() {
      if (last < 0) {
        throw new CliFailure(ExitCodes.USAGE, "error: --last must be >= 0");
      }
      TopicBootstrapper.probe(options.bootstrapServers(), ClientOptions.TIMEOUT);
      String topic = new TopicNames(options.topicPrefix()).deadLetter();
      try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config())) {
        List<TopicPartition> partitions = partitions(consumer, topic);
        consumer.assign(partitions);
        Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
        if (fromBeginning) {
          consumer.seekToBeginning(partitions);
        } else {
          lastRecords(consumer, partitions, end).forEach(this::print);
        }
        while (follow || partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
          for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
            print(record);
          }
        }
      } catch (KafkaException e) {
        throw new CliFailure(ExitCodes.UNREACHABLE, "cannot read " + topic + " from Kafka at "
            + options.bootstrapServers() + ": " + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
      }
    }

    /**
     * The last {@link #last} records to print, oldest first, read up to {@code end} (where the consumer is left).
     * Offsets are not records (transaction markers take offsets too) and other namespaces' records share the
     * partitions, so it reads back from the end in windows that grow until it has found enough or read everything.
     */
    private List<ConsumerRecord<byte[], byte[]>> lastRecords(KafkaConsumer<byte[], byte[]> consumer,
        List<TopicPartition> partitions, Map<TopicPartition, Long> end) {
      Map<TopicPartition, Long> beginning = consumer.beginningOffsets(partitions);
      List<ConsumerRecord<byte[], byte[]>> found = new ArrayList<>();
      for (long window = Math.max(16, 2L * last); last > 0; window *= 4) {
        found.clear();
        boolean wholeTopic = true;
        for (TopicPartition partition : partitions) {
          long from = Math.max(beginning.get(partition), end.get(partition) - window);
          wholeTopic &= from == beginning.get(partition);
          consumer.seek(partition, from);
        }
        while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
          for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
            if (record.offset() < end.get(new TopicPartition(record.topic(), record.partition())) && shown(record)) {
              found.add(record);
            }
          }
        }
        if (found.size() >= last || wholeTopic) {
          break;
        }
      }
      found.sort(Comparator.comparingLong(ConsumerRecord<byte[], byte[]>::timestamp)
          .thenComparingInt(ConsumerRecord::partition).thenComparingLong(ConsumerRecord::offset));
      partitions.forEach(partition -> consumer.seek(partition, end.get(partition)));
      return found.subList(Math.max(0, found.size() - last), found.size());
    }

    private boolean shown(ConsumerRecord<byte[], byte[]> record) {
      return allKeys || options.namespace().equals(text(record.key()));
    }

    private Map<String, Object> config() {
      Map<String, Object> config = options.kafkaProperties();
      config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
      config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
      config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
      config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
      config.putIfAbsent(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) ClientOptions.TIMEOUT.toMillis());
      config.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "coordinate-cli-dead-letters");
      return config;
    }

    private static List<TopicPartition> partitions(KafkaConsumer<?, ?> consumer, String topic) {
      List<PartitionInfo> infos = consumer.partitionsFor(topic);
      if (infos == null || infos.isEmpty()) {
        throw new CliFailure(ExitCodes.REFUSED, "error: topic " + topic + " does not exist (is the app set up on "
            + "this cluster, with this --topic-prefix?)");
      }
      return infos.stream().map(info -> new TopicPartition(topic, info.partition())).toList();
    }

    private void print(ConsumerRecord<byte[], byte[]> record) {
      if (!shown(record)) {
        return;
      }
      String key = text(record.key());
      if (json) {
        ObjectNode line = Json.object().put("partition", record.partition()).put("offset", record.offset())
            .put("timestamp", record.timestamp()).put("key", key).put("value", text(record.value()));
        ObjectNode headers = line.putObject("headers");
        for (Header header : record.headers()) {
          headers.put(header.key(), text(header.value()));
        }
        printJson(line);
      } else {
        printLine("key=" + key + " error.code=" + header(record, "error.code") + " source="
            + header(record, "source.topic") + "/" + header(record, "source.partition") + "@"
            + header(record, "source.offset") + " error.message=" + header(record, "error.message"));
      }
    }

    private static String header(ConsumerRecord<?, ?> record, String name) {
      Header header = record.headers().lastHeader(name);
      return header == null ? "-" : text(header.value());
    }

    private static String text(byte[] bytes) {
      return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }
  }
}
