package io.coordinate.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.protocol.Json;
import io.coordinate.query.CommandGateway;
import io.coordinate.query.QueryServer;
import io.coordinate.testing.FixedLocator;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The image's run stage, checked where no Docker engine runs: an unprivileged user, a heap limit, nothing of the
 * development tools (RuntimeOutputTest checks what it copies), and a healthcheck that works without curl: its very
 * command, run by bash against the app's HTTP server.
 */
class DockerfileTest {

    /** The run stage's instructions, one a line: continued lines joined, comments dropped. */
    static List<String> runStage() {
        try {
            List<String> instructions = Arrays.stream(
                            Files.readString(Path.of("Dockerfile")).split("(?<!\\\\)\n"))
                    .map(line -> line.replaceAll("\\\\\n\\s*", "").strip())
                    .filter(line -> !line.isEmpty() && !line.startsWith("#"))
                    .toList();
            int lastFrom = 0;
            for (int i = 0; i < instructions.size(); i++) {
                if (instructions.get(i).startsWith("FROM ")) {
                    lastFrom = i;
                }
            }
            return instructions.subList(lastFrom, instructions.size());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The HEALTHCHECK's command, exec form: what Docker runs in the container. */
    static List<String> healthcheckCommand() {
        List<String> checks =
                runStage().stream().filter(i -> i.startsWith("HEALTHCHECK ")).toList();
        assertThat(checks).hasSize(1);
        String check = checks.get(0);
        List<String> command = new ArrayList<>();
        Json.parse(check.substring(check.indexOf(" CMD [") + " CMD ".length()))
                .forEach(part -> command.add(part.asText()));
        return command;
    }

    @Test
    void theAppRunsAsAnUnprivilegedUser() {
        List<String> users =
                runStage().stream().filter(i -> i.startsWith("USER ")).toList();

        assertThat(users).containsExactly("USER coordinate");
        assertThat(runStage()).contains("RUN useradd --system --create-home --home-dir /var/lib/coordinate coordinate");
    }

    @Test
    void theHeapIsHalfTheContainersMemory() {
        assertThat(runStage()).contains("ENV JAVA_TOOL_OPTIONS=\"-XX:MaxRAMPercentage=50\"");
    }

    @Test
    void theRunStageHasNoneOfTheDevelopmentTools() {
        assertThat(runStage()).noneMatch(i -> i.contains("dev-classes") || i.contains("bench") || i.contains("broker"));
        assertThat(runStage().get(0)).isEqualTo("FROM eclipse-temurin:17-jre");
    }

    @Test
    void theHealthcheckProbesLivenessEveryTenSecondsAfterAStartPeriod() {
        assertThat(runStage())
                .anyMatch(
                        i -> i.startsWith(
                                "HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 CMD [\"bash\", \"-c\", "));
        assertThat(healthcheckCommand().get(2))
                .contains("/dev/tcp/127.0.0.1/8080")
                .contains("GET /health/live ");
    }

    /** The check's own command against a real server: healthy while live, unhealthy in a terminal state or when down. */
    @Test
    void theHealthcheckPassesWhileLiveAndFailsOtherwise() throws Exception {
        FixedLocator locator = new FixedLocator();
        QueryServer server = new QueryServer(
                        locator, new NoGateway(), new PrometheusMeterRegistry(PrometheusConfig.DEFAULT))
                .start(0);
        int port = server.port();
        try {
            locator.state = "REBALANCING";
            assertThat(runHealthcheck(port)).isZero();
            locator.state = "RUNNING";
            assertThat(runHealthcheck(port)).isZero();
            locator.state = "ERROR";
            assertThat(runHealthcheck(port)).isEqualTo(1);
        } finally {
            server.close();
        }
        assertThat(runHealthcheck(port)).as("nothing listens").isEqualTo(1);
    }

    private static int runHealthcheck(int port) throws Exception {
        List<String> command = new ArrayList<>(healthcheckCommand());
        command.set(2, command.get(2).replace("/127.0.0.1/8080 ", "/127.0.0.1/" + port + " "));
        assertThat(command.get(2)).contains("/127.0.0.1/" + port + " ");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getOutputStream().close();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("the check ended").isTrue();
        return process.exitValue();
    }

    private static final class NoGateway implements CommandGateway {
        @Override
        public CompletableFuture<ObjectNode> submit(String namespace, ObjectNode command, Duration timeout) {
            return CompletableFuture.failedFuture(new IllegalStateException("no commands here"));
        }

        @Override
        public void close() {}
    }
}
