package io.coordinate.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A shell worker's command with everything it started: a process group of its own (through {@code setsid}), so that
 * a signal reaches its children, even those it left in the background. Without {@code setsid} (not Linux), the
 * signals go to the process and its descendants instead.
 */
final class CommandGroup {

    /** What runs a command in a process group of its own (empty: none found). */
    static final List<String> LAUNCHER = Stream.of("/usr/bin/setsid", "/bin/setsid")
            .filter(path -> Files.isExecutable(Path.of(path)))
            .findFirst()
            .map(List::of)
            .orElse(List.of());

    private final Process process;
    private final boolean ownGroup;

    /** @param ownGroup whether the process leads a process group of its own (was started by {@link #LAUNCHER}) */
    CommandGroup(Process process, boolean ownGroup) {
        this.process = process;
        this.ownGroup = ownGroup;
    }

    /**
     * SIGTERM, then SIGKILL if the command has not ended within {@code grace} (or this thread is interrupted while it
     * waits): the command can clean up, but does not outlive the grace. Keeps this thread's interrupt.
     */
    void terminate(Duration grace) {
        signal("TERM");
        try {
            if (process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        kill();
    }

    /** SIGKILL to the whole group. */
    void kill() {
        signal("KILL");
    }

    private void signal(String name) {
        if (!ownGroup) {
            boolean force = name.equals("KILL");
            process.descendants().forEach(child -> {
                if (force) {
                    child.destroyForcibly();
                } else {
                    child.destroy();
                }
            });
            if (force) {
                process.destroyForcibly();
            } else {
                process.destroy();
            }
            return;
        }
        boolean interrupted = Thread.interrupted(); // an interrupt must not stop the signal from going out
        try {
            new ProcessBuilder("/bin/sh", "-c", "kill -s " + name + " -- -" + process.pid() + " 2>/dev/null")
                    .start()
                    .waitFor();
        } catch (IOException | InterruptedException e) {
            process.destroyForcibly(); // at least the command itself
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
