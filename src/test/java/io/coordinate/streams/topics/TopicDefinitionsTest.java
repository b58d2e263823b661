package io.coordinate.streams.topics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coordinate.protocol.TopicNames;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The files of topics/ hold exactly these values; the classpath copy equals the folder. */
class TopicDefinitionsTest {

    static final Path TOPICS_DIR = Paths.get("topics");
    static final String WEEK_MS = "604800000";
    static final String DAY_MS = "86400000";
    static final String MONTH_MS = "2592000000";

    @Test
    void topicsFolderDefinesEveryProtocolTopicWithExactValues() {
        assertThat(TopicDefinitions.fromDirectory(TOPICS_DIR))
                .containsExactly(
                        topic(TopicNames.ASSIGNMENTS, 6, DAY_MS),
                        topic(TopicNames.CHAINED, 6, WEEK_MS),
                        topic(TopicNames.COMMANDS, 6, WEEK_MS),
                        topic(TopicNames.DEAD_LETTER, 1, MONTH_MS),
                        topic(TopicNames.EVENTS, 6, "-1"),
                        topic(TopicNames.REPLIES, 6, DAY_MS),
                        topic(TopicNames.RESULTS, 6, MONTH_MS));
    }

    @Test
    void classpathCopyEqualsTheFolderInProtocolOrder() {
        List<TopicDefinition> fromClasspath = TopicDefinitions.fromClasspath();
        assertThat(fromClasspath).extracting(TopicDefinition::name).containsExactlyElementsOf(TopicNames.ALL);
        assertThat(fromClasspath).containsExactlyInAnyOrderElementsOf(TopicDefinitions.fromDirectory(TOPICS_DIR));
    }

    @Test
    void consumedTopicsAreCoPartitionedWithCommands() {
        Map<String, Integer> partitions = TopicDefinitions.fromClasspath().stream()
                .collect(Collectors.toMap(TopicDefinition::name, TopicDefinition::partitions));
        assertThat(partitions.get(TopicNames.CHAINED)).isEqualTo(partitions.get(TopicNames.COMMANDS));
    }

    /** docker-compose's shell loop reads these files with grep/cut: only plain key=value lines and comments. */
    @Test
    void filesUseThePlainFormTheComposeLoopParses() throws IOException {
        try (Stream<Path> files = Files.list(TOPICS_DIR)) {
            for (Path file : files.toList()) {
                assertThat(file.getFileName().toString()).endsWith(".properties");
                String expectedName = file.getFileName().toString().replace(".properties", "");
                assertThat(TopicDefinition.load(file).name()).isEqualTo(expectedName);
                for (String line : Files.readAllLines(file)) {
                    if (!line.isEmpty() && !line.startsWith("#")) {
                        assertThat(line).as(file + ": " + line).matches("[a-z.]+=[^\\s=\\\\]+");
                    }
                }
            }
        }
    }

    @Test
    void parsesConfigsAndRejectsTyposAndBadValues() {
        TopicDefinition t = TopicDefinition.parse(
                "# comment\nname=x\npartitions=3\nreplication.factor=2\nconfig.retention.ms=10\nconfig.cleanup.policy=compact\n");
        assertThat(t)
                .isEqualTo(new TopicDefinition(
                        "x", 3, (short) 2, Map.of("retention.ms", "10", "cleanup.policy", "compact")));
        assertThat(t.prefixedName("dev-")).isEqualTo("dev-x");
        assertThat(t.withReplicationFactor((short) 3).replicationFactor()).isEqualTo((short) 3);

        assertThatThrownBy(() -> TopicDefinition.parse("name=x\npartition=3\nreplication.factor=1"))
                .hasMessageContaining("unknown key 'partition'");
        assertThatThrownBy(() -> TopicDefinition.parse("name=x\nreplication.factor=1"))
                .hasMessageContaining("'partitions' missing");
        assertThatThrownBy(() -> TopicDefinition.parse("name=x\npartitions=0\nreplication.factor=1"))
                .hasMessageContaining("partitions must be >= 1");
    }

    private static TopicDefinition topic(String name, int partitions, String retentionMs) {
        return new TopicDefinition(
                name, partitions, (short) 1, Map.of("cleanup.policy", "delete", "retention.ms", retentionMs));
    }
}
