package io.coordinate.bench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.protocol.Json;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The figures of one {@code coordinate bench} run: the table it prints and the {@code RESULT {json}} line it ends
 * with (the same JSON is written under {@code bench/results/}). Pure: it only formats what the phases measured. A
 * phase that was not run leaves its figures {@code null}.
 *
 * <p>The top-level keys are the headline figures, flat so that the history of {@code bench/results/*.json} is easy
 * to compare; {@code details} holds everything else.
 */
public final class BenchReport {

    /**
     * How the run was set up; part of the JSON so that figures are never read without their conditions. {@code units}
     * is the least count of a measured run, which lasts at least {@code minWindowSeconds} ({@link PhaseWindow}).
     */
    public record Config(
            String time,
            String gitCommit,
            Boolean gitDirty,
            String broker,
            int units,
            double minWindowSeconds,
            int workers,
            int batch,
            int inflight,
            int shareConsumers,
            long commitIntervalMs,
            String processingGuarantee,
            int cores,
            String javaVersion,
            List<String> jvmOptions,
            double loadAverage) {}

    /** (a) the pass-through Kafka Streams topology. */
    public record Baseline(long records, double seconds, double startupSeconds, double otherCpuCores) {
        public double recordsPerSecond() {
            return records / seconds;
        }
    }

    /** (b) the share group. {@code seconds} counts from the first record received (the group join excluded). */
    public record Share(long records, double seconds, double joinSeconds, int consumers, double otherCpuCores) {
        public double recordsPerSecond() {
            return records / seconds;
        }
    }

    /**
     * (c) the lifecycle: the add phase, then the workers until every unit is finished. {@code requestP50Ms} is the
     * median round trip of a request under this load and {@code unitsInFlight} = workers × batch × inflight. In this
     * closed loop units/s ≈ units in flight / round trip (Little's law): when the app is the limit, more in flight
     * only lengthens the round trip; when the round trip stays near its floor (about the commit interval), the
     * workers are the limit ({@link BenchReport#clientBound()}).
     */
    public record Lifecycle(
            long units,
            double addSeconds,
            double workSeconds,
            long requests,
            long finishErrors,
            double cpuCores,
            double otherCpuCores,
            double requestP50Ms,
            long unitsInFlight,
            double[] tenthRates,
            StreamThreadMeter.Reading streamThread) {
        public double addUnitsPerSecond() {
            return units / addSeconds;
        }

        /** Completed units/s while the workers burn the queue down (the add phase is before). */
        public double unitsPerSecond() {
            return units / workSeconds;
        }

        /** Units/s over add + work: what one unit costs end to end. */
        public double endToEndUnitsPerSecond() {
            return units / (addSeconds + workSeconds);
        }
    }

    /**
     * (d) latency under a rate-limited load; a request's round trip also in two parts, on the wall clock in whole
     * milliseconds: until the app processed it, and from then until the worker read its assignment. {@code jitCores}:
     * the JIT compilers during the load, which take the cores from the threads being measured.
     */
    public record Latency(
            double targetUnitsPerSecond,
            double achievedUnitsPerSecond,
            double seconds,
            int inflight,
            LatencyRecorder.Summary request,
            LatencyRecorder.Summary requestToProcessed,
            LatencyRecorder.Summary processedToSeen,
            LatencyRecorder.Summary addToAttempt,
            double otherCpuCores,
            StreamThreadMeter.Reading streamThread,
            double jitCores) {}

    /**
     * (e) memory and disk after the lifecycle load. The RSS is this whole bench JVM's (the app, the load generator
     * and, with the embedded broker, the broker): an upper bound of the app's; (f) measures the app alone.
     */
    public record Resources(
            long rssBytes,
            long rssPeakBytes,
            boolean rssIncludesBroker,
            long storedUnits,
            long stateDirBytes,
            long changelogBytes,
            long eventsBytes) {
        public double perMillionUnits(long bytes) {
            return storedUnits == 0 ? Double.NaN : bytes * 1e6 / storedUnits;
        }
    }

    /** (e) request cost by spec size, the engine on RocksDB. */
    public record ScaleFigure(int units, double addUnitsPerSecond, double request1Micros, double request100Micros) {}

    /**
     * (f) the app alone in a child JVM ({@code -Xmx heapMax}) after {@code units} units were added to it: its RSS
     * ({@code VmRSS}, anonymous and file-backed parts), the heap and non-heap memory its JVM had committed (-1 when
     * unknown) and its state dir then, its peak RSS ({@code VmHWM}) over the whole phase, the RSS when each tenth of
     * the adds was answered, and the round trips of request_attempts (count 100) and of finish_attempts at that size.
     */
    public record Memory(
            long units,
            int batch,
            String heapMax,
            double addSeconds,
            long rssBytes,
            long rssPeakBytes,
            long rssAnonBytes,
            long rssFileBytes,
            long heapCommittedBytes,
            long nonHeapCommittedBytes,
            long stateDirBytes,
            long rocksDbCacheBytes,
            long[] rssByTenth,
            LatencyRecorder.Summary request,
            LatencyRecorder.Summary finish,
            double appCpuCores,
            double otherCpuCores) {
        public double addUnitsPerSecond() {
            return units / addSeconds;
        }
    }

    /**
     * (f) the same app killed with SIGKILL under a load of adds, requests and finishes, then started again on its data
     * dir: seconds from the start to its READY line and to the reply to a command sent while it was down; the changelog
     * records it restored (and the longest restore of a partition), the units whose indexes it rebuilt (and how long
     * the rebuilds took, summed).
     */
    public record Restart(
            double readySeconds,
            double firstReplySeconds,
            long restoredRecords,
            double restoreSeconds,
            long rebuiltUnits,
            double rebuildSeconds) {}

    /**
     * (g2) the lifecycle's units worked by {@code workers} conformance runner processes of a language client (no-op
     * handlers, {@code concurrency} each), from the first runner's worker start until every unit was finished.
     */
    public record LanguageRun(long units, double workSeconds, int workers, int concurrency) {
        public double unitsPerSecond() {
            return units / workSeconds;
        }
    }

    /**
     * (g) the lifecycle's units worked by {@code workers} {@link io.coordinate.client.Worker}s of the Java library
     * ({@code concurrency} no-op handlers and {@code prefetch} queued attempts each), from the first worker's start until
     * the sum of their finished units reached {@code units}; {@code requests}: their request_attempts; {@code idle}: one
     * worker on a spec without units.
     */
    public record Sdk(
            long units,
            double addSeconds,
            double workSeconds,
            int workers,
            int concurrency,
            int prefetch,
            long requests,
            double cpuCores,
            double otherCpuCores,
            StreamThreadMeter.Reading streamThread) {
        public double unitsPerSecond() {
            return units / workSeconds;
        }

        /** Attempts per request_attempts on average: at most concurrency + prefetch. */
        public double unitsPerRequest() {
            return (double) units / requests;
        }
    }

    /** (g) one worker alone on a spec without units for {@code seconds}: the request_attempts it sent. */
    public record Idle(double seconds, long requests) {
        public double requestsPerSecond() {
            return requests / seconds;
        }
    }

    /** The issue's target for the worker library: its units/s at least 0.7 of the raw batched lifecycle's. */
    public static final double SDK_RATIO_TARGET = 0.7;
    /** The issue's target for workers at the defaults with 1 ms handlers: at least this of the tuned sdk phase's. */
    public static final double SDK_DEFAULT_RATIO_TARGET = 0.5;
    /** The issue's target for an idle worker: fewer request_attempts per second than this. */
    public static final double SDK_IDLE_REQUESTS_TARGET = 20;

    /** The issue's memory target: 1 GiB of RSS, judged only once 10M units are stored. */
    public static final long RSS_TARGET_BYTES = 1L << 30;

    public static final long RSS_TARGET_UNITS = 10_000_000;

    private final Config config;
    private Baseline baseline;
    private double[] baselineRates;
    private double[] lifecycleRates;
    /** Each measured run's window in seconds, in run order, as the rates. */
    private double[] baselineWindows;

    private double[] lifecycleWindows;
    private Warmup baselineWarmup;
    private Warmup lifecycleWarmup;
    private Share share;
    private Lifecycle lifecycle;
    private Latency latency;
    private Latency latencyAtHalfBurnDown;
    private int latencyWarmupRuns;
    private Resources resources;
    private List<ScaleFigure> scale = List.of();
    private Memory memory;
    private Restart restart;
    private Sdk sdk;
    private double[] sdkRates;
    private double[] sdkWindows;
    private Warmup sdkWarmup;
    private Idle sdkIdle;
    private Sdk sdkDefault;
    private double[] sdkDefaultRates;
    private double[] sdkDefaultWindows;
    private Warmup sdkDefaultWarmup;
    /** Per language client (python, node): the median run, and each run's units/s. */
    private final Map<String, LanguageRun> languages = new LinkedHashMap<>();

    private final Map<String, double[]> languageRates = new LinkedHashMap<>();

    public BenchReport(Config config) {
        this.config = config;
    }

    /** The warm-up runs before a phase's measured runs, and the JIT compilers' cores during each measured run. */
    public record Warmup(int runs, double[] jitCoresOfEachRun) {}

    /** Several measured runs of the baseline: the median one is the figure, all rates go to the details. */
    public BenchReport baselineRuns(List<Baseline> runs, Warmup warmup) {
        baselineRates = runs.stream().mapToDouble(Baseline::recordsPerSecond).toArray();
        baselineWindows = runs.stream().mapToDouble(Baseline::seconds).toArray();
        baselineWarmup = warmup;
        return baseline(median(runs, Baseline::recordsPerSecond));
    }

    /** Several measured runs of the lifecycle: the median one is the figure, all rates go to the details. */
    public BenchReport lifecycleRuns(List<Lifecycle> runs, Warmup warmup) {
        lifecycleRates = runs.stream().mapToDouble(Lifecycle::unitsPerSecond).toArray();
        lifecycleWindows = runs.stream().mapToDouble(Lifecycle::workSeconds).toArray();
        lifecycleWarmup = warmup;
        return lifecycle(median(runs, Lifecycle::unitsPerSecond));
    }

    /** The run in the middle by rate (the lower middle of an even number). */
    private static <T> T median(List<T> runs, ToDoubleFunction<T> rate) {
        List<T> sorted = new ArrayList<>(runs);
        sorted.sort(Comparator.comparingDouble(rate));
        return sorted.get((sorted.size() - 1) / 2);
    }

    public Lifecycle lifecycle() {
        return lifecycle;
    }

    public BenchReport baseline(Baseline value) {
        this.baseline = value;
        return this;
    }

    public BenchReport share(Share value) {
        this.share = value;
        return this;
    }

    public BenchReport lifecycle(Lifecycle value) {
        this.lifecycle = value;
        return this;
    }

    public BenchReport latency(Latency value, int warmupRuns) {
        this.latency = value;
        this.latencyWarmupRuns = warmupRuns;
        return this;
    }

    /**
     * The latency load again at half the burn-down rate (c's units/s), for comparison with the runs before the
     * latency load became half the end-to-end rate; not judged: adds are not in the burn-down, so it is more than
     * half the app's load.
     */
    public BenchReport latencyAtHalfBurnDown(Latency value) {
        this.latencyAtHalfBurnDown = value;
        return this;
    }

    public BenchReport resources(Resources value) {
        this.resources = value;
        return this;
    }

    public BenchReport restart(Restart value) {
        this.restart = value;
        return this;
    }

    public BenchReport memory(Memory value) {
        this.memory = value;
        return this;
    }

    /**
     * The measured runs of the sdk phase (each after the lifecycle run of the same number), the median one being the
     * figure, and the idle worker measured after them.
     */
    public BenchReport sdkRuns(List<Sdk> runs, Warmup warmup, Idle idle) {
        sdkRates = runs.stream().mapToDouble(Sdk::unitsPerSecond).toArray();
        sdkWindows = runs.stream().mapToDouble(Sdk::workSeconds).toArray();
        sdkWarmup = warmup;
        sdkIdle = idle;
        this.sdk = median(runs, Sdk::unitsPerSecond);
        return this;
    }

    /** The measured runs of the sdk_default phase (each after the sdk run of the same number): the median is the figure. */
    public BenchReport sdkDefaultRuns(List<Sdk> runs, Warmup warmup) {
        sdkDefaultRates = runs.stream().mapToDouble(Sdk::unitsPerSecond).toArray();
        sdkDefaultWindows = runs.stream().mapToDouble(Sdk::workSeconds).toArray();
        sdkDefaultWarmup = warmup;
        this.sdkDefault = median(runs, Sdk::unitsPerSecond);
        return this;
    }

    /** The measured runs of a language client's phase ({@code python}, {@code node}); the median one is the figure. */
    public BenchReport languageRuns(String language, List<LanguageRun> runs) {
        languageRates.put(
                language, runs.stream().mapToDouble(LanguageRun::unitsPerSecond).toArray());
        languages.put(language, median(runs, LanguageRun::unitsPerSecond));
        return this;
    }

    /** A language client's units/s over the median lifecycle run's, or NaN when either is missing. */
    public double languageRatio(String language) {
        LanguageRun run = languages.get(language);
        return run == null || lifecycle == null ? Double.NaN : run.unitsPerSecond() / lifecycle.unitsPerSecond();
    }

    public BenchReport scale(List<ScaleFigure> value) {
        this.scale = List.copyOf(value);
        return this;
    }

    public Config config() {
        return config;
    }

    /** units_per_s / baseline_records_per_s, or NaN when either is missing. */
    public double ratio() {
        return lifecycle == null || baseline == null
                ? Double.NaN
                : lifecycle.unitsPerSecond() / baseline.recordsPerSecond();
    }

    /** sdk units/s over the lifecycle's units/s of the same run, or NaN when either is missing. */
    public double sdkRatio() {
        return sdk == null || lifecycle == null ? Double.NaN : sdk.unitsPerSecond() / lifecycle.unitsPerSecond();
    }

    /** sdk_default units/s over the tuned sdk phase's units/s of the same run, or NaN when either is missing. */
    public double sdkDefaultRatio() {
        return sdkDefault == null || sdk == null ? Double.NaN : sdkDefault.unitsPerSecond() / sdk.unitsPerSecond();
    }

    /**
     * True when the lifecycle's request round trip stayed under twice the commit interval, i.e. near its floor: the
     * app was not queueing requests, so the load generator, not the app, limited units/s.
     */
    public boolean clientBound() {
        return lifecycle != null && lifecycle.requestP50Ms() < 2.0 * config.commitIntervalMs();
    }

    /** The cost of request_attempts (count 1) at the largest measured size over the smallest. */
    public double scaleRatio1() {
        return scale.size() < 2
                ? Double.NaN
                : scale.get(scale.size() - 1).request1Micros() / scale.get(0).request1Micros();
    }

    public double scaleRatio100() {
        return scale.size() < 2
                ? Double.NaN
                : scale.get(scale.size() - 1).request100Micros() / scale.get(0).request100Micros();
    }

    public ObjectNode toJson() {
        ObjectNode json = Json.object();
        json.put("time", config.time());
        json.put("git_commit", config.gitCommit());
        if (config.gitDirty() == null) {
            json.putNull("git_dirty");
        } else {
            json.put("git_dirty", config.gitDirty());
        }
        ObjectNode cfg = json.putObject("config");
        cfg.put("broker", config.broker());
        cfg.put("units", config.units());
        cfg.put("min_window_s", config.minWindowSeconds());
        cfg.put("workers", config.workers());
        cfg.put("batch", config.batch());
        cfg.put("inflight", config.inflight());
        cfg.put("share_consumers", config.shareConsumers());
        cfg.put("commit_interval_ms", config.commitIntervalMs());
        cfg.put("processing_guarantee", config.processingGuarantee());
        cfg.put("cores", config.cores());
        cfg.put("java", config.javaVersion());
        config.jvmOptions().forEach(cfg.putArray("jvm_options")::add);
        put(cfg, "load_average_at_start", config.loadAverage(), 2);

        // Each rate with the window it was taken over: the median run's, in seconds.
        put(json, "units_per_s", lifecycle == null ? null : lifecycle.unitsPerSecond(), 1);
        put(json, "lifecycle_window_s", lifecycle == null ? null : lifecycle.workSeconds(), 2);
        put(json, "baseline_records_per_s", baseline == null ? null : baseline.recordsPerSecond(), 1);
        put(json, "baseline_window_s", baseline == null ? null : baseline.seconds(), 2);
        put(json, "ratio", ratio(), 3);
        put(json, "share_group_records_per_s", share == null ? null : share.recordsPerSecond(), 1);
        put(json, "share_group_window_s", share == null ? null : share.seconds(), 2);
        put(
                json,
                "share_group_ratio",
                share == null || lifecycle == null ? null : lifecycle.unitsPerSecond() / share.recordsPerSecond(),
                3);
        put(json, "add_units_per_s", lifecycle == null ? null : lifecycle.addUnitsPerSecond(), 1);
        put(json, "end_to_end_units_per_s", lifecycle == null ? null : lifecycle.endToEndUnitsPerSecond(), 1);
        put(json, "request_p50_ms", latency == null ? null : latency.request().p50Ms(), 2);
        put(json, "request_p99_ms", latency == null ? null : latency.request().p99Ms(), 2);
        put(
                json,
                "add_to_attempt_p50_ms",
                latency == null ? null : latency.addToAttempt().p50Ms(),
                2);
        put(
                json,
                "add_to_attempt_p99_ms",
                latency == null ? null : latency.addToAttempt().p99Ms(),
                2);
        put(json, "latency_load_units_per_s", latency == null ? null : latency.achievedUnitsPerSecond(), 1);
        ArrayNode sizes = json.putArray("scale");
        for (ScaleFigure figure : scale) {
            ObjectNode item = sizes.addObject();
            item.put("units", figure.units());
            put(item, "request1_us", figure.request1Micros(), 1);
            put(item, "request100_us", figure.request100Micros(), 1);
            put(item, "add_units_per_s", figure.addUnitsPerSecond(), 0);
        }
        put(json, "scale_request1_ratio", scaleRatio1(), 2);
        put(json, "scale_request100_ratio", scaleRatio100(), 2);
        put(json, "rss_mib", resources == null ? null : resources.rssBytes() / 1048576.0, 1);
        put(json, "rss_peak_mib", resources == null ? null : resources.rssPeakBytes() / 1048576.0, 1);
        put(
                json,
                "state_dir_mib_per_million_units",
                resources == null ? null : resources.perMillionUnits(resources.stateDirBytes()) / 1048576.0,
                1);
        put(
                json,
                "changelog_mib_per_million_units",
                resources == null ? null : resources.perMillionUnits(resources.changelogBytes()) / 1048576.0,
                1);
        put(json, "app_rss_mib", memory == null ? null : memory.rssBytes() / 1048576.0, 1);
        put(json, "app_rss_peak_mib", memory == null ? null : memory.rssPeakBytes() / 1048576.0, 1);
        if (memory == null) {
            json.putNull("app_memory_units");
            json.putNull("app_heap_max");
        } else {
            json.put("app_memory_units", memory.units());
            json.put("app_heap_max", memory.heapMax());
        }
        put(json, "app_add_units_per_s", memory == null ? null : memory.addUnitsPerSecond(), 1);
        put(json, "app_state_dir_mib", memory == null ? null : memory.stateDirBytes() / 1048576.0, 1);
        put(json, "app_request_p50_ms", memory == null ? null : memory.request().p50Ms(), 2);
        put(json, "sdk_units_per_s", sdk == null ? null : sdk.unitsPerSecond(), 1);
        put(json, "sdk_window_s", sdk == null ? null : sdk.workSeconds(), 2);
        put(json, "sdk_ratio", sdkRatio(), 3);
        putInt(json, "sdk_workers", sdk == null ? null : (long) sdk.workers());
        putInt(json, "sdk_concurrency", sdk == null ? null : (long) sdk.concurrency());
        putInt(json, "sdk_prefetch", sdk == null ? null : (long) sdk.prefetch());
        putInt(json, "sdk_requests", sdk == null ? null : sdk.requests());
        put(json, "sdk_idle_requests_per_s", sdkIdle == null ? null : sdkIdle.requestsPerSecond(), 2);
        put(json, "sdk_default_units_per_s", sdkDefault == null ? null : sdkDefault.unitsPerSecond(), 1);
        put(json, "sdk_default_window_s", sdkDefault == null ? null : sdkDefault.workSeconds(), 2);
        put(json, "sdk_default_ratio", sdkDefaultRatio(), 3);
        for (String language : List.of(BenchRun.PYTHON, BenchRun.NODE)) {
            LanguageRun run = languages.get(language);
            put(json, language + "_units_per_s", run == null ? null : run.unitsPerSecond(), 1);
            put(json, language + "_window_s", run == null ? null : run.workSeconds(), 2);
            put(json, language + "_ratio", languageRatio(language), 3);
        }
        put(json, "other_processes_cpu_cores_max", otherCpuCoresMax(), 2);
        json.set("targets", targets());
        json.set("details", details());
        return json;
    }

    /**
     * The most CPU other processes took during any phase, in cores: above ~0.2 on this 2-core machine the figures
     * of that run are not comparable with a quiet one.
     */
    public double otherCpuCoresMax() {
        double max = Double.NaN;
        for (double v : new double[] {
            baseline == null ? Double.NaN : baseline.otherCpuCores(),
            share == null ? Double.NaN : share.otherCpuCores(),
            lifecycle == null ? Double.NaN : lifecycle.otherCpuCores(),
            latency == null ? Double.NaN : latency.otherCpuCores(),
            latencyAtHalfBurnDown == null ? Double.NaN : latencyAtHalfBurnDown.otherCpuCores(),
            memory == null ? Double.NaN : memory.otherCpuCores()
        }) {
            if (!Double.isNaN(v)) {
                max = Double.isNaN(max) ? v : Math.max(max, v);
            }
        }
        return max;
    }

    /** The targets of issue 4, each true, false, or null when this run did not measure it. */
    private ObjectNode targets() {
        ObjectNode targets = Json.object();
        putBoolean(targets, "units_per_s_ge_half_baseline", Double.isNaN(ratio()) ? null : ratio() >= 0.5);
        putBoolean(targets, "units_per_s_ge_28000", lifecycle == null ? null : lifecycle.unitsPerSecond() >= 28_000);
        putBoolean(
                targets,
                "request_p99_le_2x_commit_interval",
                latency == null || Double.isNaN(latency.request().p99Ms())
                        ? null
                        : latency.request().p99Ms() <= 2.0 * config.commitIntervalMs());
        boolean tenMillion = !scale.isEmpty() && scale.get(scale.size() - 1).units() >= 10_000_000;
        putBoolean(
                targets,
                "request_cost_10m_within_2x_of_10k",
                !tenMillion || Double.isNaN(scaleRatio1()) ? null : Math.max(scaleRatio1(), scaleRatio100()) <= 2.0);
        // The app's own RSS (f: alone in its JVM), judged only when it held 10M units; the bench JVM's RSS (e) holds
        // the broker and the load generator too, so it never judges this target.
        putBoolean(
                targets,
                "rss_below_1gib_at_10m_units",
                memory == null || memory.units() < RSS_TARGET_UNITS || memory.rssBytes() < 0
                        ? null
                        : memory.rssBytes() < RSS_TARGET_BYTES);
        putBoolean(targets, "sdk_ratio_ge_0_7", Double.isNaN(sdkRatio()) ? null : sdkRatio() >= SDK_RATIO_TARGET);
        putBoolean(
                targets,
                "sdk_idle_requests_per_s_lt_20",
                sdkIdle == null ? null : sdkIdle.requestsPerSecond() < SDK_IDLE_REQUESTS_TARGET);
        putBoolean(
                targets,
                "sdk_default_ratio_ge_0_5",
                Double.isNaN(sdkDefaultRatio()) ? null : sdkDefaultRatio() >= SDK_DEFAULT_RATIO_TARGET);
        return targets;
    }

    /** How long each measured run's window was. */
    private static String windowsNote(double[] windows) {
        return "; windows " + joined(windows, "%.2f") + " s";
    }

    /** After how many warm-up runs, and how busy the JIT compilers were during each measured run. */
    private static String warmupNote(Warmup warmup) {
        return warmup == null
                ? ""
                : "; after " + warmup.runs() + " warm-up run(s); JIT " + joined(warmup.jitCoresOfEachRun(), "%.2f")
                        + " cores";
    }

    private static String rates(double[] rates, String unit) {
        return joined(rates, "%,.0f") + " " + unit;
    }

    /** {@code "a / b / c"}, each value in {@code format}; "?" for one not measured (NaN). */
    private static String joined(double[] values, String format) {
        return String.join(
                " / ",
                Arrays.stream(values)
                        .mapToObj(v -> Double.isNaN(v) ? "?" : String.format(Locale.ROOT, format, v))
                        .toList());
    }

    /**
     * Each lifecycle run's units/s over the baseline run measured just before it (the runs alternate), or null
     * without as many runs of each.
     */
    double[] ratioOfEachRun() {
        return ratios(lifecycleRates, baselineRates);
    }

    /** Each sdk run's units/s over the lifecycle run just before it, or null without as many runs of each. */
    double[] sdkRatioOfEachRun() {
        return ratios(sdkRates, lifecycleRates);
    }

    /** {@code rates[i] / against[i]}, or null unless both have as many runs. */
    private static double[] ratios(double[] rates, double[] against) {
        if (rates == null || against == null || rates.length != against.length) {
            return null;
        }
        double[] ratios = new double[rates.length];
        for (int i = 0; i < ratios.length; i++) {
            ratios[i] = rates[i] / against[i];
        }
        return ratios;
    }

    private static void putRates(ObjectNode node, String field, double[] rates) {
        putNumbers(node, field, rates, 0);
    }

    /** An array of numbers rounded to {@code decimals}, null for one not measured (NaN); absent for null. */
    private static void putNumbers(ObjectNode node, String field, double[] values, int decimals) {
        if (values != null) {
            ArrayNode list = node.putArray(field);
            double scale = Math.pow(10, decimals);
            for (double value : values) {
                list.add(Double.isNaN(value) ? null : Math.round(value * scale) / scale);
            }
        }
    }

    private ObjectNode details() {
        ObjectNode details = Json.object();
        if (baseline != null) {
            ObjectNode b = details.putObject("baseline");
            b.put("records", baseline.records());
            put(b, "seconds", baseline.seconds(), 3);
            put(b, "startup_seconds", baseline.startupSeconds(), 3);
            put(b, "other_processes_cpu_cores", baseline.otherCpuCores(), 2);
            putRates(b, "records_per_s_of_each_run", baselineRates);
            putNumbers(b, "window_s_of_each_run", baselineWindows, 2);
            putWarmup(b, baselineWarmup);
        }
        if (share != null) {
            ObjectNode s = details.putObject("share_group");
            s.put("records", share.records());
            s.put("consumers", share.consumers());
            put(s, "seconds", share.seconds(), 3);
            put(s, "join_seconds", share.joinSeconds(), 3);
            put(s, "other_processes_cpu_cores", share.otherCpuCores(), 2);
        }
        if (lifecycle != null) {
            ObjectNode l = details.putObject("lifecycle");
            l.put("units", lifecycle.units());
            put(l, "add_seconds", lifecycle.addSeconds(), 3);
            put(l, "work_seconds", lifecycle.workSeconds(), 3);
            l.put("requests", lifecycle.requests());
            l.put("finish_errors", lifecycle.finishErrors());
            put(l, "cpu_cores_used", lifecycle.cpuCores(), 2);
            putStreamThread(l, lifecycle.streamThread());
            put(l, "request_round_trip_p50_ms", lifecycle.requestP50Ms(), 2);
            l.put("units_in_flight", lifecycle.unitsInFlight());
            l.put("client_bound", clientBound());
            ArrayNode tenths = l.putArray("units_per_s_by_tenth");
            for (double rate : lifecycle.tenthRates()) {
                tenths.add(Double.isNaN(rate) ? null : (double) Math.round(rate));
            }
            put(l, "other_processes_cpu_cores", lifecycle.otherCpuCores(), 2);
            putRates(l, "units_per_s_of_each_run", lifecycleRates);
            putNumbers(l, "window_s_of_each_run", lifecycleWindows, 2);
            putNumbers(l, "ratio_of_each_run", ratioOfEachRun(), 3);
            putWarmup(l, lifecycleWarmup);
        }
        if (latency != null) {
            ObjectNode l = details.putObject("latency");
            putLatency(l, latency);
            l.put("warmup_runs", latencyWarmupRuns);
        }
        if (latencyAtHalfBurnDown != null) {
            ObjectNode l = details.putObject("latency_at_half_burn_down");
            putLatency(l, latencyAtHalfBurnDown);
            put(l, "request_p50_ms", latencyAtHalfBurnDown.request().p50Ms(), 2);
            put(l, "request_p99_ms", latencyAtHalfBurnDown.request().p99Ms(), 2);
        }
        if (resources != null) {
            ObjectNode r = details.putObject("resources");
            r.put("rss_bytes", resources.rssBytes());
            r.put("rss_peak_bytes", resources.rssPeakBytes());
            r.put("rss_includes_broker", resources.rssIncludesBroker());
            r.put("stored_units", resources.storedUnits());
            r.put("state_dir_bytes", resources.stateDirBytes());
            r.put("changelog_bytes", resources.changelogBytes());
            r.put("events_topic_bytes", resources.eventsBytes());
        }
        if (sdk != null) {
            ObjectNode g = details.putObject("sdk");
            g.put("units", sdk.units());
            put(g, "add_seconds", sdk.addSeconds(), 3);
            put(g, "work_seconds", sdk.workSeconds(), 3);
            put(g, "units_per_request", sdk.unitsPerRequest(), 2);
            put(g, "cpu_cores_used", sdk.cpuCores(), 2);
            put(g, "other_processes_cpu_cores", sdk.otherCpuCores(), 2);
            putStreamThread(g, sdk.streamThread());
            g.put("attempts_in_hand_max", (long) sdk.workers() * (sdk.concurrency() + sdk.prefetch()));
            putRates(g, "units_per_s_of_each_run", sdkRates);
            putNumbers(g, "window_s_of_each_run", sdkWindows, 2);
            putNumbers(g, "ratio_of_each_run", sdkRatioOfEachRun(), 3);
            putWarmup(g, sdkWarmup);
            if (sdkIdle != null) {
                put(g, "idle_seconds", sdkIdle.seconds(), 2);
                g.put("idle_requests", sdkIdle.requests());
            }
        }
        if (sdkDefault != null) {
            ObjectNode d = details.putObject("sdk_default");
            d.put("units", sdkDefault.units());
            d.put("workers", sdkDefault.workers());
            d.put("concurrency", sdkDefault.concurrency());
            d.put("requests", sdkDefault.requests());
            put(d, "units_per_request", sdkDefault.unitsPerRequest(), 2);
            put(d, "cpu_cores_used", sdkDefault.cpuCores(), 2);
            putRates(d, "units_per_s_of_each_run", sdkDefaultRates);
            putNumbers(d, "window_s_of_each_run", sdkDefaultWindows, 2);
            putNumbers(d, "ratio_of_each_run", ratios(sdkDefaultRates, sdkRates), 3);
            putWarmup(d, sdkDefaultWarmup);
        }
        if (memory != null) {
            ObjectNode m = details.putObject("memory");
            m.put("units", memory.units());
            m.put("batch", memory.batch());
            m.put("heap_max", memory.heapMax());
            m.put("rocksdb_cache_bytes", memory.rocksDbCacheBytes());
            put(m, "add_seconds", memory.addSeconds(), 3);
            m.put("rss_bytes", memory.rssBytes());
            m.put("rss_anon_bytes", memory.rssAnonBytes());
            m.put("rss_file_bytes", memory.rssFileBytes());
            m.put("heap_committed_bytes", memory.heapCommittedBytes());
            m.put("nonheap_committed_bytes", memory.nonHeapCommittedBytes());
            m.put("rss_peak_bytes", memory.rssPeakBytes());
            m.put("state_dir_bytes", memory.stateDirBytes());
            ArrayNode tenths = m.putArray("rss_mib_by_tenth_of_units");
            for (long rss : memory.rssByTenth()) {
                tenths.add(rss < 0 ? null : Math.round(rss / 1048576.0 * 10) / 10.0);
            }
            m.put("round_trips", memory.request().count());
            put(m, "request_p50_ms", memory.request().p50Ms(), 2);
            put(m, "request_max_ms", memory.request().maxMs(), 2);
            put(m, "finish_p50_ms", memory.finish().p50Ms(), 2);
            put(m, "finish_max_ms", memory.finish().maxMs(), 2);
            put(m, "app_cpu_cores", memory.appCpuCores(), 2);
            put(m, "other_processes_cpu_cores", memory.otherCpuCores(), 2);
        }
        if (restart != null) {
            ObjectNode r = details.putObject("restart_after_kill");
            put(r, "ready_seconds", restart.readySeconds(), 2);
            put(r, "first_reply_seconds", restart.firstReplySeconds(), 2);
            r.put("restored_records", restart.restoredRecords());
            put(r, "restore_seconds", restart.restoreSeconds(), 2);
            r.put("rebuilt_units", restart.rebuiltUnits());
            put(r, "rebuild_seconds", restart.rebuildSeconds(), 2);
        }
        return details;
    }

    /** The table printed before the RESULT line. */
    public String table() {
        List<String[]> rows = new ArrayList<>();
        if (baseline != null) {
            rows.add(row(
                    "a. baseline: pass-through Streams",
                    rate(baseline.recordsPerSecond(), "records/s"),
                    String.format(
                            Locale.ROOT,
                            "%,d records in %.2f s (startup %.2f s not counted)%s",
                            baseline.records(),
                            baseline.seconds(),
                            baseline.startupSeconds(),
                            others(baseline.otherCpuCores()))));
            if (baselineRates != null && baselineRates.length > 1) {
                rows.add(row(
                        "   each run",
                        rates(baselineRates, "records/s"),
                        "the median one is the figure" + windowsNote(baselineWindows) + warmupNote(baselineWarmup)));
            }
        }
        if (share != null) {
            rows.add(row(
                    "b. peer: share group, ACCEPT",
                    rate(share.recordsPerSecond(), "records/s"),
                    String.format(
                            Locale.ROOT,
                            "%,d records in %.2f s, %d consumer(s), join %.1f s not counted%s",
                            share.records(),
                            share.seconds(),
                            share.consumers(),
                            share.joinSeconds(),
                            others(share.otherCpuCores()))));
        }
        if (lifecycle != null) {
            rows.add(row(
                    "c. lifecycle: add",
                    rate(lifecycle.addUnitsPerSecond(), "units/s"),
                    String.format(Locale.ROOT, "%,d units in %.2f s", lifecycle.units(), lifecycle.addSeconds())));
            rows.add(row(
                    "c. lifecycle: request+finish",
                    rate(lifecycle.unitsPerSecond(), "units/s"),
                    String.format(
                            Locale.ROOT,
                            "%.2f s, %,d requests, %d finish errors, this process %.2f cores (stream thread %.0f%% busy)%s",
                            lifecycle.workSeconds(),
                            lifecycle.requests(),
                            lifecycle.finishErrors(),
                            lifecycle.cpuCores(),
                            100 * lifecycle.streamThread().busy(),
                            others(lifecycle.otherCpuCores()))));
            if (lifecycleRates != null && lifecycleRates.length > 1) {
                rows.add(row(
                        "   each run",
                        rates(lifecycleRates, "units/s"),
                        "the median one is the figure" + windowsNote(lifecycleWindows) + warmupNote(lifecycleWarmup)));
            }
            rows.add(
                    row("c. lifecycle: end to end", rate(lifecycle.endToEndUnitsPerSecond(), "units/s"), "add + work"));
            double[] tenths = lifecycle.tenthRates();
            if (tenths.length == 10) {
                rows.add(row(
                        "   first / last tenth of the work",
                        String.format(Locale.ROOT, "%,.0f / %,.0f units/s", tenths[0], tenths[9]),
                        "a falling rate shows a cost that grows with what the run leaves behind"));
            }
            rows.add(row(
                    "   request round trip",
                    String.format(Locale.ROOT, "p50 %.0f ms", lifecycle.requestP50Ms()),
                    String.format(
                            Locale.ROOT,
                            "%,d units in flight%s",
                            lifecycle.unitsInFlight(),
                            clientBound()
                                    ? "; CLIENT-BOUND: the round trip is near its floor, raise --inflight or --workers"
                                    : "; the app queues requests: it is the limit")));
            if (baseline != null) {
                double[] pairs = ratioOfEachRun();
                String each =
                        pairs == null ? "" : "; run by run (each after its baseline run): " + joined(pairs, "%.3f");
                rows.add(row(
                        "   ratio to baseline", String.format(Locale.ROOT, "%.3f", ratio()), "target >= 0.5" + each));
            }
            if (share != null) {
                rows.add(row(
                        "   ratio to share group",
                        String.format(Locale.ROOT, "%.3f", lifecycle.unitsPerSecond() / share.recordsPerSecond()),
                        ""));
            }
        }
        if (sdk != null) {
            rows.add(row(
                    "g. sdk workers: request+finish",
                    rate(sdk.unitsPerSecond(), "units/s"),
                    String.format(
                            Locale.ROOT,
                            "%,d units in %.2f s by %d workers x concurrency %d, prefetch %d; %,d requests (%.1f units each);"
                                    + " this process %.2f cores (stream thread %.0f%% busy); other processes %.2f cores",
                            sdk.units(),
                            sdk.workSeconds(),
                            sdk.workers(),
                            sdk.concurrency(),
                            sdk.prefetch(),
                            sdk.requests(),
                            sdk.unitsPerRequest(),
                            sdk.cpuCores(),
                            sdk.streamThread().busy() * 100,
                            sdk.otherCpuCores())));
            if (sdkRates != null && sdkRates.length > 1) {
                rows.add(row(
                        "   each run",
                        rates(sdkRates, "units/s"),
                        "the median one is the figure" + windowsNote(sdkWindows)));
            }
            if (lifecycle != null) {
                double[] pairs = sdkRatioOfEachRun();
                String each =
                        pairs == null ? "" : "; run by run (each after its lifecycle run): " + joined(pairs, "%.3f");
                rows.add(row(
                        "   ratio to lifecycle",
                        String.format(Locale.ROOT, "%.3f", sdkRatio()),
                        String.format(
                                        Locale.ROOT,
                                        "target >= %.1f: %s",
                                        SDK_RATIO_TARGET,
                                        sdkRatio() >= SDK_RATIO_TARGET ? "met" : "MISSED")
                                + each));
            }
        }
        if (sdkDefault != null) {
            rows.add(row(
                    "g. sdk workers at defaults",
                    rate(sdkDefault.unitsPerSecond(), "units/s"),
                    String.format(
                                    Locale.ROOT,
                                    "%,d units in %.2f s by %d workers x concurrency %d, 1 ms handlers, no prefetch; %,d"
                                            + " requests (%.1f units each); ratio to the sdk phase %.3f, target >= %.1f: %s",
                                    sdkDefault.units(),
                                    sdkDefault.workSeconds(),
                                    sdkDefault.workers(),
                                    sdkDefault.concurrency(),
                                    sdkDefault.requests(),
                                    sdkDefault.unitsPerRequest(),
                                    sdkDefaultRatio(),
                                    SDK_DEFAULT_RATIO_TARGET,
                                    sdkDefaultRatio() >= SDK_DEFAULT_RATIO_TARGET ? "met" : "MISSED")
                            + windowsNote(sdkDefaultWindows)));
        }
        if (sdkIdle != null) {
            rows.add(row(
                    "g. idle sdk worker",
                    String.format(Locale.ROOT, "%.2f requests/s", sdkIdle.requestsPerSecond()),
                    String.format(
                            Locale.ROOT,
                            "%d request_attempts in %.1f s on a spec without units; target < %.0f/s",
                            sdkIdle.requests(),
                            sdkIdle.seconds(),
                            SDK_IDLE_REQUESTS_TARGET)));
        }
        languages.forEach((language, run) -> rows.add(row(
                "g. " + language + " workers",
                rate(run.unitsPerSecond(), "units/s"),
                String.format(
                        Locale.ROOT,
                        "%,d units in %.2f s by %d runners x concurrency %d; runs %s; ratio to lifecycle %.3f",
                        run.units(),
                        run.workSeconds(),
                        run.workers(),
                        run.concurrency(),
                        rates(languageRates.get(language), "units/s"),
                        languageRatio(language)))));
        if (latency != null) {
            String load = String.format(
                    Locale.ROOT,
                    "at %,.0f units/s (target %,.0f)",
                    latency.achievedUnitsPerSecond(),
                    latency.targetUnitsPerSecond());
            rows.add(row(
                    "d. request -> assignment",
                    millis(latency.request()),
                    load + ", " + latency.request().count() + " requests" + others(latency.otherCpuCores())));
            rows.add(row(
                    "   warm-up",
                    latencyWarmupRuns + " run(s)",
                    String.format(
                            Locale.ROOT,
                            "of the same load, untimed; JIT %.2f cores during the measured load",
                            latency.jitCores())));
            rows.add(row(
                    "   until the app processed it",
                    millis(latency.requestToProcessed()),
                    "then until the worker read it: " + millis(latency.processedToSeen())
                            + " (the wait for the commit)"));
            rows.add(row(
                    "d. add -> first attempt",
                    millis(latency.addToAttempt()),
                    latency.addToAttempt().count() + " units"));
        }
        if (latencyAtHalfBurnDown != null) {
            rows.add(row(
                    "d. request -> assignment at half c",
                    millis(latencyAtHalfBurnDown.request()),
                    String.format(
                            Locale.ROOT,
                            "at %,.0f units/s, half the burn-down; not judged: with the adds that is more than half the app's"
                                    + " load; until processed %s",
                            latencyAtHalfBurnDown.achievedUnitsPerSecond(),
                            millis(latencyAtHalfBurnDown.requestToProcessed()))));
        }
        for (ScaleFigure figure : scale) {
            rows.add(row(
                    String.format(Locale.ROOT, "e. request_attempts @ %,d units", figure.units()),
                    String.format(Locale.ROOT, "%.1f / %.1f µs", figure.request1Micros(), figure.request100Micros()),
                    String.format(
                            Locale.ROOT,
                            "count 1 / count 100; x%.2f / x%.2f of the smallest",
                            figure.request1Micros() / scale.get(0).request1Micros(),
                            figure.request100Micros() / scale.get(0).request100Micros())));
        }
        if (resources != null) {
            rows.add(row(
                    "e. RSS of the whole bench JVM",
                    String.format(Locale.ROOT, "%.0f MiB", resources.rssBytes() / 1048576.0),
                    String.format(
                            Locale.ROOT,
                            "peak %.0f MiB; not the app's: %s",
                            resources.rssPeakBytes() / 1048576.0,
                            resources.rssIncludesBroker()
                                    ? "broker + app + load generator in one JVM"
                                    : "app + load generator in one JVM")));
            rows.add(row(
                    "e. disk per million units",
                    String.format(
                            Locale.ROOT,
                            "%.1f MiB",
                            (resources.perMillionUnits(resources.stateDirBytes())
                                            + resources.perMillionUnits(resources.changelogBytes()))
                                    / 1048576.0),
                    String.format(
                            Locale.ROOT,
                            "state dir %.1f + changelog %.1f MiB (%,d units stored); events %.1f MiB",
                            resources.perMillionUnits(resources.stateDirBytes()) / 1048576.0,
                            resources.perMillionUnits(resources.changelogBytes()) / 1048576.0,
                            resources.storedUnits(),
                            resources.perMillionUnits(resources.eventsBytes()) / 1048576.0)));
        }
        if (memory != null) {
            rows.add(row(
                    "f. app alone: add",
                    rate(memory.addUnitsPerSecond(), "units/s"),
                    String.format(
                            Locale.ROOT,
                            "%,d units in %.1f s, batch %,d; app %.2f cores%s",
                            memory.units(),
                            memory.addSeconds(),
                            memory.batch(),
                            memory.appCpuCores(),
                            others(memory.otherCpuCores()))));
            rows.add(row(
                    String.format(Locale.ROOT, "f. app alone: RSS at %,d units", memory.units()),
                    String.format(Locale.ROOT, "%.0f MiB", memory.rssBytes() / 1048576.0),
                    String.format(
                            Locale.ROOT,
                            "peak %.0f MiB; heap %.0f MiB committed (-Xmx%s) + non-heap %.0f MiB; RocksDB cache %.0f MiB; "
                                    + "state dir %.0f MiB%s",
                            memory.rssPeakBytes() / 1048576.0,
                            memory.heapCommittedBytes() / 1048576.0,
                            memory.heapMax(),
                            memory.nonHeapCommittedBytes() / 1048576.0,
                            memory.rocksDbCacheBytes() / 1048576.0,
                            memory.stateDirBytes() / 1048576.0,
                            memory.units() >= RSS_TARGET_UNITS
                                    ? (memory.rssBytes() < RSS_TARGET_BYTES
                                            ? "; target < 1 GiB: met"
                                            : "; target < 1 GiB: MISSED")
                                    : "")));
            rows.add(row(
                    "f. app alone: request / finish",
                    String.format(
                            Locale.ROOT,
                            "p50 %.1f / %.1f ms",
                            memory.request().p50Ms(),
                            memory.finish().p50Ms()),
                    String.format(
                            Locale.ROOT,
                            "%d round trips of %d attempts, one at a time, at that size",
                            memory.request().count(),
                            MemoryProbe.REQUEST_COUNT)));
        }
        if (restart != null) {
            rows.add(row(
                    "f. app alone: restart after kill -9",
                    String.format(Locale.ROOT, "%.1f s", restart.firstReplySeconds()),
                    String.format(
                            Locale.ROOT,
                            "to the first reply; READY after %.1f s; restored %,d records (%.1f s), rebuilt"
                                    + " the indexes of %,d units (%.1f s)",
                            restart.readySeconds(),
                            restart.restoredRecords(),
                            restart.restoreSeconds(),
                            restart.rebuiltUnits(),
                            restart.rebuildSeconds())));
        }
        int w0 = "figure".length();
        int w1 = "value".length();
        for (String[] r : rows) {
            w0 = Math.max(w0, r[0].length());
            w1 = Math.max(w1, r[1].length());
        }
        String format = "%-" + w0 + "s  %" + w1 + "s  %s%n";
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, format, "figure", "value", "notes"));
        for (String[] r : rows) {
            out.append(String.format(Locale.ROOT, format, r[0], r[1], r[2]));
        }
        return out.toString();
    }

    public String resultLine() {
        return "RESULT " + Json.text(toJson());
    }

    private static String others(double cores) {
        return Double.isNaN(cores) ? "" : String.format(Locale.ROOT, "; other processes %.2f cores", cores);
    }

    private static String[] row(String name, String value, String notes) {
        return new String[] {name, value, notes};
    }

    private static String rate(double value, String unit) {
        return String.format(Locale.ROOT, "%,.0f %s", value, unit);
    }

    private static void putLatency(ObjectNode l, Latency latency) {
        put(l, "target_units_per_s", latency.targetUnitsPerSecond(), 1);
        put(l, "achieved_units_per_s", latency.achievedUnitsPerSecond(), 1);
        put(l, "seconds", latency.seconds(), 1);
        l.put("inflight_per_worker", latency.inflight());
        l.put("requests", latency.request().count());
        put(l, "request_max_ms", latency.request().maxMs(), 2);
        put(l, "request_to_processed_p50_ms", latency.requestToProcessed().p50Ms(), 0);
        put(l, "request_to_processed_p99_ms", latency.requestToProcessed().p99Ms(), 0);
        put(l, "processed_to_seen_p50_ms", latency.processedToSeen().p50Ms(), 0);
        put(l, "processed_to_seen_p99_ms", latency.processedToSeen().p99Ms(), 0);
        l.put("units", latency.addToAttempt().count());
        put(l, "add_to_attempt_max_ms", latency.addToAttempt().maxMs(), 2);
        put(l, "other_processes_cpu_cores", latency.otherCpuCores(), 2);
        putStreamThread(l, latency.streamThread());
        put(l, "jit_cores", latency.jitCores(), 2);
    }

    private static String millis(LatencyRecorder.Summary summary) {
        return String.format(Locale.ROOT, "p50 %.1f / p99 %.1f ms", summary.p50Ms(), summary.p99Ms());
    }

    private static void putStreamThread(ObjectNode json, StreamThreadMeter.Reading streamThread) {
        put(json, "stream_thread_busy", streamThread.busy(), 2);
        put(json, "stream_thread_blocked", streamThread.blocked(), 2);
        put(json, "stream_thread_commit_wait", streamThread.commitWait(), 3);
        put(json, "commits_per_s", streamThread.commitsPerSecond(), 1);
    }

    private static void putWarmup(ObjectNode json, Warmup warmup) {
        if (warmup != null) {
            json.put("warmup_runs", warmup.runs());
            putNumbers(json, "jit_cores_of_each_run", warmup.jitCoresOfEachRun(), 2);
        }
    }

    private static void put(ObjectNode json, String key, Double value, int decimals) {
        if (value == null || value.isNaN() || value.isInfinite()) {
            json.putNull(key);
        } else {
            double scale = Math.pow(10, decimals);
            json.put(key, Math.round(value * scale) / scale);
        }
    }

    private static void putInt(ObjectNode json, String key, Long value) {
        if (value == null) {
            json.putNull(key);
        } else {
            json.put(key, value);
        }
    }

    private static void putBoolean(ObjectNode json, String key, Boolean value) {
        if (value == null) {
            json.putNull(key);
        } else {
            json.put(key, value);
        }
    }
}
