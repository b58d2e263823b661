package io.coordinate.metrics;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.ChangeCounts;
import io.coordinate.engine.EngineResult;
import io.coordinate.protocol.CommandRejection;
import io.coordinate.protocol.CommandType;
import io.coordinate.protocol.ErrorCode;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.Times;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The queue's counters and histograms, fed by the stream processor ({@link CommandObserver}), and the throughput
 * window of each spec. Every meter is looked up once and kept: a command costs array reads, two map reads per spec it
 * touched and the meters' own updates, no allocation. Names and labels: docs/monitoring.md, "Metrics".
 */
public final class QueueMetrics implements CommandObserver {

    static final String COMMANDS = "coordinate.commands";
    static final String DEAD_LETTERS = "coordinate.dead.letters";
    static final String HANDLING = "coordinate.command.handling";
    static final String ASSIGNMENT = "coordinate.request.assignment";
    /** The counter of each kind of change, by {@link ChangeCounts.Kind} ordinal. */
    static final String[] CHANGE_COUNTERS = {
        "coordinate.units.added",
        "coordinate.units.finished",
        "coordinate.units.failed",
        "coordinate.units.retried",
        "coordinate.attempts.started",
        "coordinate.attempts.expired",
        "coordinate.replicas.validated",
        "coordinate.units.assimilated",
        "coordinate.attempts.failed",
        "coordinate.retries",
        "coordinate.retries.exhausted"
    };

    private static final String[] CHANGE_DESCRIPTIONS = {
        "Units created",
        "Units whose status became finished",
        "Units whose status became failed",
        "Attempts ended retryable (their unit waits to be tried again)",
        "Attempts started (handed to a worker)",
        "Attempts expired",
        "Replicas validated (valid or invalid)",
        "Replicated units assimilated",
        "Attempts failed, permanently or as retryable",
        "Retries a spec's retry policy scheduled",
        "Units failed because their spec's retry policy ran out of attempts"
    };
    /** The type label of records refused before they were read as a command. */
    static final String UNKNOWN_TYPE = "unknown";

    static final String OK = "ok";

    private static final CommandType[] TYPES = CommandType.values();
    private static final ErrorCode[] CODES = ErrorCode.values();
    private static final ChangeCounts.Kind[] KINDS = ChangeCounts.Kind.values();

    private static final Duration[] HANDLING_BUCKETS =
            millis(0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000);
    private static final Duration[] ASSIGNMENT_BUCKETS =
            millis(1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000, 30_000, 60_000);

    /**
     * The longest wait a {@code request_attempts} record's timestamp may show: the producer sets it, and an older one
     * (a producer's own timestamp, a clock far off) would be one sample of years in the histogram's sum for good.
     */
    static final long MAX_ASSIGNMENT_WAIT_MILLIS = 3_600_000;
    /** How far ahead of the app's clock that timestamp may be (two hosts' clocks a little apart): counted as no wait. */
    static final long MAX_CLOCK_AHEAD_MILLIS = 1_000;

    private final MeterRegistry registry;
    private final SpecLabels labels;
    /** Per namespace, per spec: nested so that a lookup builds no key. */
    private final Map<String, NamespaceMeters> meters = new ConcurrentHashMap<>();

    private final AtomicLong refreshes = new AtomicLong();
    /** [command type, or {@link #TYPES}.length for unknown][0 ok, 1 + error code ordinal]. */
    private final Counter[][] commands = new Counter[TYPES.length + 1][CODES.length + 1];

    private final Counter[] deadLetters = new Counter[CODES.length];
    private final Timer[] handling = new Timer[TYPES.length];
    private final Timer assignment;

    /** With the default cap of namespaces ({@link MetricsSettings#DEFAULT_MAX_NAMESPACES}). */
    public QueueMetrics(MeterRegistry registry, int maxSpecs) {
        this(registry, maxSpecs, MetricsSettings.DEFAULT_MAX_NAMESPACES);
    }

    /**
     * @param maxSpecs how many (namespace, spec) pairs get series of their own ({@link MetricsSettings})
     * @param maxNamespaces how many namespaces get series of their own
     */
    public QueueMetrics(MeterRegistry registry, int maxSpecs, int maxNamespaces) {
        this.registry = registry;
        this.labels = new SpecLabels(maxSpecs, maxNamespaces);
        this.assignment = Timer.builder(ASSIGNMENT)
                .description(
                        "From a request_attempts record's timestamp to the app handling it, for requests that got work"
                                + " (timestamps more than an hour old or a second ahead are skipped)")
                .serviceLevelObjectives(ASSIGNMENT_BUCKETS)
                .register(registry);
    }

