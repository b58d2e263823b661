package io.coordinate.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.coordinate.cli.DevEnvironment;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keeps docs/reference.md true: runs docs/verify-reference.sh, which sends every example of the page with
 * kcat and checks every answer, against a fresh app on a real broker. Needs kcat (CI installs it).
 */
class ReferenceDocIT {

    @TempDir
    Path dataDir;

    @Test
    void everyExampleOfTheReferencePageWorksAsDocumented() throws Exception {
        assumeTrue(onPath("kcat"), "kcat is not installed");
        assumeTrue(onPath("curl"), "curl is not installed");
        try (DevEnvironment env = DevEnvironment.start(0, 0, dataDir)) {
            Path log = dataDir.resolve("verify.log");
            ProcessBuilder script = new ProcessBuilder("bash", "docs/verify-reference.sh")
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            script.environment().put("B", env.bootstrapServers());
            script.environment().put("HTTP", "http://127.0.0.1:" + env.httpPort());
            Process process = script.start();
            boolean done = process.waitFor(5, TimeUnit.MINUTES);
            if (!done) {
                process.destroyForcibly();
            }
            String output = Files.readString(log, StandardCharsets.UTF_8);
            assertThat(done)
                    .as("verify-reference.sh finished in time; output:%n%s", output)
                    .isTrue();
            assertThat(process.exitValue())
                    .as("verify-reference.sh output:%n%s", output)
                    .isZero();
            assertThat(output).contains("OK:");
        }
    }

    private static boolean onPath(String tool) throws IOException, InterruptedException {
        return new ProcessBuilder("bash", "-c", "command -v " + tool).start().waitFor() == 0;
    }
}
