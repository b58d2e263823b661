package io.coordinate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.client.AttemptProgress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProgressFileTest {

    @Test
    void aLineIsAFractionAndAMessageOrAMessageAlone() {
        assertThat(ProgressFile.parse("0.5 resizing 3 of 6")).isEqualTo(new AttemptProgress(0.5, "resizing 3 of 6"));
        assertThat(ProgressFile.parse("1")).isEqualTo(new AttemptProgress(1.0, null));
        assertThat(ProgressFile.parse("1.5 too far")).isEqualTo(new AttemptProgress(null, "1.5 too far"));
        assertThat(ProgressFile.parse("downloading")).isEqualTo(new AttemptProgress(null, "downloading"));
    }

    @Test
    void onlyAChangedFirstLineIsReported(@TempDir Path dir) throws Exception {
        Path path = dir.resolve("progress");
        ProgressFile file = new ProgressFile(path);
        assertThat(file.changed()).isEmpty(); // not written yet
        Files.writeString(path, "0.1 started\n");
        assertThat(file.changed()).isEqualTo(Optional.of(new AttemptProgress(0.1, "started")));
        assertThat(file.changed()).isEmpty();
        Files.writeString(path, "0.2 going\nignored\n");
        assertThat(file.changed()).isEqualTo(Optional.of(new AttemptProgress(0.2, "going")));
        Files.writeString(path, "");
        assertThat(file.changed()).isEmpty();
    }
}
