package io.coordinate.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.broker.EmbeddedKafkaBroker;
import io.coordinate.cli.CoordinateCli;
import io.coordinate.cli.ExitCodes;
import io.coordinate.testing.EventLedger;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code coordinate work --until-idle} while the app under it is stopped with SIGTERM and restarted, then killed
 * with SIGKILL and restarted: the worker waits out both restarts and exits 0 once every unit is finished, each once.
 */
class WorkerThroughRestartIT {

    private static final String NS = "restart-worker";

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void aWorkerUntilIdleWaitsOutRestartsOfTheApp() throws Exception {
        try (EmbeddedKafkaBroker broker = FaultSuite.broker(dir, 0)) {
            String bootstrap = broker.bootstrapServers();
            Path appDir = dir.resolve("app");
            int httpPort = FaultSuite.freePort();
            AppJvm app = AppJvm.start(bootstrap, appDir, "restart-worker", httpPort);
            try (EventLedger ledger = new EventLedger(bootstrap, Set.of(NS), Set.of());
                    Workload workload = new Workload(bootstrap, NS).define()) {
                workload.addUnits(Workload.PLAIN, "u", 1_500);
                // --until-idle ends at once on a spec with nothing available yet: start it once the units are in.
                ledger.awaitUntil(
                        "the units added",
                        Duration.ofSeconds(60),
                        l -> workload.expected().stream()
                                .allMatch(key -> l.unitOf(key) != null && l.unitOf(key).added > 0));
                CompletableFuture<Integer> worker = CompletableFuture.supplyAsync(() -> CoordinateCli.commandLine()
                        .execute(
                                "work",
                                "--bootstrap-servers",
                                bootstrap,
                                "--http-url",
                                "http://127.0.0.1:" + httpPort,
                                "--namespace",
                                NS,
                                "--spec",
                                Workload.PLAIN,
                                "--exec",
                                "sleep 0.02",
                                "--concurrency",
                                "8",
                                "--until-idle"));
                FaultSuite.awaitProgress(ledger, workload, 200);
                app.close(); // SIGTERM
                app = AppJvm.start(bootstrap, appDir, "restart-worker", httpPort);
                FaultSuite.awaitProgress(ledger, workload, 200);
                app.kill();
                app = AppJvm.start(bootstrap, appDir, "restart-worker", httpPort);
                assertThat(worker.get(4, TimeUnit.MINUTES))
                        .as("the worker's exit status")
                        .isEqualTo(ExitCodes.OK);
                FaultSuite.assertAllFinishedOnce(ledger, workload, bootstrap, app.httpPort());
            } finally {
                app.close();
            }
        }
    }
}
