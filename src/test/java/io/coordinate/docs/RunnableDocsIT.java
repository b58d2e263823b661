package io.coordinate.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.coordinate.cli.DevEnvironment;
import io.coordinate.docs.RunnableBlocks.Block;
import io.coordinate.docs.RunnableBlocks.Step;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Runs the blocks of README.md and docs/cli.md marked {@code <!-- doc-test -->} ({@link RunnableBlocks}) in order,
 * as a new user pastes them, against a fresh app on a real broker: a {@code sh} block must end with status 0, each
 * command of a transcript must print what the page shows. The page's addresses (127.0.0.1:9092,
 * http://127.0.0.1:8080) become the test's. Needs kcat and curl (CI installs kcat).
 */
class RunnableDocsIT {

    private static final String DOC_BOOTSTRAP = "127.0.0.1:9092";
    private static final String DOC_HTTP = "http://127.0.0.1:8080";
    /** A block that takes longer has hung (a kcat waiting for a record that never comes). */
    private static final Duration BLOCK_TIMEOUT = Duration.ofMinutes(3);
    /** How long a transcript marked retry may take to print what the page shows. */
    private static final Duration RETRY_FOR = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"README.md", "docs/cli.md"})
    void everyRunnableBlockRunsAsPrinted(String page) throws Exception {
        assumeTrue(onPath("kcat"), "kcat is not installed");
        assumeTrue(onPath("curl"), "curl is not installed");
        Path repo = Path.of("").toAbsolutePath();
        for (String built : List.of(
                "target/classes",
                "target/dev-classes",
                "target/runtime-classpath.txt",
                "target/provided-classpath.txt")) {
            assertThat(repo.resolve(built))
                    .as("bin/coordinate runs the build's output: run mvn compile first")
                    .exists();
        }
        List<Block> blocks = RunnableBlocks.parse(Files.readAllLines(repo.resolve(page), StandardCharsets.UTF_8));
        assertThat(blocks).as("runnable blocks of %s", page).isNotEmpty();

        Path work = Files.createDirectories(dir.resolve("work"));
        Files.createSymbolicLink(work.resolve("bin"), repo.resolve("bin"));
        try (DevEnvironment env = DevEnvironment.start(0, 0, dir.resolve("data"))) {
            String http = "http://127.0.0.1:" + env.httpPort();
            Map<String, String> environment = Map.of(
                    "COORDINATE_BOOTSTRAP_SERVERS",
                    env.bootstrapServers(),
                    "COORDINATE_HTTP_URL",
                    http,
                    // mvn verify has just built target/: bin/coordinate must not start a build of its own.
                    "COORDINATE_NO_BUILD",
                    "1",
                    // Short-lived CLI JVMs: they start faster and take less of a shared machine's CPU without C2.
                    "JAVA_OPTS",
                    "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC");
            Addresses addresses = new Addresses(env.bootstrapServers(), http);
            try (DocShell shell = new DocShell(work, dir.resolve("steps"), environment)) {
                Block lastScript = null;
                String lastScriptOutput = null;
                for (Block block : blocks) {
                    switch (block.kind()) {
                        case FILE -> Files.writeString(work.resolve(block.file()), addresses.of(block.text()));
                        case SCRIPT -> {
                            lastScript = block;
                            lastScriptOutput = runScript(shell, page, block, addresses);
                        }
                        case OUTPUT -> expectOutput(page, block, lastScript, lastScriptOutput, addresses);
                        case TRANSCRIPT -> {
                            for (Step step : block.steps()) {
                                runStep(shell, page, step, block.retry(), addresses);
                            }
                        }
                    }
                }
            }
        }
    }

    private static String runScript(DocShell shell, String page, Block block, Addresses addresses)
            throws IOException, InterruptedException {
        String script = addresses.of(block.text());
        DocShell.Result result = shell.run(script, true, BLOCK_TIMEOUT);
        if (result.status() == null || result.status() != 0) {
            fail(
                    "%s:%d: the sh block %s%n%s%noutput:%n%s",
                    page,
                    block.line(),
                    result.status() == null
                            ? "did not end within " + BLOCK_TIMEOUT
                            : "ended with status " + result.status(),
                    indent(script),
                    indent(result.output()));
        }
        return result.output();
    }

    private static void expectOutput(String page, Block block, Block script, String output, Addresses addresses) {
        List<String> expected = RunnableBlocks.lines(addresses.of(block.text()));
        List<String> actual = RunnableBlocks.lines(output);
        if (!RunnableBlocks.matches(expected, actual)) {
            fail(
                    "%s:%d: the sh block of line %d printed something else%n%s%nexpected:%n%s%nactual:%n%s",
                    page,
                    block.line(),
                    script.line(),
                    indent(addresses.of(script.text())),
                    indent(String.join("\n", expected)),
                    indent(String.join("\n", actual)));
        }
    }

    private static void runStep(DocShell shell, String page, Step step, boolean retry, Addresses addresses)
            throws IOException, InterruptedException {
        String command = addresses.of(step.command());
        List<String> expected = RunnableBlocks.lines(addresses.of(String.join("\n", step.expected())));
        long deadline = System.nanoTime() + RETRY_FOR.toNanos();
        while (true) {
            DocShell.Result result = shell.run(command + "\n", false, BLOCK_TIMEOUT);
            List<String> actual = RunnableBlocks.lines(result.output());
            boolean matched = result.status() != null && RunnableBlocks.matches(expected, actual);
            if (matched) {
                return;
            }
            if (!retry || result.status() == null || System.nanoTime() > deadline) {
                fail(
                        "%s:%d: $ %s%n%sexpected:%n%s%nactual:%n%s",
                        page,
                        step.line(),
                        command,
                        result.status() == null ? "(did not end within " + BLOCK_TIMEOUT + ")\n" : "",
                        indent(String.join("\n", expected)),
                        indent(String.join("\n", actual)));
            }
            Thread.sleep(500);
        }
    }

    private static String indent(String text) {
        return text.lines().map(line -> "    " + line).collect(Collectors.joining("\n"));
    }

    private static boolean onPath(String tool) throws IOException, InterruptedException {
        return new ProcessBuilder("bash", "-c", "command -v " + tool).start().waitFor() == 0;
    }

    /** The page's addresses replaced by the test's. */
    private record Addresses(String bootstrap, String http) {
        String of(String text) {
            return text.replace(DOC_HTTP, http).replace(DOC_BOOTSTRAP, bootstrap);
        }
    }
}
