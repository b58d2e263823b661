package io.coordinate.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client library's own artifact (client/pom.xml) builds, holds the client and protocol packages, and brings
 * only Kafka's client, Jackson and SLF4J with it: an application that works units does not pull in the app.
 */
class ClientArtifactIT {

    @TempDir
    Path work;

    @Test
    void theClientArtifactBuildsWithoutTheAppsDependencies() throws Exception {
        Path dependencies = work.resolve("dependencies.txt");
        run(
                "mvn",
                "-B",
                "-q",
                "-f",
                "client/pom.xml",
                "package",
                "dependency:list",
                "-DoutputFile=" + dependencies,
                "-DincludeScope=runtime");

        List<String> artifacts = new ArrayList<>();
        for (String line : Files.readAllLines(dependencies)) {
            String trimmed = line.trim();
            if (trimmed.matches("[\\w.-]+:[\\w.-]+:jar:.*")) {
                artifacts.add(trimmed.substring(0, trimmed.indexOf(":jar:")));
            }
        }
        assertThat(artifacts)
                .contains(
                        "org.apache.kafka:kafka-clients",
                        "com.fasterxml.jackson.core:jackson-databind",
                        "org.slf4j:slf4j-api");
        assertThat(artifacts)
                .noneMatch(a -> a.contains("kafka-streams")
                        || a.contains("rocksdb")
                        || a.contains("javalin")
                        || a.contains("kafka_2.13")
                        || a.contains("jetty"));

        File jar = Path.of("client/target/coordinate-client-0.1.0-SNAPSHOT.jar").toFile();
        try (ZipFile zip = new ZipFile(jar)) {
            assertThat(zip.getEntry("io/coordinate/client/Worker.class")).isNotNull();
            assertThat(zip.getEntry("io/coordinate/protocol/Json.class")).isNotNull();
            assertThat(zip.stream()
                            .filter(e -> e.getName().endsWith(".class"))
                            .noneMatch(e -> !e.getName().startsWith("io/coordinate/client/")
                                    && !e.getName().startsWith("io/coordinate/protocol/")))
                    .isTrue();
        }
    }

    private static void run(String... command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor(10, TimeUnit.MINUTES)).isTrue();
        assertThat(process.exitValue())
                .as("%s%n%s", String.join(" ", command), output)
                .isZero();
    }
}
