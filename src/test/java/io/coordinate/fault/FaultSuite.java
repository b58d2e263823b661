package io.coordinate.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.broker.EmbeddedKafkaBroker;
import io.coordinate.streams.topics.TopicBootstrapper;
import io.coordinate.streams.topics.TopicDefinitions;
import io.coordinate.testing.EventLedger;
import io.coordinate.testing.EventLedger.UnitKey;
import io.coordinate.testing.KafkaTestClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

/** What the fault tests share: how many faults a run injects, the broker, the final check. */
final class FaultSuite {

    /**
     * Faults per test and run: five CI runs then make at least 20 per scenario family. {@code -Dfault.kills=N} runs
     * more (or fewer) on demand.
     */
    static final int KILLS = Integer.getInteger("fault.kills", 4);
    /** How long the units of a workload may take to finish once the last fault is over. */
    static final Duration SETTLE = Duration.ofSeconds(120);

    private FaultSuite() {}

    /** A broker on {@code dataDir/kafka} (any free port unless given) with the app's topics. */
    static EmbeddedKafkaBroker broker(Path dataDir, int port) throws InterruptedException {
        EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(dataDir.resolve("kafka"), port);
        TopicBootstrapper.ensureTopics(broker.bootstrapServers(), "", TopicDefinitions.fromClasspath());
        return broker;
    }

    /** A TCP port free now, for a process that must keep its port across restarts. */
    static int freePort() {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Waits until {@code ledger} has seen {@code more} units more finished than now. */
    static void awaitProgress(EventLedger ledger, Workload workload, long more) {
        long target = ledger.finishedCount() + more;
        ledger.awaitUntil(more + " more units finished", SETTLE, l -> {
            workload.check();
            return l.finishedCount() >= target;
        });
    }

    /**
     * Every unit the workload added finishes, as the events say, and nothing the ledger watches was broken on the
     * way: nothing lost, nothing finished twice, no lease overlapped, no command applied twice.
     */
    static void assertAllFinishedOnce(EventLedger ledger, Workload workload) {
        assertAllFinishedOnce(ledger, workload, null, 0);
    }

    /**
     * As {@link #assertAllFinishedOnce(EventLedger, Workload)}; a timeout also tells which partitions are held back
     * and what the app (HTTP on {@code httpPort}) says of the first units that did not finish.
     */
    static void assertAllFinishedOnce(EventLedger ledger, Workload workload, String bootstrapServers, int httpPort) {
        Set<UnitKey> expected = workload.expected();
        try {
            ledger.awaitUntil("every unit finished", SETTLE, l -> {
                workload.check();
                return l.unfinished(expected).isEmpty();
            });
        } catch (AssertionError e) {
            if (bootstrapServers != null) {
                e.addSuppressed(
                        new AssertionError("partitions held back by open transactions: " + heldBack(bootstrapServers)));
                try (KafkaTestClient http = new KafkaTestClient(bootstrapServers, httpPort)) {
                    StringBuilder views = new StringBuilder("the app's view:");
                    for (UnitKey key :
                            ledger.unfinished(expected).stream().limit(3).toList()) {
                        String spec = "/api/namespaces/" + key.namespace() + "/work-specs/" + key.spec();
                        views.append("\n  ")
                                .append(spec)
                                .append(" -> ")
                                .append(http.get(spec).body());
                        views.append("\n  ")
                                .append(key.unit())
                                .append(" -> ")
                                .append(http.get(spec + "/work-units/" + KafkaTestClient.encode(key.unit()))
                                        .body());
                    }
                    views.append("\n  workers sent ")
                            .append(workload.requestsSent())
                            .append(" requests, ")
                            .append(workload.assignmentsReceived())
                            .append(" assignments received");
                    e.addSuppressed(new AssertionError(views.toString()));
                } catch (RuntimeException diagnosis) {
                    e.addSuppressed(diagnosis);
                }
            }
            throw e;
        }
        assertThat(ledger.violations()).isEmpty();
        for (UnitKey key : expected) {
            EventLedger.Unit unit = ledger.unitOf(key);
            assertThat(unit.added).as("%s added", key).isEqualTo(1);
            assertThat(unit.finishedTransitions).as("%s finished", key).isEqualTo(1);
            if (key.spec().equals(Workload.REPLICATED)) {
                assertThat(unit.assimilated).as("%s assimilated", key).isEqualTo(1);
            } else {
                assertThat(unit.attemptsFinished)
                        .as("%s attempts finished", key)
                        .isEqualTo(1);
            }
        }
    }

    /** Every partition whose read_committed end is below its end, with the producers holding it open. */
    static String heldBack(String bootstrapServers) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            List<TopicPartition> partitions = new ArrayList<>();
            admin.describeTopics(admin.listTopics().names().get())
                    .allTopicNames()
                    .get()
                    .values()
                    .forEach(d ->
                            d.partitions().forEach(p -> partitions.add(new TopicPartition(d.name(), p.partition()))));
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            partitions.forEach(p -> latest.put(p, OffsetSpec.latest()));
            var stable = admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
                    .all()
                    .get();
            var end = admin.listOffsets(latest).all().get();
            StringBuilder out = new StringBuilder();
            for (TopicPartition p : partitions) {
                if (stable.get(p).offset() < end.get(p).offset()) {
                    out.append("\n  ")
                            .append(p)
                            .append(": last stable ")
                            .append(stable.get(p).offset())
                            .append(", end ")
                            .append(end.get(p).offset())
                            .append(", producers ")
                            .append(admin.describeProducers(List.of(p))
                                    .partitionResult(p)
                                    .get()
                                    .activeProducers());
                }
            }
            var transactions = admin.listTransactions().all().get();
            out.append("\n  transactions: ").append(transactions);
            return out.toString();
        } catch (Exception e) {
            return "(cannot tell: " + e + ")";
        }
    }
}
