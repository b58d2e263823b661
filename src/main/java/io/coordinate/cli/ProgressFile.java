package io.coordinate.cli;

import io.coordinate.client.AttemptProgress;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The file a shell command reports its progress in ({@code COORDINATE_PROGRESS_FILE}): one line,
 * {@code <fraction> <message>}, replaced each time. A line whose first word is not a number from 0 to 1 is a message
 * alone.
 */
final class ProgressFile {

    private final Path path;
    private String lastLine;

    ProgressFile(Path path) {
        this.path = path;
    }

    /** The progress written since the last call, if the line changed (a missing or unreadable file: none). */
    Optional<AttemptProgress> changed() {
        String line;
        try (BufferedReader reader = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            line = reader.readLine();
        } catch (IOException e) { // not written yet, or being replaced
            return Optional.empty();
        }
        if (line == null || line.isBlank() || line.equals(lastLine)) {
            return Optional.empty();
        }
        lastLine = line;
        return Optional.of(parse(line.strip()));
    }

    static AttemptProgress parse(String line) {
        int space = line.indexOf(' ');
        String first = space < 0 ? line : line.substring(0, space);
        try {
            double fraction = Double.parseDouble(first);
            if (fraction >= 0 && fraction <= 1) {
                String message = space < 0 ? null : line.substring(space + 1).strip();
                return new AttemptProgress(fraction, message == null || message.isEmpty() ? null : message);
            }
        } catch (NumberFormatException e) {
            // not a fraction: the whole line is the message
        }
        return new AttemptProgress(null, line);
    }
}
