package io.coordinate.fault;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.broker.EmbeddedKafkaBroker;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.TopicNames;
import io.coordinate.testing.EventLedger;
import io.coordinate.testing.KafkaTestClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Two instances share the partitions; one is killed with kill -9 and the other serves every namespace again
 * within 30 s of the kill (static membership, a 10 s session, standby replicas); the killed one is restarted and
 * rejoins, and the next kill takes the other one. A workload runs throughout and must come out whole.
 */
class FailoverIT {

    private static final String NS = "failover";
    /** Spread over the 6 partitions of coordinate.commands: some are on the killed instance whichever it is. */
    private static final List<String> PROBES =
            IntStream.range(0, 12).mapToObj(i -> "probe-" + i).toList();

    private static final Duration TAKEOVER = Duration.ofSeconds(30);
    private static final Logger LOG = LoggerFactory.getLogger(FailoverIT.class);

    // Kept when the test fails: the app's log (app.log) and the broker's data tell what happened.
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void theSurvivorServesEveryNamespaceWithin30Seconds() throws Exception {
        try (EmbeddedKafkaBroker broker = FaultSuite.broker(dir, 0)) {
            String bootstrap = broker.bootstrapServers();
            String[] ids = {"fault-a", "fault-b"};
            AppJvm[] apps = {
                AppJvm.start(bootstrap, dir.resolve(ids[0]), ids[0]),
                AppJvm.start(bootstrap, dir.resolve(ids[1]), ids[1])
            };
            Set<String> namespaces = new HashSet<>(PROBES);
            namespaces.add(NS);
            try (EventLedger ledger = new EventLedger(bootstrap, namespaces, Set.of(Workload.REPLICATED));
                    Workload workload = new Workload(bootstrap, NS).start();
                    KafkaTestClient client = new KafkaTestClient(bootstrap, apps[0].httpPort())) {
                workload.addUnits(Workload.PLAIN, "u", 600);
                workload.addTrees("t", 5);
                workload.addUnits(Workload.REPLICATED, "r", 10);
                probe(client, ledger, Duration.ofSeconds(120)); // both serve
                for (int kill = 0; kill < FaultSuite.KILLS; kill++) {
                    int victim = kill % 2;
                    // Fresh work each round, so the fault always lands under load.
                    workload.addUnits(Workload.PLAIN, "u" + kill + "-", 400);
                    FaultSuite.awaitProgress(ledger, workload, 150);
                    workload.addTrees("t" + kill + "-", 2);
                    workload.addUnits(Workload.REPLICATED, "r" + kill + "-", 3);
                    apps[victim].kill();
                    // Timed from the kill: every namespace, those of the dead instance included, answers again.
                    probe(client, ledger, TAKEOVER);
                    apps[victim] = AppJvm.start(bootstrap, dir.resolve(ids[victim]), ids[victim]);
                }
                FaultSuite.assertAllFinishedOnce(ledger, workload);
            } finally {
                for (AppJvm app : apps) {
                    app.close();
                }
            }
        }
    }

    /** A heartbeat to every probe namespace; waits until each has a new event batch, at most {@code timeout}. */
    private static void probe(KafkaTestClient client, EventLedger ledger, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        ledger.awaitUntil("the events read so far", timeout, l -> true);
        Map<String, Long> before = new HashMap<>();
        PROBES.forEach(ns -> before.put(ns, ledger.batches(ns)));
        for (String ns : PROBES) {
            ObjectNode heartbeat = Json.object()
                    .put("command", "worker_heartbeat")
                    .put("namespace", ns)
                    .put("worker", "prober");
            client.send(TopicNames.unprefixed().commands(), ns, heartbeat.toString());
        }
        ledger.awaitUntil(
                "an event batch of every probe namespace",
                Duration.ofNanos(Math.max(0, deadline - System.nanoTime())),
                l -> PROBES.stream().allMatch(ns -> l.batches(ns) > before.get(ns)));
        assertThat(PROBES).allMatch(ns -> ledger.batches(ns) > before.get(ns));
        LOG.info(
                "every probe namespace served {} ms after the probes were sent",
                (System.nanoTime() - (deadline - timeout.toNanos())) / 1_000_000);
    }
}
