package io.coordinate.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** No Java file in src/main is longer than {@link #MAX_LINES}: a longer one is split by responsibility. */
class SourceFileSizeTest {

    private static final int MAX_LINES = 400;
    private static final Path MAIN = Path.of("src", "main");

    @Test
    void noSourceFileIsLongerThanTheLimit() throws IOException {
        Map<Path, Integer> lines = javaFileLines();
        Map<Path, Integer> tooLong = new TreeMap<>();
        lines.forEach((file, count) -> {
            if (count > MAX_LINES) {
                tooLong.put(file, count);
            }
        });
        assertThat(tooLong).as("files over %d lines", MAX_LINES).isEmpty();
    }

    private static Map<Path, Integer> javaFileLines() throws IOException {
        Map<Path, Integer> lines = new TreeMap<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            files.filter(file -> file.toString().endsWith(".java")).forEach(file -> lines.put(file, count(file)));
        }
        assertThat(lines).as("Java files under %s", MAIN).isNotEmpty();
        return lines;
    }

    private static int count(Path file) {
        try {
            return Files.readAllLines(file).size();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
