package io.coordinate.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.broker.EmbeddedKafkaBroker;
import io.coordinate.streams.StoreNames;
import io.coordinate.testing.EventLedger;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kill -9 of the app under a load of requests and finishes keeps its local state: the restart restores only the
 * changelog's tail (what the last commits wrote), not the whole changelog, and goes on working. Before the app kept
 * its own stores, Kafka Streams found no checkpoint after a crash under exactly-once, wiped every store and restored
 * it from offset 0. Checked from the restore lines of the app's log and from the events ({@link EventLedger}).
 */
class KillKeepsStateIT {

    private static final Logger LOG = LoggerFactory.getLogger(KillKeepsStateIT.class);
    private static final String NS = "keep";
    /** "restoring coordinate-state from <changelog>-<partition> offsets <start> to <end>", as RestoreLog writes it. */
    private static final Pattern RESTORING =
            Pattern.compile("restoring " + Pattern.quote(StoreNames.STATE) + " from \\S+ offsets (\\d+) to (\\d+)$");

    // Kept when the test fails: the app's log (app.log) and the broker's data tell what happened.
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void aRestartAfterKillRestoresOnlyTheChangelogsTail() throws Exception {
        try (EmbeddedKafkaBroker broker = FaultSuite.broker(dir, 0)) {
            String bootstrap = broker.bootstrapServers();
            Path appDir = dir.resolve("app");
            AppJvm app = AppJvm.start(bootstrap, appDir, "fault-keep");
            try (EventLedger ledger = new EventLedger(bootstrap, Set.of(NS), Set.of(Workload.REPLICATED));
                    Workload workload = new Workload(bootstrap, NS).start()) {
                for (int batch = 0; batch < 15; batch++) {
                    workload.addUnits(Workload.PLAIN, "u" + batch + "-", 1_000);
                }
                for (int kill = 1; kill <= FaultSuite.KILLS; kill++) {
                    FaultSuite.awaitProgress(
                            ledger, workload, 1_000); // the kill lands while workers request and finish
                    app.kill();
                    long logBefore = Files.size(app.log());
                    app = AppJvm.start(bootstrap, appDir, "fault-keep");

                    long changelog = changelogEnd(bootstrap);
                    assertThat(changelog).as("the records' changelog").isGreaterThan(15_000);
                    assertThat(restoredOffsets(app.log(), logBefore))
                            .as("offsets restored after kill %d, of %s", kill, changelog)
                            .isLessThan(changelog / 20);
                    List<String> restart = linesAfter(app.log(), logBefore);
                    assertThat(restart).noneMatch(line -> line.contains("did not find checkpoint offsets"));
                    LOG.info(
                            "restart {}: restored {} offsets of {}; index rebuilds: {}",
                            kill,
                            restoredOffsets(app.log(), logBefore),
                            changelog,
                            restart.stream()
                                    .filter(l -> l.contains("rebuilt the indexes"))
                                    .toList());
                    FaultSuite.awaitProgress(ledger, workload, 500); // and it answers commands
                }
                FaultSuite.assertAllFinishedOnce(ledger, workload, bootstrap, app.httpPort());
            } finally {
                app.close();
            }
        }
    }

    /**
     * The offsets the app restored the records' store over, by its log after {@code from} bytes: a partition restored
     * from its start counts all its offsets; one whose offset the store kept, those after it.
     */
    private static long restoredOffsets(Path log, long from) throws IOException {
        long restored = 0;
        for (String line : linesAfter(log, from)) {
            Matcher m = RESTORING.matcher(line);
            if (m.find()) {
                restored += Long.parseLong(m.group(2)) - Long.parseLong(m.group(1));
            }
        }
        return restored;
    }

    /** The end offsets of the records' changelog, summed over its partitions. */
    private static long changelogEnd(String bootstrap) throws Exception {
        String topic = "coordinate-" + StoreNames.STATE + "-changelog";
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            admin.describeTopics(List.of(topic))
                    .allTopicNames()
                    .get()
                    .get(topic)
                    .partitions()
                    .forEach(p -> latest.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest()));
            return admin.listOffsets(latest).all().get().values().stream()
                    .mapToLong(o -> o.offset())
                    .sum();
        }
    }

    private static List<String> linesAfter(Path log, long from) throws IOException {
        byte[] all = Files.readAllBytes(log);
        return new String(all, (int) from, all.length - (int) from, StandardCharsets.UTF_8)
                .lines()
                .toList();
    }
}
