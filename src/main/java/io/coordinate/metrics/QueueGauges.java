package io.coordinate.metrics;

import io.coordinate.engine.state.StateReader;
import io.coordinate.engine.state.db.DbState;
import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.engine.state.model.AttemptStatus;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.engine.state.model.WorkSpecRecord;
import io.coordinate.engine.state.model.WorkerRecord;
import io.coordinate.engine.view.GroupView;
import io.coordinate.engine.view.RateLimitView;
import io.coordinate.engine.view.StateViews;
import io.coordinate.storage.ReadableKeyValueStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.Comparator;
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
 * age, the tokens of the specs' rate limits, their groups at their cap. They are read when {@code /metrics} is scraped (at most once per {@code minIntervalMillis}), on the scraping
 * thread: the stream thread never waits for them, an instance nobody scrapes reads nothing, and every scrape shows
 * the state of that moment. Series of specs and namespaces that went away (deleted, or moved to another instance)
 * go with the next read.
 *
 * <p>The namespaces past the cap ({@link SpecLabels}) are summed into the {@code _other} series; so that a read costs
 * the same whatever their number, each read takes {@code otherNamespacesPerRead} of them, those read longest ago
 * first, and the sums hold each one's last read.
 */
public final class QueueGauges {

    private static final Logger LOG = LoggerFactory.getLogger(QueueGauges.class);

    static final String UNITS = "coordinate.units";
    static final String RUNNING_ATTEMPTS = "coordinate.running.attempts";
    static final String ACTIVE_WORKERS = "coordinate.active.workers";
    /** Published as {@code coordinate_oldest_available_age_seconds}. */
    static final String OLDEST_AVAILABLE_AGE = "coordinate.oldest.available.age";
    /** Published as {@code coordinate_rate_limit_tokens}. */
    static final String RATE_LIMIT_TOKENS = "coordinate.rate.limit.tokens";
    /** Published as {@code coordinate_groups_at_cap}. */
    static final String GROUPS_AT_CAP = "coordinate.groups.at.cap";
    /** How many namespaces past the cap one read takes (docs/monitoring.md, "Metrics"). */
    public static final int OTHER_NAMESPACES_PER_READ = 500;

    private static final UnitStatus[] STATUSES = UnitStatus.values();

    private final QueueMetrics metrics;
    private final Supplier<List<ReadableKeyValueStore>> stores;
    private final LongSupplier clock;
    private final long minIntervalMillis;
    private final int otherNamespacesPerRead;
    private final MultiGauge units;
    private final MultiGauge running;
    private final MultiGauge workers;
    private final MultiGauge oldestAge;
    private final MultiGauge rateLimitTokens;
    private final MultiGauge groupsAtCap;
    private long lastRead = Long.MIN_VALUE;
    /** The last read of each namespace past the cap. */
    private Map<String, Totals> otherReads = new HashMap<>();

    /** With {@link #OTHER_NAMESPACES_PER_READ}. */
    public QueueGauges(
            MeterRegistry registry,
            QueueMetrics metrics,
            Supplier<List<ReadableKeyValueStore>> stores,
            LongSupplier clock,
            long minIntervalMillis) {
        this(registry, metrics, stores, clock, minIntervalMillis, OTHER_NAMESPACES_PER_READ);
    }

