package io.coordinate.fault;

import io.coordinate.testing.EventLedger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kill -9 of {@code coordinate dev} (the embedded broker dies with the app) during large adds and a load of
 * requests and finishes, then a restart on the same data dir and port, {@link FaultSuite#KILLS} times: it always
 * comes back (a transaction left open by the crash must not hold the restart in REBALANCING, docs/operations.md,
 * "Hanging transactions"), and the work comes out whole, as the events show.
 */
class DevKillIT {

    private static final String NS = "dev";
    private static final Logger LOG = LoggerFactory.getLogger(DevKillIT.class);

    // Kept when the test fails: the app's log (app.log) and the broker's data tell what happened.
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void devComesBackAfterEveryKill() throws Exception {
        int port = FaultSuite.freePort();
        String bootstrap = "127.0.0.1:" + port;
        AppJvm dev = AppJvm.startDev(port, dir, "fault-dev");
        try (EventLedger ledger = new EventLedger(bootstrap, Set.of(NS), Set.of(Workload.REPLICATED));
                Workload workload = new Workload(bootstrap, NS).start()) {
            workload.addUnits(Workload.PLAIN, "u", 600);
            workload.addTrees("t", 3);
            workload.addUnits(Workload.REPLICATED, "r", 5);
            for (int kill = 1; kill <= FaultSuite.KILLS; kill++) {
                workload.addUnits(Workload.PLAIN, "u" + kill + "-", 400);
                FaultSuite.awaitProgress(ledger, workload, 150);
                workload.addTrees("t" + kill + "-", 2);
                workload.addUnits(Workload.REPLICATED, "r" + kill + "-", 3);
                // A large add in flight: the kill lands while the app applies or commits it.
                workload.addUnits(Workload.PLAIN, "bulk" + kill + "-", 5_000);
                Thread.sleep(ThreadLocalRandom.current().nextInt(100, 1_500));
                dev.kill();
                dev = AppJvm.startDev(port, dir, "fault-dev");
            }
            FaultSuite.assertAllFinishedOnce(ledger, workload, bootstrap, dev.httpPort());
            // Not a failure (the start-up check is there for them), but worth knowing when it happens: the log says
            // where and whose.
            try (Stream<String> lines = Files.lines(dev.log())) {
                LOG.info(
                        "hanging transactions aborted at restarts: {}",
                        lines.filter(l -> l.contains("aborting a hanging transaction"))
                                .count());
            }
        } finally {
            dev.close();
        }
    }
}
