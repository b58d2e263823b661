package io.coordinate.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.testing.RunningApp;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The speed example of docs/client.md works its units, and the page shows the example's code as it is. */
class ShortUnitsExampleIT {

    @TempDir
    Path dataDir;

    @Test
    void theExampleFinishesEveryUnit() throws Exception {
        try (RunningApp app = RunningApp.start(dataDir)) {
            double seconds = ShortUnitsExample.run(app.env().bootstrapServers(), "short", "units", 2_000);
            assertThat(seconds).isPositive();
            assertThat(app.client()
                            .get("/api/namespaces/short/work-specs/units")
                            .body()
                            .get("counts")
                            .toString())
                    .isEqualTo("{\"finished\":2000}");
        }
    }

    @Test
    void theDocsShowTheExampleAsItIs() throws Exception {
        assertThat(Files.readString(Path.of("docs/client.md")))
                .contains(ExampleBlock.fenced("src/main/java/io/coordinate/examples/ShortUnitsExample.java"));
    }
}
