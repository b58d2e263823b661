package io.coordinate.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.broker.EmbeddedKafkaBroker;
import io.coordinate.testing.EventLedger;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The broker restarted under load, {@link FaultSuite#KILLS} times, while the app (in its own JVM) keeps running:
 * the app rides it out and the work comes out whole, as the events show.
 */
class BrokerRestartIT {

    private static final String NS = "broker";

    // Kept when the test fails: the app's log (app.log) and the broker's data tell what happened.
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void theAppRidesOutBrokerRestarts() throws Exception {
        EmbeddedKafkaBroker broker = FaultSuite.broker(dir, 0);
        int port = broker.port();
        String bootstrap = broker.bootstrapServers();
        AppJvm app = null;
        try {
            app = AppJvm.start(bootstrap, dir.resolve("app"), "fault-broker");
            try (EventLedger ledger = new EventLedger(bootstrap, Set.of(NS), Set.of(Workload.REPLICATED));
                    Workload workload = new Workload(bootstrap, NS).start()) {
                workload.addUnits(Workload.PLAIN, "u", 600);
                workload.addTrees("t", 5);
                workload.addUnits(Workload.REPLICATED, "r", 10);
                for (int restart = 1; restart <= FaultSuite.KILLS; restart++) {
                    // Fresh work each round, so the fault always lands under load.
                    workload.addUnits(Workload.PLAIN, "u" + restart + "-", 400);
                    FaultSuite.awaitProgress(ledger, workload, 150);
                    workload.addTrees("t" + restart + "-", 2);
                    workload.addUnits(Workload.REPLICATED, "r" + restart + "-", 3);
                    if (restart % 2 == 0) {
                        workload.addUnits(Workload.PLAIN, "bulk" + restart + "-", 3_000);
                    }
                    broker.close();
                    broker = EmbeddedKafkaBroker.start(dir.resolve("kafka"), port);
                }
                FaultSuite.assertAllFinishedOnce(ledger, workload);
                assertThat(app.isAlive()).as("the app is still running").isTrue();
            }
        } finally {
            if (app != null) {
                app.close();
            }
            broker.close();
        }
    }
}
