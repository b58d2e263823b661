package io.coordinate.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InstanceIdTest {

    @TempDir
    Path dataDir;

    @Test
    void aGeneratedIdIsKeptInTheDataDirAndReused() throws Exception {
        String first = InstanceId.resolve(null, dataDir);
        assertThat(first).matches("coordinate-[0-9a-f-]{36}");
        assertThat(Files.readString(dataDir.resolve("instance-id")).strip()).isEqualTo(first);
        assertThat(InstanceId.resolve(null, dataDir)).isEqualTo(first);
        try (var files = Files.list(dataDir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("instance-id");
        }
    }

    @Test
    void aGivenIdWinsAndIsNotStored() {
        assertThat(InstanceId.resolve("node-1", dataDir)).isEqualTo("node-1");
        assertThat(dataDir.resolve("instance-id")).doesNotExist();
    }

    @Test
    void anIdKafkaWouldRefuseIsRefusedUpFront() {
        assertThatThrownBy(() -> InstanceId.resolve("node 1", dataDir))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "invalid instance id from --instance-id: 'node 1' (1 to 240 letters, digits, '.', '_' or '-')");
        assertThatThrownBy(() -> InstanceId.resolve("", dataDir)).isInstanceOf(IllegalArgumentException.class);
    }
}
