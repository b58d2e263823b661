package io.coordinate.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.broker.EmbeddedKafkaBroker;
import io.coordinate.fault.EventLedger.UnitKey;
import io.coordinate.streams.topics.TopicBootstrapper;
import io.coordinate.streams.topics.TopicDefinitions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;

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
    Set<UnitKey> expected = workload.expected();
    ledger.awaitUntil("every unit finished", SETTLE, l -> {
      workload.check();
      return l.unfinished(expected).isEmpty();
    });
    assertThat(ledger.violations()).isEmpty();
    for (UnitKey key : expected) {
      EventLedger.Unit unit = ledger.unitOf(key);
      assertThat(unit.added).as("%s added", key).isEqualTo(1);
      assertThat(unit.finishedTransitions).as("%s finished", key).isEqualTo(1);
      if (key.spec().equals(Workload.REPLICATED)) {
        assertThat(unit.assimilated).as("%s assimilated", key).isEqualTo(1);
      } else {
        assertThat(unit.attemptsFinished).as("%s attempts finished", key).isEqualTo(1);
      }
    }
  }
}
