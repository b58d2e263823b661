package io.coordinate.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.cli.CoordinateCli;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The app's runtime output, which the image ships (target/classes and the runtime-scope jars), holds neither the
 * development tools (src/dev and src/bench: the embedded broker, {@code dev}, the bench) nor the broker's jars and
 * Scala; the CLI runs on it alone. {@code bin/coordinate} adds the tools (target/dev-classes, the provided jars).
 */
class RuntimeOutputTest {

    private static final Path CLASSES = Path.of("target", "classes");
    private static final Path DEV_CLASSES = Path.of("target", "dev-classes");
    private static final Path RUNTIME_CLASSPATH = Path.of("target", "runtime-classpath.txt");
    private static final Path PROVIDED_CLASSPATH = Path.of("target", "provided-classpath.txt");
    private static final List<String> TOOLS = List.of("dev", "bench", "bench-engine", "bench-scale", "bench-metrics");

    @Test
    void theRuntimeOutputHoldsNoneOfTheDevelopmentTools() throws IOException {
        List<String> toolClasses = new ArrayList<>();
        for (Path root : List.of(Path.of("src", "dev", "java"), Path.of("src", "bench", "java"))) {
            try (Stream<Path> sources = Files.walk(root)) {
                sources.filter(f -> f.toString().endsWith(".java"))
                        .map(f -> root.relativize(f).toString().replaceAll("\\.java$", ".class"))
                        .forEach(toolClasses::add);
            }
        }
        assertThat(toolClasses)
                .contains(
                        "io/coordinate/broker/EmbeddedKafkaBroker.class",
                        "io/coordinate/cli/DevCommand.class",
                        "io/coordinate/cli/BenchCommand.class",
                        "io/coordinate/bench/BenchRun.class");
        List<String> runtimeClasses = classFiles(CLASSES);

        assertThat(runtimeClasses)
                .contains("io/coordinate/cli/CoordinateCli.class", "io/coordinate/cli/RunCommand.class")
                .doesNotContainAnyElementsOf(toolClasses)
                .noneMatch(f -> f.startsWith("io/coordinate/bench/") || f.startsWith("io/coordinate/broker/"));
        assertThat(classFiles(DEV_CLASSES)).containsAll(toolClasses);
    }

    @Test
    void theRuntimeClassPathHoldsNeitherTheBrokerNorScala() throws IOException {
        List<String> runtime = jarNames(RUNTIME_CLASSPATH);
        List<String> provided = jarNames(PROVIDED_CLASSPATH);

        assertThat(runtime)
                .anyMatch(jar -> jar.startsWith("kafka-streams-"))
                .anyMatch(jar -> jar.startsWith("kafka-clients-"))
                .noneMatch(jar -> jar.startsWith("kafka_2.13-")
                        || jar.startsWith("scala-")
                        || jar.startsWith("kafka-metadata-")
                        || jar.startsWith("kafka-server-")
                        || jar.startsWith("kafka-raft-"))
                .doesNotContainAnyElementsOf(provided);
        // What bin/coordinate adds for the tools.
        assertThat(provided)
                .anyMatch(jar -> jar.startsWith("kafka_2.13-"))
                .anyMatch(jar -> jar.startsWith("scala-library-"))
                .anyMatch(jar -> jar.startsWith("kafka-server-common-"));
    }

    /** The image's run stage takes target/classes and the jars of copy-dependencies with runtime scope, nothing else. */
    @Test
    void theImageCopiesOnlyTheRuntimeOutput() throws IOException {
        // One line per instruction: a RUN continued with backslashes is joined.
        List<String> instructions = Arrays.stream(
                        Files.readString(Path.of("Dockerfile")).split("(?<!\\\\)\n"))
                .map(line -> line.replaceAll("\\\\\n\\s*", "").strip())
                .filter(line -> !line.isEmpty() && !line.startsWith("#"))
                .toList();

        assertThat(instructions.stream().filter(i -> i.startsWith("COPY --from=build")))
                .containsExactly(
                        "COPY --from=build /src/target/classes ./classes", "COPY --from=build /src/target/lib ./lib");
        assertThat(instructions)
                .anyMatch(
                        i -> i.startsWith("RUN mvn ")
                                && i.matches(
                                        ".*\\bdependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory=/src/target/lib\\b.*"));
        assertThat(instructions)
                .anyMatch(i ->
                        i.startsWith("ENTRYPOINT ") && i.contains("\"/opt/coordinate/classes:/opt/coordinate/lib/*\""));
    }

    /** As the image runs it: the tools are not listed, and each says it is not part of this build. */
    @Test
    void theCliRunsOnTheRuntimeClassPathAloneWithoutTheTools() throws Exception {
        String classPath = CLASSES.toAbsolutePath() + ":"
                + Files.readString(RUNTIME_CLASSPATH).strip();

        Run help = run(classPath, "--help");
        assertThat(help.exitCode()).as(help.stderr()).isZero();
        assertThat(commandNames(help.stdout())).contains("run", "units", "work").doesNotContainAnyElementsOf(TOOLS);

        for (String tool : TOOLS) {
            Run missing = run(classPath, tool, "--data-dir", "/nonexistent");
            assertThat(missing.exitCode()).as(tool).isEqualTo(2);
            assertThat(missing.stdout()).isEmpty();
            assertThat(missing.stderr())
                    .startsWith("coordinate " + tool + ": not part of this build")
                    .contains("bin/coordinate " + tool)
                    .doesNotContain("Exception");
        }
    }

    /** With the tools on the class path (bin/coordinate's, the tests'), the help lists them with the app's commands. */
    @Test
    void theHelpListsTheToolsWhereTheyAre() {
        assertThat(commandNames(CoordinateCli.commandLine().getUsageMessage()))
                .contains("run", "units", "work")
                .containsAll(TOOLS);
    }

    private static List<String> classFiles(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(f -> f.toString().endsWith(".class"))
                    .map(f -> root.relativize(f).toString())
                    .toList();
        }
    }

    private static List<String> jarNames(Path classpathFile) throws IOException {
        return Arrays.stream(Files.readString(classpathFile).strip().split(":"))
                .map(jar -> Path.of(jar).getFileName().toString())
                .toList();
    }

    /** The names of the Commands section of a picocli usage message. */
    private static Set<String> commandNames(String usage) {
        Matcher m = Pattern.compile("(?m)^ {2}([a-z][a-z-]*) ").matcher(usage.substring(usage.indexOf("Commands:")));
        return m.results().map(r -> r.group(1)).collect(Collectors.toSet());
    }

    private record Run(int exitCode, String stdout, String stderr) {}

    private static Run run(String classPath, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1",
                "-cp",
                classPath,
                CoordinateCli.class.getName()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).start();
        CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
        String stdout = read(process.getInputStream());
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the CLI ended").isTrue();
        return new Run(process.exitValue(), stdout, stderr.get());
    }

    private static String read(InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