    /**
     * @param stores this instance's stores (the namespace locator's local stores)
     * @param clock epoch ms: the "now" of the counts
     * @param minIntervalMillis scrapes closer together than this show the last read again
     * @param otherNamespacesPerRead how many namespaces past the cap each read takes
     */
    public QueueGauges(
            MeterRegistry registry,
            QueueMetrics metrics,
            Supplier<List<ReadableKeyValueStore>> stores,
            LongSupplier clock,
            long minIntervalMillis,
            int otherNamespacesPerRead) {
        this.metrics = metrics;
        this.stores = stores;
        this.clock = clock;
        this.minIntervalMillis = minIntervalMillis;
        this.otherNamespacesPerRead = otherNamespacesPerRead;
        units = MultiGauge.builder(UNITS)
                .description("Units by status, as of the last scrape")
                .register(registry);
        running = MultiGauge.builder(RUNNING_ATTEMPTS)
                .description("Pending attempts not past their expiration")
                .register(registry);
        workers =
                MultiGauge.builder(ACTIVE_WORKERS).description("Active workers").register(registry);
        oldestAge = MultiGauge.builder(OLDEST_AVAILABLE_AGE)
                .baseUnit("seconds")
                .description("How long the oldest available unit has waited")
                .register(registry);
        rateLimitTokens = MultiGauge.builder(RATE_LIMIT_TOKENS)
                .description("Whole tokens of the spec's rate limit: attempts it may start now")
                .register(registry);
        groupsAtCap = MultiGauge.builder(GROUPS_AT_CAP)
                .description("Concurrency groups of the spec with group_max_running pending units")
                .register(registry);
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

    /** A namespace past the cap, to be read now or summed from its last read ({@code last}, null if never read). */
    private record Unlabelled(StateReader state, String ns, Totals last) {
        long lastReadAt() {
            return last == null ? Long.MIN_VALUE : last.readAt;
        }
    }

    private void refresh(long now) {
        lastRead = now;
        long refresh = metrics.beginRefresh();
        Map<SpecLabels.Labels, Totals> series = new LinkedHashMap<>();
        Map<String, Long> activeWorkers = new LinkedHashMap<>();
        Set<String> listed = new HashSet<>();
        Map<String, Set<String>> read = new HashMap<>();
        Map<String, Totals> others = new HashMap<>();
        try {
            List<Unlabelled> unlabelled = new ArrayList<>();
            for (ReadableKeyValueStore store : stores.get()) {
                StateReader state = DbState.reader(store);
                for (String ns : state.namespaces().list()) {
                    listed.add(ns);
                    if (metrics.namespaceLabel(ns).equals(SpecLabels.OTHER)) {
                        unlabelled.add(new Unlabelled(state, ns, otherReads.get(ns)));
                        continue;
                    }
                    Set<String> specs = new HashSet<>();
                    long active = read(state, ns, now, (spec, counts, runningNow, since, tokens, atCap) -> {
                        specs.add(spec);
                        series.computeIfAbsent(metrics.meters(ns, spec).labels, k -> new Totals())
                                .add(counts, runningNow, since, tokens, atCap);
                    });
                    read.put(ns, specs);
                    activeWorkers.merge(ns, active, Long::sum);
                }
            }
            unlabelled.sort(
                    Comparator.comparingLong(Unlabelled::lastReadAt)); // never read first, then the oldest reads
            for (int i = 0; i < unlabelled.size(); i++) {
                Unlabelled namespace = unlabelled.get(i);
                Totals totals = namespace.last();
                if (i < otherNamespacesPerRead) {
                    Set<String> specs = new HashSet<>();
                    Totals fresh = new Totals();
                    fresh.readAt = refresh;
                    fresh.workers = read(
                            namespace.state(),
                            namespace.ns(),
                            now,
                            (spec, counts, runningNow, since, tokens, atCap) -> {
                                specs.add(spec);
                                fresh.add(counts, runningNow, since, tokens, atCap);
                            });
                    read.put(namespace.ns(), specs);
                    totals = fresh;
                }
                if (totals != null) {
                    others.put(namespace.ns(), totals);
                }
            }
        } catch (RuntimeException e) {
            // A store closed by a rebalance under the read: the last values stay until the next scrape.
            LOG.debug("could not read the stores for the queue gauges: {}", e.toString());
            return;
        }
        otherReads = others;
        for (Totals totals : others.values()) {
            series.computeIfAbsent(SpecLabels.OTHER_NAMESPACES, k -> new Totals())
                    .add(totals);
            activeWorkers.merge(SpecLabels.OTHER, totals.workers, Long::sum);
        }
        register(series, activeWorkers, now);
        metrics.retain(listed, read, refresh);
    }

    /** What a read of a namespace gives for each of its specs. */
    @FunctionalInterface
    private interface SpecRead {
        /**
         * @param oldestSince when its oldest available unit became available; null when none is
         * @param tokens the whole tokens of its rate limit; null when it has none
         * @param groupsAtCap its groups at their {@code group_max_running}; null when it caps none
         */
        void spec(
                String name,
                Map<UnitStatus, Long> counts,
                long running,
                Long oldestSince,
                Long tokens,
                Long groupsAtCap);
    }

    /** Reads one namespace as of {@code now}: each spec to {@code specs}; returns its active workers. */
    private static long read(StateReader state, String ns, long now, SpecRead specs) {
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
        for (WorkSpecRecord spec : state.specs().list(ns)) {
            specs.spec(
                    spec.name(),
                    views.counts(spec.name()),
                    runningBySpec.getOrDefault(spec.name(), 0L),
                    state.units().oldestAvailableSince(ns, spec.name(), now),
                    spec.meta().rateLimit() == null
                            ? null
                            : RateLimitView.tokens(
                                    state.specs(), ns, spec.name(), spec.meta().rateLimit(), now),
                    GroupView.atCap(state.units(), ns, spec));
        }
        return active;
    }

    private void register(Map<SpecLabels.Labels, Totals> series, Map<String, Long> activeWorkers, long now) {
        List<MultiGauge.Row<?>> unitRows = new ArrayList<>();
        List<MultiGauge.Row<?>> runningRows = new ArrayList<>();
        List<MultiGauge.Row<?>> oldestRows = new ArrayList<>();
        List<MultiGauge.Row<?>> tokenRows = new ArrayList<>();
        List<MultiGauge.Row<?>> atCapRows = new ArrayList<>();
        series.forEach((labels, totals) -> {
            for (UnitStatus status : STATUSES) {
                unitRows.add(MultiGauge.Row.of(
                        labels.tags().and("status", status.wireName()), totals.units[status.ordinal()]));
            }
            runningRows.add(MultiGauge.Row.of(labels.tags(), totals.running));
            if (totals.oldestSince != Long.MAX_VALUE) {
                oldestRows.add(MultiGauge.Row.of(labels.tags(), Math.max(0, now - totals.oldestSince) / 1000.0));
            }
            if (totals.rateLimited) {
                tokenRows.add(MultiGauge.Row.of(labels.tags(), totals.tokens));
            }
            if (totals.groupCapped) {
                atCapRows.add(MultiGauge.Row.of(labels.tags(), totals.groupsAtCap));
            }
        });
        units.register(unitRows, true);
        running.register(runningRows, true);
        oldestAge.register(oldestRows, true);
        rateLimitTokens.register(tokenRows, true);
        groupsAtCap.register(atCapRows, true);
        List<MultiGauge.Row<?>> workerRows = new ArrayList<>();
        activeWorkers.forEach((ns, n) -> workerRows.add(MultiGauge.Row.of(Tags.of("namespace", ns), n)));
        workers.register(workerRows, true);
    }

    /** The sums of one series' specs; for a namespace past the cap, also its workers and when it was read. */
    private static final class Totals {
        final long[] units = new long[STATUSES.length];
        long running;
        /** The earliest time a unit became available (epoch ms); {@link Long#MAX_VALUE} when none is available. */
        long oldestSince = Long.MAX_VALUE;
        /** Whether a spec of the series has a rate limit, and the sum of their tokens. */
        boolean rateLimited;

        long tokens;
        /** Whether a spec of the series caps its groups, and the sum of their groups at the cap. */
        boolean groupCapped;

        long groupsAtCap;
        long workers;
        long readAt;

        void add(Map<UnitStatus, Long> counts, long runningNow, Long since, Long tokensNow, Long atCapNow) {
            counts.forEach((status, n) -> units[status.ordinal()] += n);
            running += runningNow;
            if (since != null) {
                oldestSince = Math.min(oldestSince, since);
            }
            if (tokensNow != null) {
                rateLimited = true;
                tokens += tokensNow;
            }
            if (atCapNow != null) {
                groupCapped = true;
                groupsAtCap += atCapNow;
            }
        }

        void add(Totals other) {
            for (int i = 0; i < units.length; i++) {
                units[i] += other.units[i];
            }
            running += other.running;
            oldestSince = Math.min(oldestSince, other.oldestSince);
            rateLimited |= other.rateLimited;
            tokens += other.tokens;
            groupCapped |= other.groupCapped;
            groupsAtCap += other.groupsAtCap;
        }
    }
}
