package io.coordinate.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.testing.KafkaTestClient;
import io.coordinate.testing.RunningApp;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The example of docs/client.md runs as shown, and the page shows the example's code as it is. */
class HashExampleIT {

    @TempDir
    Path dataDir;

    @Test
    void theExampleFinishesEveryUnitWithItsHash() throws Exception {
        try (RunningApp app = RunningApp.start(dataDir)) {
            KafkaTestClient http = app.client();
            assertThat(HashExample.run(app.env().bootstrapServers(), "example")).isEqualTo(100);
            assertThat(http.get("/api/namespaces/example/work-specs/hashes")
                            .body()
                            .get("counts")
                            .toString())
                    .isEqualTo("{\"finished\":100}");
            // sha256("hello 7")
            assertThat(http.get("/api/namespaces/example/work-specs/hashes/work-units/text-7")
                            .body()
                            .get("data")
                            .toString())
                    .isEqualTo("{\"sha256\":\"df48771ee8d93db39202cc76d73b7b894a0b06fa47beb6ebbf45318228680362\"}");
        }
    }

    @Test
    void theDocsShowTheExampleAsItIs() throws Exception {
        assertThat(Files.readString(Path.of("docs/client.md")))
                .contains(ExampleBlock.fenced("src/main/java/io/coordinate/examples/HashExample.java"));
    }
}
