package io.coordinate.docs;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * One bash for all the blocks of a page, as a reader pastes them into one terminal: a variable, a function or a
 * {@code cd} of one block holds in the next. Each block runs from a file of its own, its stdin empty, its stdout and
 * stderr together in a file, as a terminal shows them.
 */
final class DocShell implements AutoCloseable {

    /** What a block printed, and how it ended: its exit status, or null if it did not end in time. */
    record Result(Integer status, String output) {}

    private final Path steps;
    private final Process bash;
    private final Writer input;
    private int count;

    DocShell(Path workDir, Path steps, Map<String, String> environment) throws IOException {
        this.steps = Files.createDirectories(steps);
        ProcessBuilder builder = new ProcessBuilder("bash", "--noprofile", "--norc")
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(steps.resolve("bash.log").toFile());
        builder.environment().keySet().removeIf(name -> name.startsWith("COORDINATE_"));
        builder.environment().putAll(environment);
        bash = builder.start();
        input = new java.io.OutputStreamWriter(bash.getOutputStream(), StandardCharsets.UTF_8);
    }

    /**
     * Runs a script in the shell. With {@code errexit} it runs under {@code set -e}, and a failing command ends the
     * shell with its status (the page's later blocks would not make sense anyway).
     */
    Result run(String script, boolean errexit, Duration timeout) throws IOException, InterruptedException {
        int n = ++count;
        Path file = steps.resolve(n + ".sh");
        Path output = steps.resolve(n + ".out");
        Path status = steps.resolve(n + ".status");
        Files.writeString(file, script, StandardCharsets.UTF_8);
        String source = ". " + quote(file) + " </dev/null >" + quote(output) + " 2>&1";
        String line = errexit
                ? "set -e; " + source + "; set +e; echo 0 >" + quote(status) + ".tmp"
                : source + "; echo $? >" + quote(status) + ".tmp";
        input.write(line + "; mv " + quote(status) + ".tmp " + quote(status) + "\n");
        input.flush();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!Files.exists(status) && bash.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        Integer exit = null;
        if (Files.exists(status)) {
            exit = Integer.parseInt(Files.readString(status).strip());
        } else if (!bash.isAlive()) {
            exit = bash.exitValue();
        }
        String printed = Files.exists(output) ? Files.readString(output, StandardCharsets.UTF_8) : "";
        return new Result(exit, printed);
    }

    private static String quote(Path path) {
        return "'" + path.toAbsolutePath().toString().replace("'", "'\\''") + "'";
    }

    /** Ends the shell and whatever it started that still runs (a block that did not end in time). */
    @Override
    public void close() {
        bash.descendants().forEach(ProcessHandle::destroyForcibly);
        bash.destroyForcibly();
        try {
            input.close();
        } catch (IOException e) {
            // The shell is gone already.
        }
    }
}
