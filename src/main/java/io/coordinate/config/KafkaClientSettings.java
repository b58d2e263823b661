package io.coordinate.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.clients.CommonClientConfigs;

/**
 * The settings every Kafka client of the app starts from: the bootstrap servers and the client properties of
 * {@code --kafka-config} (TLS, SASL, ...). Kafka Streams, the HTTP gateway's producer and consumer, and every Admin
 * client take their connection settings from {@link #base}, so a secured cluster needs one file, not one per client.
 */
public final class KafkaClientSettings {

    private KafkaClientSettings() {}

    /**
     * {@code bootstrap.servers} and the configured client properties; the bootstrap servers of the config win over a
     * {@code bootstrap.servers} line of the file, since the command line names the cluster.
     */
    public static Map<String, Object> base(AppConfig config) {
        Map<String, Object> props = new LinkedHashMap<>(config.kafkaProperties());
        props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        return props;
    }

    /** The client properties of a Java {@code .properties} file (values trimmed), sorted by key. */
    public static Map<String, String> load(Path file) {
        Properties props = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            props.load(reader);
        } catch (IOException e) {
            throw new SettingsException("cannot read the Kafka client properties file " + file + ": " + reason(e));
        }
        Map<String, String> result = new TreeMap<>();
        props.stringPropertyNames()
                .forEach(key -> result.put(key, props.getProperty(key).trim()));
        return result;
    }

    private static String reason(IOException e) {
        if (e instanceof java.nio.file.NoSuchFileException) {
            return "no such file";
        }
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "permission denied";
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
