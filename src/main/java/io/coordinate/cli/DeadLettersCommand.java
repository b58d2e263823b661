package io.coordinate.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.feeds.DeadLetters;
import io.coordinate.feeds.TopicReader;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.TopicNames;
import io.coordinate.streams.topics.TopicBootstrapper;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code coordinate dead-letters tail}: the records the app could not read (docs/reference.md "Dead-letter record"). */
@Command(
        name = "dead-letters",
        description = "Read the records the app could not apply.",
        subcommands = DeadLettersCommand.Tail.class)
final class DeadLettersCommand {

    @Command(
            name = "tail",
            description = "Print the last dead-letter records of the namespace (their key), or all of "
                    + "them with --from-beginning; stop at the end unless --follow.")
    static final class Tail extends OperatorCommand {

        private static final Duration POLL = Duration.ofMillis(500);

        @Option(names = "--from-beginning", description = "Print every record kept, from the oldest.")
        boolean fromBeginning;

        @Option(
                names = "--last",
                defaultValue = "10",
                paramLabel = "N",
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
            try (KafkaConsumer<byte[], byte[]> consumer =
                    TopicReader.open(options.kafkaProperties(), "coordinate-cli-dead-letters", ClientOptions.TIMEOUT)) {
                List<TopicPartition> partitions = TopicReader.partitions(consumer, topic);
                consumer.assign(partitions);
                Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
                if (fromBeginning) {
                    consumer.seekToBeginning(partitions);
                } else {
                    DeadLetters.last(consumer, partitions, end, last, this::shown, null)
                            .forEach(this::print);
                }
                while (follow || partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                    for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                        print(record);
                    }
                }
            } catch (TopicReader.NoSuchTopicException e) {
                throw new CliFailure(ExitCodes.REFUSED, "error: " + e.getMessage());
            } catch (KafkaException e) {
                throw new CliFailure(
                        ExitCodes.UNREACHABLE,
                        "cannot read " + topic + " from Kafka at " + options.bootstrapServers() + ": "
                                + String.valueOf(e.getMessage())
                                        .lines()
                                        .findFirst()
                                        .orElse(""));
            }
        }

        private boolean shown(ConsumerRecord<byte[], byte[]> record) {
            return allKeys || options.namespace().equals(TopicReader.text(record.key()));
        }

        private void print(ConsumerRecord<byte[], byte[]> record) {
            if (!shown(record)) {
                return;
            }
            String key = TopicReader.text(record.key());
            if (json) {
                ObjectNode line = Json.object()
                        .put("partition", record.partition())
                        .put("offset", record.offset())
                        .put("timestamp", record.timestamp())
                        .put("key", key)
                        .put("value", TopicReader.text(record.value()));
                ObjectNode headers = line.putObject("headers");
                for (Header header : record.headers()) {
                    headers.put(header.key(), TopicReader.text(header.value()));
                }
                printJson(line);
            } else {
                printLine("key=" + key + " error.code=" + header(record, DeadLetters.ERROR_CODE) + " source="
                        + header(record, DeadLetters.SOURCE_TOPIC) + "/" + header(record, DeadLetters.SOURCE_PARTITION)
                        + "@"
                        + header(record, DeadLetters.SOURCE_OFFSET) + " error.message="
                        + header(record, DeadLetters.ERROR_MESSAGE));
            }
        }

        private static String header(ConsumerRecord<?, ?> record, String name) {
            String value = TopicReader.header(record, name);
            return value == null ? "-" : value;
        }
    }
}
