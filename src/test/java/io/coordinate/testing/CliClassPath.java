package io.coordinate.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The class path to run {@code io.coordinate.cli.CoordinateCli} in a JVM of its own, as bin/coordinate does. */
public final class CliClassPath {

    private CliClassPath() {}

    /**
     * bin/coordinate's class path, or this JVM's where the build has not written it: target/classes and the runtime
     * class path file, and if asked for, the development tools' (target/dev-classes and the provided class path file:
     * the embedded broker of {@code dev}).
     */
    public static String of(boolean withDevTools) throws IOException {
        List<Path> dirs = new ArrayList<>(List.of(Path.of("target", "classes")));
        List<Path> files = new ArrayList<>(List.of(Path.of("target", "runtime-classpath.txt")));
        if (withDevTools) {
            dirs.add(Path.of("target", "dev-classes"));
            files.add(Path.of("target", "provided-classpath.txt"));
        }
        if (!dirs.stream().allMatch(Files::isDirectory) || !files.stream().allMatch(Files::isRegularFile)) {
            return System.getProperty("java.class.path");
        }
        List<String> entries = new ArrayList<>();
        for (Path dir : dirs) {
            entries.add(dir.toAbsolutePath().toString());
        }
        for (Path file : files) {
            entries.add(Files.readString(file).strip());
        }
        return String.join(":", entries);
    }
}