    @Override
    public void command(CommandType type, EngineResult result, long recordTimestamp, long now, long handlingNanos) {
        handling(type).record(handlingNanos, TimeUnit.NANOSECONDS);
        CommandRejection rejection = result.rejection();
        commandCounter(type.ordinal(), rejection == null ? null : rejection.code())
                .increment();
        ChangeCounts counts = result.counts();
        if (!counts.isEmpty() && apply(counts, now) > 0 && type == CommandType.REQUEST_ATTEMPTS) {
            long wait = now - recordTimestamp;
            if (wait >= -MAX_CLOCK_AHEAD_MILLIS && wait <= MAX_ASSIGNMENT_WAIT_MILLIS) {
                assignment.record(Math.max(0, wait), TimeUnit.MILLISECONDS);
            }
        }
    }

    @Override
    public void refused(ErrorCode code) {
        commandCounter(TYPES.length, code).increment();
    }

    @Override
    public void deadLettered(ErrorCode code) {
        Counter counter = deadLetters[code.ordinal()];
        if (counter == null) {
            counter = Counter.builder(DEAD_LETTERS)
                    .description("Records copied to the dead-letter topic")
                    .tag("error_code", code.code())
                    .register(registry);
            deadLetters[code.ordinal()] = counter;
        }
        counter.increment();
    }

    @Override
    public void timeStep(EngineResult result, long now) {
        if (!result.counts().isEmpty()) {
            apply(result.counts(), now);
        }
    }

    /** Counts the changes; returns how many attempts were started. */
    private int apply(ChangeCounts counts, long now) {
        int started = 0;
        for (int i = 0; i < counts.size(); i++) {
            SpecMeters spec = meters(counts.namespace(i), counts.spec(i));
            for (ChangeCounts.Kind kind : KINDS) {
                int n = counts.count(i, kind);
                if (n != 0) {
                    spec.counters[kind.ordinal()].increment(n);
                }
            }
            int added = counts.count(i, ChangeCounts.Kind.UNIT_ADDED);
            int finished = counts.count(i, ChangeCounts.Kind.UNIT_FINISHED);
            int failed = counts.count(i, ChangeCounts.Kind.UNIT_FAILED);
            if (added + finished + failed != 0) {
                spec.window.add(now, added, finished, failed);
            }
            started += counts.count(i, ChangeCounts.Kind.ATTEMPT_STARTED);
        }
        return started;
    }

    private Timer handling(CommandType type) {
        Timer timer = handling[type.ordinal()];
        if (timer == null) {
            timer = Timer.builder(HANDLING)
                    .description("Time the engine took to handle a command, by type")
                    .tag("type", type.wireName())
                    .serviceLevelObjectives(HANDLING_BUCKETS)
                    .register(registry);
            handling[type.ordinal()] = timer; // a race registers nothing twice: the registry hands out the same timer
        }
        return timer;
    }

    private Counter commandCounter(int type, ErrorCode code) {
        int outcome = code == null ? 0 : 1 + code.ordinal();
        Counter counter = commands[type][outcome];
        if (counter == null) {
            counter = Counter.builder(COMMANDS)
                    .description("Commands handled, by type and outcome (ok or the error code)")
                    .tag("type", type == TYPES.length ? UNKNOWN_TYPE : TYPES[type].wireName())
                    .tag("outcome", code == null ? OK : code.code())
                    .register(registry);
            commands[type][outcome] = counter;
        }
        return counter;
    }

    /** The meters of a pair, made (and its counters registered at 0) the first time it is seen. */
    SpecMeters meters(String ns, String spec) {
        NamespaceMeters namespace = meters.get(ns);
        SpecMeters found = namespace == null ? null : namespace.specs.get(spec);
        if (found != null) {
            return found;
        }
        SpecMeters[] made = new SpecMeters[1];
        // in compute: atomic with retain's removal of the namespace, which would otherwise lose the new pair
        meters.compute(ns, (k, known) -> {
            NamespaceMeters in = known != null ? known : newNamespace(ns);
            made[0] = in.specs.computeIfAbsent(
                    spec, s -> new SpecMeters(labels.assign(ns, in.label, spec), refreshes.get()));
            return in;
        });
        return made[0];
    }

    /** The namespace's label, {@code _other} past the cap; held until the namespace goes from this instance. */
    String namespaceLabel(String ns) {
        NamespaceMeters found = meters.get(ns);
        return (found != null ? found : meters.computeIfAbsent(ns, this::newNamespace)).label;
    }

    private NamespaceMeters newNamespace(String ns) {
        return new NamespaceMeters(labels.assignNamespace(ns), refreshes.get());
    }

