package io.coordinate.fault;

import io.coordinate.broker.EmbeddedKafkaBroker;
import io.coordinate.testing.EventLedger;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * kill -9 of the app under a load of requests and finishes, and in the middle of large adds, then a restart on the
 * same data dir, {@link FaultSuite#KILLS} times: every unit finishes, none is lost, none finished twice, no
 * attempt is handed out while another holds a valid lease. Job trees and replicated units are in flight through
 * every kill. Checked from coordinate.events and coordinate.results ({@link EventLedger}).
 */
class AppKillIT {

    private static final String NS = "kill";

    // Kept when the test fails: the app's log (app.log) and the broker's data tell what happened.
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void nothingLostNorDoneTwiceThroughKills() throws Exception {
        try (EmbeddedKafkaBroker broker = FaultSuite.broker(dir, 0)) {
            String bootstrap = broker.bootstrapServers();
            Path appDir = dir.resolve("app");
            AppJvm app = AppJvm.start(bootstrap, appDir, "fault-kill");
            try (EventLedger ledger = new EventLedger(bootstrap, Set.of(NS), Set.of(Workload.REPLICATED));
                    Workload workload = new Workload(bootstrap, NS).start()) {
                workload.addUnits(Workload.PLAIN, "u", 600);
                workload.addTrees("t", 5);
                workload.addUnits(Workload.REPLICATED, "r", 10);
                for (int kill = 1; kill <= FaultSuite.KILLS; kill++) {
                    // Fresh work each round, so the fault always lands under load.
                    workload.addUnits(Workload.PLAIN, "u" + kill + "-", 400);
                    FaultSuite.awaitProgress(ledger, workload, 150);
                    workload.addTrees("t" + kill + "-", 3);
                    workload.addUnits(Workload.REPLICATED, "r" + kill + "-", 5);
                    if (kill % 2 == 0) {
                        // A large add in flight: the kill lands while the app reads, applies or commits it.
                        workload.addUnits(Workload.PLAIN, "bulk" + kill + "-", 5_000);
                        Thread.sleep(ThreadLocalRandom.current().nextInt(50, 600));
                    }
                    app.kill();
                    app = AppJvm.start(bootstrap, appDir, "fault-kill");
                }
                FaultSuite.assertAllFinishedOnce(ledger, workload, bootstrap, app.httpPort());
            } finally {
                app.close();
            }
        }
    }
}
