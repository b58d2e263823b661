package io.coordinate.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

/**
 * What docker-compose.yml needs in order to deploy what the tests test, checked where no Docker engine runs: the
 * broker of the Kafka version the tests run (pom.xml's {@code kafka.version}), pinned images, and an app service
 * that can run as several instances ({@code docker compose up --scale app=2}), with a healthcheck and a heap limit.
 */
class ComposeFileTest {

    private static JsonNode services;
    private static String kafkaVersion;

    @BeforeAll
    static void read() throws Exception {
        services = new ObjectMapper(new YAMLFactory())
                .readTree(Path.of("docker-compose.yml").toFile())
                .get("services");
        Document pom = DocumentBuilderFactory.newInstance()
                .newDocumentBuilder()
                .parse(Path.of("pom.xml").toFile());
        kafkaVersion = XPathFactory.newInstance()
                .newXPath()
                .evaluate(
                        "/*[local-name()='project']/*[local-name()='properties']/*[local-name()='kafka.version']", pom);
    }

    @Test
    void theBrokerIsTheKafkaVersionTheTestsRun() {
        assertThat(kafkaVersion).matches("[0-9]+\\.[0-9]+\\.[0-9]+");
        Map<String, String> kafkaImages = new TreeMap<>();
        services.fields().forEachRemaining(service -> {
            String image = service.getValue().path("image").asText();
            if (image.startsWith("apache/kafka")) {
                kafkaImages.put(service.getKey(), image);
            }
        });

        assertThat(kafkaImages)
                .isEqualTo(Map.of("kafka", "apache/kafka:" + kafkaVersion, "topics", "apache/kafka:" + kafkaVersion));
    }

    /** An unpinned image changes under the file: the next pull may bring a broker the tests never ran against. */
    @Test
    void everyImageIsPinnedAndTheAppIsBuiltFromThisRepository() {
        List<String> images = new ArrayList<>();
        services.fields().forEachRemaining(service -> {
            JsonNode image = service.getValue().get("image");
            if (image == null) {
                assertThat(service.getValue().path("build").asText())
                        .as(service.getKey())
                        .isEqualTo(".");
                images.add(service.getKey() + " built");
            } else {
                images.add(service.getKey() + " " + image.asText());
            }
        });

        assertThat(images)
                .containsExactlyInAnyOrder(
                        "kafka apache/kafka:" + kafkaVersion, "topics apache/kafka:" + kafkaVersion, "app built");
    }

    /**
     * Two instances of one service share everything the file says: so no fixed name, no single host port, no named or
     * bound state volume (Kafka Streams locks its state dir, and the instance id kept there must differ), and no fixed
     * advertised host (the service name resolves to every instance: each must advertise its own host name).
     */
    @Test
    void theAppCanRunAsSeveralInstances() {
        JsonNode app = services.get("app");

        assertThat(app.has("container_name")).isFalse();
        assertThat(app.has("hostname")).isFalse();
        assertThat(texts(app.get("ports"))).containsExactly("8080-8081:8080");
        assertThat(texts(app.get("volumes"))).containsExactly("/var/lib/coordinate");
        assertThat(texts(app.get("command")))
                .contains("--data-dir=/var/lib/coordinate", "--http-host=0.0.0.0")
                .noneMatch(argument -> argument.startsWith("--advertised-host"));
    }

    /** The same check as the image's (see DockerfileTest): liveness, which a rebalance never fails. */
    @Test
    void theAppHasTheImagesHealthcheck() throws IOException {
        JsonNode check = services.get("app").get("healthcheck");

        List<String> test = texts(check.get("test"));
        assertThat(test.get(0)).isEqualTo("CMD");
        // "$$" is compose's escape for "$".
        List<String> command = test.subList(1, test.size()).stream()
                .map(part -> part.replace("$$", "$"))
                .toList();
        assertThat(command).isEqualTo(DockerfileTest.healthcheckCommand());
        assertThat(String.join(" ", command)).contains("/health/live");
        assertThat(check.get("interval").asText()).isEqualTo("10s");
        assertThat(check.get("timeout").asText()).isEqualTo("5s");
        assertThat(check.get("start_period").asText()).isEqualTo("30s");
        assertThat(check.get("retries").asInt()).isEqualTo(3);
    }

    /** Half the memory limit for the heap: RocksDB's block cache and the JVM's own memory live off the heap. */
    @Test
    void theAppHasAHeapLimitWithinItsMemoryLimit() {
        JsonNode app = services.get("app");

        assertThat(app.get("mem_limit").asText()).isEqualTo("1g");
        Matcher heap = Pattern.compile("-XX:MaxRAMPercentage=([0-9.]+)")
                .matcher(app.get("environment").get("JAVA_TOOL_OPTIONS").asText());
        assertThat(heap.find()).isTrue();
        assertThat(Double.parseDouble(heap.group(1))).isEqualTo(50.0);
    }

    static List<String> texts(JsonNode array) {
        List<String> result = new ArrayList<>();
        array.forEach(n -> result.add(n.asText()));
        return result;
    }
}
