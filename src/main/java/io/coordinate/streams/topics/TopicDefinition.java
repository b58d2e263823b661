package io.coordinate.streams.topics;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * One topic as defined by a file of {@code topics/} (docs/operations.md#topics): the single source shared by
 * {@link TopicBootstrapper} and the topic-init loop of {@code docker-compose.yml}.
 *
 * <p>File format: {@code name=}, {@code partitions=}, {@code replication.factor=} and any number of
 * {@code config.<topic config>=} lines (e.g. {@code config.retention.ms=604800000}).
 *
 * @param name              the unprefixed topic name
 * @param partitions        partition count; consumed topics must share the count of {@code coordinate.commands}
 * @param replicationFactor replication factor (1 for the dev broker; production overrides it)
 * @param configs           topic-level configs, sorted by key
 */
public record TopicDefinition(String name, int partitions, short replicationFactor, Map<String, String> configs) {

    private static final String CONFIG_PREFIX = "config.";

    public TopicDefinition {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("topic name missing");
        }
        if (partitions < 1) {
            throw new IllegalArgumentException(name + ": partitions must be >= 1, was " + partitions);
        }
        if (replicationFactor < 1) {
            throw new IllegalArgumentException(name + ": replication.factor must be >= 1, was " + replicationFactor);
        }
        configs = Collections.unmodifiableMap(new TreeMap<>(configs)); // sorted: stable logs and commands
    }

    public static TopicDefinition load(Path file) throws IOException {
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return parse(read(reader), file.toString());
        }
    }

    public static TopicDefinition load(InputStream in, String source) throws IOException {
        return parse(read(new InputStreamReader(in, StandardCharsets.UTF_8)), source);
    }

    public static TopicDefinition parse(String text) {
        try {
            return parse(read(new StringReader(text)), "<string>");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Unknown keys are rejected: a typo (say {@code partition=}) must not silently fall back to a default. */
    static TopicDefinition parse(Properties props, String source) {
        Map<String, String> configs = new TreeMap<>();
        for (String key : props.stringPropertyNames()) {
            String value = props.getProperty(key).trim();
            if (key.startsWith(CONFIG_PREFIX) && key.length() > CONFIG_PREFIX.length()) {
                configs.put(key.substring(CONFIG_PREFIX.length()), value);
            } else if (!key.equals("name") && !key.equals("partitions") && !key.equals("replication.factor")) {
                throw new IllegalArgumentException(source + ": unknown key '" + key + "'");
            }
        }
        try {
            return new TopicDefinition(
                    required(props, "name", source),
                    Integer.parseInt(required(props, "partitions", source)),
                    Short.parseShort(required(props, "replication.factor", source)),
                    configs);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(source + ": " + e.getMessage(), e);
        }
    }

    /** The name with the deployment's topic prefix applied. */
    public String prefixedName(String prefix) {
        return (prefix == null ? "" : prefix) + name;
    }

    /** Production runs more brokers than the files' dev value of 1. */
    public TopicDefinition withReplicationFactor(short factor) {
        return new TopicDefinition(name, partitions, factor, configs);
    }

    /** The same topic with one more topic-level config (or another value for it). */
    public TopicDefinition withConfig(String key, String value) {
        Map<String, String> more = new TreeMap<>(configs);
        more.put(key, value);
        return new TopicDefinition(name, partitions, replicationFactor, more);
    }

    private static Properties read(Reader reader) throws IOException {
        Properties props = new Properties();
        props.load(reader);
        return props;
    }

    private static String required(Properties props, String key, String source) {
        String value = props.getProperty(key);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(source + ": '" + key + "' missing");
        }
        return value.trim();
    }
}
