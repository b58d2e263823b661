package io.coordinate.fault;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.broker.EmbeddedKafkaBroker;
import io.coordinate.testing.EventLedger;
import io.coordinate.testing.KafkaTestClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * kill -9 of the app, then its local state is deleted (a new machine with the same instance id): restored from the
 * changelog, it answers every query exactly as before, and the work goes on. {@link FaultSuite#KILLS} times, with
 * new work between the losses; checked from the events as well ({@link EventLedger}).
 */
class StateLossIT {

    private static final String NS = "loss";
    private static final List<String> SPECS =
            List.of(Workload.PLAIN, Workload.TREE, Workload.KIDS, Workload.REPLICATED);

    // Kept when the test fails: the app's log (app.log) and the broker's data tell what happened.
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void aWipedStateComesBackWithTheSameAnswers() throws Exception {
        try (EmbeddedKafkaBroker broker = FaultSuite.broker(dir, 0)) {
            String bootstrap = broker.bootstrapServers();
            Path appDir = dir.resolve("app");
            AppJvm app = AppJvm.start(bootstrap, appDir, "fault-loss");
            try (EventLedger ledger = new EventLedger(bootstrap, Set.of(NS), Set.of(Workload.REPLICATED));
                    Workload workload = new Workload(bootstrap, NS).start()) {
                for (int loss = 1; loss <= FaultSuite.KILLS; loss++) {
                    workload.addUnits(Workload.PLAIN, "u" + loss + "-", 400);
                    workload.addTrees("t" + loss + "-", 3);
                    workload.addUnits(Workload.REPLICATED, "r" + loss + "-", 5);
                    // Quiet: every unit finished, so the answers cannot move on their own.
                    FaultSuite.assertAllFinishedOnce(ledger, workload);
                    List<JsonNode> before = snapshot(bootstrap, app);

                    app.kill();
                    deleteTree(appDir.resolve("streams"));
                    app = AppJvm.start(bootstrap, appDir, "fault-loss");

                    assertThat(snapshot(bootstrap, app)).isEqualTo(before);
                }
                FaultSuite.assertAllFinishedOnce(ledger, workload);
            } finally {
                app.close();
            }
        }
    }

    /** Every spec's view and every page of its units, over HTTP, once the app answers (not 503). */
    private static List<JsonNode> snapshot(String bootstrap, AppJvm app) {
        try (KafkaTestClient http = new KafkaTestClient(bootstrap, app.httpPort())) {
            List<JsonNode> answers = new ArrayList<>();
            for (String spec : SPECS) {
                String base = "/api/namespaces/" + NS + "/work-specs/" + spec;
                answers.add(await(http, base));
                String previous = null;
                do {
                    JsonNode page = await(
                            http,
                            base + "/work-units?limit=1000"
                                    + (previous == null ? "" : "&previous=" + KafkaTestClient.encode(previous)));
                    answers.add(page);
                    previous = page.hasNonNull("next") ? page.get("next").asText() : null;
                } while (previous != null);
            }
            return answers;
        }
    }

    private static JsonNode await(KafkaTestClient http, String path) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            KafkaTestClient.HttpAnswer answer = http.get(path);
            if (answer.status() == 200) {
                return answer.body();
            }
            if (answer.status() != 503 || System.nanoTime() > deadline) {
                throw new AssertionError("GET " + path + ": " + answer.status() + " " + answer.body());
            }
            try {
                Thread.sleep(200); // the app said "retry": a rebalance or a restore is under way
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
