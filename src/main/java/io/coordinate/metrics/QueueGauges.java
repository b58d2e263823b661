package io.coordinate.metrics;

import io.coordinate.engine.state.StateReader;
import io.coordinate.engine.state.db.DbState;
import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.engine.state.model.AttemptStatus;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.engine.state.model.WorkSpecRecord;
import io.coordinate.engine.state.model.WorkerRecord;
import io.coordinate.engine.view.StateViews;
import io.coordinate.storage.ReadableKeyValueStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The queue's gauges, read from the stores of the namespaces this instance owns, as of now (as the summary route
 * counts): units by status and running attempts per spec, active workers per namespace, the oldest available unit's
 * age. They are read when {@code /metrics} is scraped (at most once per {@code minIntervalMillis}), on the scraping
 * thread: the stream thread never waits for them, an instance nobody scrapes reads nothing, and every scrape shows
 * the state of that moment. Series of specs and namespaces that went away (deleted, or moved to another instance)
 * go with the next read.
 */
public final class QueueGauges {

  private static final Logger LOG = LoggerFactory.getLogger(QueueGauges.class);

  static final String UNITS = "coordinate.units";
  static final String RUNNING_ATTEMPTS = "coordinate.running.attempts";
  static final String ACTIVE_WORKERS = "coordinate.active.workers";
  /** Published as {@code coordinate_oldest_available_age_seconds}. */
  static final String OLDEST_AVAILABLE_AGE = "coordinate.oldest.available.age";

  private static final UnitStatus[] STATUSES = UnitStatus.values();

  private final QueueMetrics metrics;
  private final Supplier<List<ReadableKeyValueStore>> stores;
  private final LongSupplier clock;
  private final long minIntervalMillis;
  private final MultiGauge units;
  private final MultiGauge running;
  private final MultiGauge workers;
  private final MultiGauge oldestAge;
  private long lastRead = Long.MIN_VALUE;

  /**
   * @param stores this instance's stores (the namespace locator's local stores)
   * @param clock epoch ms: the "now" of the counts
   * @param minIntervalMillis scrapes closer together than this show the last read again
   */
  public QueueGauges(MeterRegistry registry, QueueMetrics metrics, Supplier<List<ReadableKeyValueStore>> stores,
      LongSupplier clock, long minIntervalMillis) {
    this.metrics = metrics;
    this.stores = stores;
    this.clock = clock;
    this.minIntervalMillis = minIntervalMillis;
    units = MultiGauge.builder(UNITS).description("Units by status, as of the last scrape").register(registry);
    running = MultiGauge.builder(RUNNING_ATTEMPTS).description("Pending attempts not past their expiration")
        .register(registry);
    workers = MultiGauge.builder(ACTIVE_WORKERS).description("Active workers").register(registry);
    oldestAge = MultiGauge.builder(OLDEST_AVAILABLE_AGE).baseUnit("seconds")
        .description("How long the oldest available unit has waited").register(registry);
  }

  /** Reads the stores unless the last read is more recent than the minimum interval; for each scrape. */
  public synchronized void refreshIfDue() {
    long now = clock.getAsLong();
    if (lastRead != Long.MIN_VALUE && now - lastRead < minIntervalMillis && now >= lastRead) {
      return;
    }
    refresh(now);
  }

  /** Reads the stores now. */
  public synchronized void refresh() {
    refresh(clock.getAsLong());
  }

  private void refresh(long now) {
    lastRead = now;
    long refresh = metrics.beginRefresh();
    Map<SpecLabels.Labels, long[]> unitCounts = new LinkedHashMap<>();
    Map<SpecLabels.Labels, Long> runningAttempts = new LinkedHashMap<>();
    Map<SpecLabels.Labels, Long> oldestSince = new LinkedHashMap<>();
    Map<String, Long> activeWorkers = new LinkedHashMap<>();
    Map<String, Set<String>> present = new HashMap<>();
    try {
      for (ReadableKeyValueStore store : stores.get()) {
        StateReader state = DbState.reader(store);
        for (String ns : state.namespaces().list()) {
          StateViews views = new StateViews(state, ns, now);
          Map<String, Long> runningBySpec = new HashMap<>();
          long active = 0;
          for (WorkerRecord worker : state.workers().list(ns)) {
            if (worker.active()) {
              active++;
            }
            for (AttemptRecord attempt : state.attempts().activeOfWorker(ns, worker.name())) {
              if (views.attemptStatus(attempt) == AttemptStatus.PENDING) {
                runningBySpec.merge(attempt.spec(), 1L, Long::sum);
              }
            }
          }
          activeWorkers.merge(ns, active, Long::sum);
          Set<String> specs = present.computeIfAbsent(ns, k -> new HashSet<>());
          for (WorkSpecRecord spec : state.specs().list(ns)) {
            specs.add(spec.name());
            SpecLabels.Labels labels = metrics.meters(ns, spec.name()).labels;
            long[] counts = unitCounts.computeIfAbsent(labels, k -> new long[STATUSES.length]);
            views.counts(spec.name()).forEach((status, n) -> counts[status.ordinal()] += n);
            runningAttempts.merge(labels, runningBySpec.getOrDefault(spec.name(), 0L), Long::sum);
            Long since = state.units().oldestAvailableSince(ns, spec.name(), now);
            if (since != null) {
              oldestSince.merge(labels, since, Math::min);
            }
          }
        }
      }
    } catch (RuntimeException e) {
      // A store closed by a rebalance under the read: the last values stay until the next scrape.
      LOG.debug("could not read the stores for the queue gauges: {}", e.toString());
      return;
    }
    List<MultiGauge.Row<?>> unitRows = new ArrayList<>();
    unitCounts.forEach((labels, counts) -> {
      for (UnitStatus status : STATUSES) {
        unitRows.add(MultiGauge.Row.of(labels.tags().and("status", status.wireName()), counts[status.ordinal()]));
      }
    });
    units.register(unitRows, true);
    running.register(rows(runningAttempts, n -> n), true);
    oldestAge.register(rows(oldestSince, since -> Math.max(0, now - since) / 1000.0), true);
    List<MultiGauge.Row<?>> workerRows = new ArrayList<>();
    activeWorkers.forEach((ns, n) -> workerRows.add(MultiGauge.Row.of(Tags.of("namespace", ns), n)));
    workers.register(workerRows, true);
    metrics.retain(present, refresh);
  }

  private static List<MultiGauge.Row<?>> rows(Map<SpecLabels.Labels, Long> values,
      java.util.function.Function<Long, Number> value) {
    List<MultiGauge.Row<?>> rows = new ArrayList<>();
    values.forEach((labels, n) -> rows.add(MultiGauge.Row.of(labels.tags(), value.apply(n))));
    return rows;
  }
}
