package io.coordinate.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaClientSettingsTest {

    @Test
    void theBaseIsTheBootstrapServersAndTheClientProperties(@TempDir Path tmp) throws IOException {
        Path file = tmp.resolve("client.properties");
        Files.writeString(file, "security.protocol=SSL\nssl.truststore.location=/t.jks  \nbootstrap.servers=other:1\n");
        Map<String, String> loaded = KafkaClientSettings.load(file);
        assertThat(loaded)
                .isEqualTo(Map.of(
                        "security.protocol",
                        "SSL",
                        "ssl.truststore.location",
                        "/t.jks",
                        "bootstrap.servers",
                        "other:1"));
        AppConfig config = AppConfig.defaults("k:9093", 0, tmp).withKafkaProperties(loaded);
        // --bootstrap-servers names the cluster: a bootstrap.servers line of the file does not move it elsewhere.
        assertThat(KafkaClientSettings.base(config))
                .isEqualTo(Map.of(
                        "bootstrap.servers",
                        "k:9093",
                        "security.protocol",
                        "SSL",
                        "ssl.truststore.location",
                        "/t.jks"));
        assertThat(KafkaClientSettings.base(AppConfig.defaults("k:9092", 0, tmp)))
                .isEqualTo(Map.of("bootstrap.servers", "k:9092"));
    }
}
