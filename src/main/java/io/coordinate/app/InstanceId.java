package io.coordinate.app;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The stable name of an instance ({@code group.instance.id}, static membership): given on the command line, or
 * generated once and kept in the data dir, so that a restart on the same data dir rejoins the group as the same
 * member and gets its partitions back at once instead of after the dead member's session timeout.
 */
public final class InstanceId {

    /** The file in the data dir that keeps a generated id. */
    public static final String FILE = "instance-id";
    /**
     * Kafka's rule for a group instance id (letters, digits, {@code . _ -}, at most 249 characters), less room for the
     * {@code -<thread>} suffix Kafka Streams adds per stream thread.
     */
    private static final Pattern VALID = Pattern.compile("[a-zA-Z0-9._-]{1,240}");

    private InstanceId() {}

    /** {@code given} if not null (checked), else the id stored in {@code dataDir}, else a new one stored there. */
    public static String resolve(String given, Path dataDir) {
        if (given != null) {
            return check(given, "--instance-id");
        }
        Path file = dataDir.resolve(FILE);
        try {
            if (Files.isRegularFile(file)) {
                return check(Files.readString(file, StandardCharsets.UTF_8).strip(), file.toString());
            }
            String id = "coordinate-" + UUID.randomUUID();
            Files.createDirectories(dataDir);
            // Written aside and moved into place, so a crash never leaves a half-written id behind.
            Path temp = Files.createTempFile(dataDir, FILE, ".tmp");
            Files.writeString(temp, id + "\n", StandardCharsets.UTF_8);
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE);
            return id;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or store the instance id in " + file, e);
        }
    }

    private static String check(String id, String source) {
        if (!VALID.matcher(id).matches()) {
            throw new IllegalArgumentException("invalid instance id from " + source + ": '" + id
                    + "' (1 to 240 letters, digits, '.', '_' or '-')");
        }
        return id;
    }
}