    /** Starts a refresh of the gauges: the pairs seen from now on are kept whatever that refresh finds. */
    long beginRefresh() {
        return refreshes.incrementAndGet();
    }

    /**
     * Drops the meters and the throughput of every pair seen before the refresh {@code refresh} began whose namespace
     * is not {@code listed} any more, or was {@code read} without the pair's spec: its spec or namespace went away, or
     * moved to another instance. A namespace listed but not read keeps its pairs. A namespace that is not listed and
     * holds no pair any more frees its label.
     */
    void retain(Set<String> listed, Map<String, Set<String>> read, long refresh) {
        for (Map.Entry<String, NamespaceMeters> ns : meters.entrySet()) {
            Set<String> specs = read.get(ns.getKey());
            if (specs == null && listed.contains(ns.getKey())) {
                continue;
            }
            for (Iterator<Map.Entry<String, SpecMeters>> it =
                            ns.getValue().specs.entrySet().iterator();
                    it.hasNext(); ) {
                Map.Entry<String, SpecMeters> spec = it.next();
                if ((specs == null || !specs.contains(spec.getKey())) && spec.getValue().seenAt < refresh) {
                    it.remove();
                    if (labels.release(ns.getKey(), spec.getKey(), spec.getValue().labels)) {
                        for (Counter counter : spec.getValue().counters) {
                            registry.remove(counter);
                        }
                    }
                }
            }
        }
        for (String ns : List.copyOf(meters.keySet())) {
            meters.computeIfPresent(ns, (k, namespace) -> {
                if (!namespace.specs.isEmpty() || listed.contains(ns) || namespace.seenAt >= refresh) {
                    return namespace;
                }
                labels.releaseNamespace(ns, namespace.label);
                return null;
            });
        }
    }

    /**
     * The throughput of each spec in {@code specs} over the last 15 minutes, as {@code GET
     * /api/namespaces/{ns}/throughput} answers it: {@code {"namespace", "bucket_seconds": 60, "buckets": 15, "end",
     * "work_specs": [{"name", "added": [15 counts, oldest first], "finished", "failed"}]}}; a spec this instance has
     * applied nothing to has zeros.
     */
    public ObjectNode throughput(String ns, List<String> specs, long now) {
        ObjectNode body = Json.object();
        body.put("namespace", ns);
        body.put("bucket_seconds", ThroughputWindow.BUCKET_MILLIS / 1000);
        body.put("buckets", ThroughputWindow.BUCKETS);
        body.put("end", Times.format(ThroughputWindow.end(now)));
        ArrayNode list = body.putArray("work_specs");
        NamespaceMeters namespace = meters.get(ns);
        Map<String, SpecMeters> known = namespace == null ? Map.of() : namespace.specs;
        for (String spec : specs) {
            SpecMeters found = known.get(spec);
            long[][] buckets = found == null ? new long[3][ThroughputWindow.BUCKETS] : found.window.snapshot(now);
            ObjectNode entry = list.addObject();
            entry.put("name", spec);
            String[] names = {"added", "finished", "failed"};
            for (int i = 0; i < names.length; i++) {
                ArrayNode values = entry.putArray(names[i]);
                for (long n : buckets[i]) {
                    values.add(n);
                }
            }
        }
        return body;
    }

    /** A namespace's label and its pairs' meters. */
    private static final class NamespaceMeters {
        final String label;
        final Map<String, SpecMeters> specs = new ConcurrentHashMap<>();
        /** The refresh under way (or last begun) when the namespace was first seen. */
        final long seenAt;

        NamespaceMeters(String label, long seenAt) {
            this.label = label;
            this.seenAt = seenAt;
        }
    }

    /** One pair's labels, counters (shared with the other pairs summed as {@code _other}) and throughput. */
    final class SpecMeters {
        final SpecLabels.Labels labels;
        final Counter[] counters = new Counter[KINDS.length];
        final ThroughputWindow window = new ThroughputWindow();
        /** The refresh under way (or last begun) when the pair was first seen. */
        final long seenAt;

        SpecMeters(SpecLabels.Labels labels, long seenAt) {
            this.labels = labels;
            this.seenAt = seenAt;
            for (ChangeCounts.Kind kind : KINDS) {
                counters[kind.ordinal()] = Counter.builder(CHANGE_COUNTERS[kind.ordinal()])
                        .description(CHANGE_DESCRIPTIONS[kind.ordinal()])
                        .tags(labels.tags())
                        .register(registry);
            }
        }
    }

    private static Duration[] millis(double... values) {
        Duration[] durations = new Duration[values.length];
        for (int i = 0; i < values.length; i++) {
            durations[i] = Duration.ofNanos(Math.round(values[i] * 1_000_000));
        }
        return durations;
    }
}
