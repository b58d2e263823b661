package io.coordinate.streams.topics;

import io.coordinate.protocol.TopicNames;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Loads the topic definitions of {@code topics/}: from a directory (tests, tools) or from the classpath, where the
 * build copies them as {@code topics/<name>.properties} so the app works from any working directory.
 */
public final class TopicDefinitions {

    /** Classpath folder the pom's {@code <resources>} copies {@code topics/} into. */
    public static final String CLASSPATH_DIR = "topics/";

    private TopicDefinitions() {}

    /** Every {@code *.properties} file of {@code dir}, sorted by topic name. */
    public static List<TopicDefinition> fromDirectory(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            List<TopicDefinition> result = new ArrayList<>();
            for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".properties"))
                    .toList()) {
                result.add(TopicDefinition.load(file));
            }
            result.sort(Comparator.comparing(TopicDefinition::name));
            return List.copyOf(result);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read topic definitions from " + dir, e);
        }
    }

    /**
     * The definitions of every public topic ({@link TopicNames#ALL}), in protocol order, from the classpath. A jar's
     * folder cannot be listed portably, so the file names come from {@link TopicNames}; a test checks that the
     * {@code topics/} folder holds exactly those files.
     */
    public static List<TopicDefinition> fromClasspath() {
        ClassLoader loader = TopicDefinitions.class.getClassLoader();
        List<TopicDefinition> result = new ArrayList<>();
        for (String name : TopicNames.ALL) {
            String resource = CLASSPATH_DIR + name + ".properties";
            try (InputStream in = loader.getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException("topic definition " + resource + " is not on the classpath");
                }
                TopicDefinition definition = TopicDefinition.load(in, resource);
                if (!definition.name().equals(name)) {
                    throw new IllegalStateException(
                            resource + " defines '" + definition.name() + "', expected '" + name + "'");
                }
                result.add(definition);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + resource, e);
            }
        }
        return List.copyOf(result);
    }
}
