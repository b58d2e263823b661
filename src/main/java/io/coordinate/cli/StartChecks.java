package io.coordinate.cli;

import com.sun.management.UnixOperatingSystemMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What {@code run} and {@code dev} check before they start anything, so that a machine that cannot run the app says
 * so in one line ({@link ExitCodes#ENVIRONMENT}) instead of a stack trace, or a stream thread that dies later: a data
 * dir the app can write, and an open-file limit it can live with (docs/operations.md, "Open files").
 */
final class StartChecks {

    /**
     * Below this many open files the app refuses to start: what it holds at rest leaves too little room, and a few
     * hundred HTTP connections or RocksDB files more would stop its stream thread (docs/operations.md, "Open files").
     */
    static final long MINIMUM_OPEN_FILES = 1024;
    /** Below this many the app warns: room for the HTTP connections, the event streams and the stores' growth. */
    static final long RECOMMENDED_OPEN_FILES = 4096;

    private static final Logger LOG = LoggerFactory.getLogger(StartChecks.class);
    private static final String RAISE_IT = "raise it (ulimit -n 65536; LimitNOFILE=65536 for systemd; "
            + "--ulimit nofile=65536 for Docker), see docs/operations.md, \"Open files\"";

    private StartChecks() {}

    /** Both checks, for {@code dataDir} and the {@code subdirs} of it the command writes. */
    static void check(Path dataDir, String... subdirs) {
        checkWritable(dataDir, subdirs);
        String warning = checkOpenFiles(openFileLimit());
        if (warning != null) {
            LOG.warn(warning);
        }
    }

    /**
     * Refuses a limit below {@link #MINIMUM_OPEN_FILES}; returns a warning below {@link #RECOMMENDED_OPEN_FILES}, else
     * null. A negative limit is one the JVM does not know.
     */
    static String checkOpenFiles(long limit) {
        if (limit >= 0 && limit < MINIMUM_OPEN_FILES) {
            throw new CliFailure(
                    ExitCodes.ENVIRONMENT,
                    "the open-file limit is " + limit + ", below the " + MINIMUM_OPEN_FILES
                            + " the app needs to start (" + RECOMMENDED_OPEN_FILES + " recommended); " + RAISE_IT);
        }
        return limit >= 0 && limit < RECOMMENDED_OPEN_FILES
                ? "the open-file limit is " + limit + ", below the "
                        + RECOMMENDED_OPEN_FILES
                        + " recommended: each RocksDB file, Kafka connection and HTTP connection takes one, "
                        + "and at the limit the stream thread stops; " + RAISE_IT
                : null;
    }

    /** The process's open-file limit, or -1 where the JVM does not tell it (not a Unix). */
    static long openFileLimit() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof UnixOperatingSystemMXBean unix ? unix.getMaxFileDescriptorCount() : -1;
    }

    /** Creates {@code dataDir} and its {@code subdirs} if missing, and writes and deletes a file in each. */
    static void checkWritable(Path dataDir, String... subdirs) {
        Path dir = dataDir;
        try {
            checkWritable(dir);
            for (String subdir : subdirs) {
                dir = dataDir.resolve(subdir);
                checkWritable(dir);
            }
        } catch (IOException e) {
            throw new CliFailure(
                    ExitCodes.ENVIRONMENT,
                    "cannot write to the data dir " + dataDir.toAbsolutePath() + " (--data-dir): "
                            + (dir.equals(dataDir) ? "" : dir.getFileName() + "/: ") + reason(e));
        }
    }

    private static void checkWritable(Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.delete(Files.createTempFile(dir, ".write-check", ".tmp"));
    }

    private static String reason(IOException e) {
        return e instanceof FileAlreadyExistsException
                ? "not a directory"
                : e instanceof AccessDeniedException
                        ? "permission denied"
                        : e instanceof FileSystemException f && f.getReason() != null ? f.getReason() : e.toString();
    }
}
