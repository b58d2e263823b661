package io.coordinate.bench;

import io.coordinate.app.AppLauncher;
import io.coordinate.app.CoordinateApplication;
import io.coordinate.broker.EmbeddedKafkaBroker;
import io.coordinate.config.AppConfig;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.TopicNames;
import io.coordinate.streams.StoreNames;
import io.coordinate.streams.StreamsSettings;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;
import org.apache.kafka.streams.StreamsConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@code coordinate bench} run: starts (or connects to) the broker and the app, runs the phases in order —
 * baseline, share group, lifecycle, resources, latency on the app in this JVM; then, that app stopped, the memory
 * phase on the app alone in a child JVM; then the engine-only scale measurement once Kafka is stopped — and returns
 * the report. Phases that can be compared run on the same broker, one after the other, so none competes with
 * another for the two cores.
 */
public final class BenchRun {

    public static final String BASELINE = "baseline";
    public static final String SHARE = "share";
    public static final String LIFECYCLE = "lifecycle";
    public static final String SDK = "sdk";
    public static final String SDK_DEFAULT = "sdk_default";
    /** The Python and Node clients' workers (conformance runners with no-op handlers) over the lifecycle's units. */
    public static final String PYTHON = "python";

    public static final String NODE = "node";
    public static final String LATENCY = "latency";
    public static final String MEMORY = "memory";
    public static final String SCALE = "scale";
    public static final List<String> PHASES =
            List.of(BASELINE, SHARE, LIFECYCLE, SDK, SDK_DEFAULT, PYTHON, NODE, LATENCY, MEMORY, SCALE);

    private static final Logger LOG = LoggerFactory.getLogger(BenchRun.class);
    private static final DateTimeFormatter FILE_TIME =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    /**
     * @param bootstrapServers an external cluster, or null for an embedded broker in this JVM
     * @param commitIntervalMs the app's (and so the baseline's) commit interval, or null for the app's default
     * @param latencyRate      units/s of the latency load, or null for half the lifecycle's end-to-end rate (and again
     *                         at half its burn-down rate, for comparison)
     * @param units            units (or records) of each measured run at least, of each warm-up run × warmup
     * @param minWindowSeconds the shortest window a measured run may report: each phase's runs are sized to last
     *                         longer ({@link PhaseWindow}); 0 runs exactly {@code units}
     * @param warmup           fraction of the units run first, untimed, for the baseline and the lifecycle
     * @param warmupMaxSeconds how long warm-up runs may go on while the JIT compilers have not settled
     * @param repeat           measured runs of the baseline and of the lifecycle; each reports its median run
     * @param memoryUnits      units loaded into the app alone by the memory phase
     * @param memoryBatch      units per add_work_units of the memory phase
     * @param memoryHeap       the app's -Xmx in the memory phase ("512m")
     * @param sdkWorkers       {@code Worker}s of the sdk phase, each with a client of its own
     * @param sdkConcurrency   handlers of each sdk worker
     * @param sdkPrefetch      attempts each sdk worker queues beyond its running ones
     */
    public record Options(
            int units,
            double minWindowSeconds,
            int workers,
            int batch,
            int inflight,
            int shareConsumers,
            String bootstrapServers,
            Long commitIntervalMs,
            Set<String> phases,
            List<Integer> scaleSizes,
            int scaleRequests,
            double latencySeconds,
            Double latencyRate,
            double warmup,
            double warmupMaxSeconds,
            int repeat,
            long memoryUnits,
            int memoryBatch,
            String memoryHeap,
            int sdkWorkers,
            int sdkConcurrency,
            int sdkPrefetch,
            Path home) {}

    private final Options options;
    private final PrintStream progress;

    public BenchRun(Options options, PrintStream progress) {
        this.options = options;
        this.progress = progress;
    }

    public BenchReport run() throws Exception {
        Instant startedAt = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        String runId = "bench-" + FILE_TIME.format(startedAt).toLowerCase(Locale.ROOT);
        boolean embedded = options.bootstrapServers() == null;
        long commitInterval =
                options.commitIntervalMs() == null ? AppConfig.DEFAULT_COMMIT_INTERVAL_MS : options.commitIntervalMs();
        Path tmp = Files.createTempDirectory("coordinate-bench-");
        // Ctrl-C during a run: the broker's log and the stores (up to GBs with --scale-sizes 10000000) must not stay.
        Thread cleanup = new Thread(() -> EngineBench.deleteRecursively(tmp), "bench-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        BenchReport report = new BenchReport(new BenchReport.Config(
                startedAt.toString(),
                git("rev-parse", "--short=12", "HEAD"),
                gitDirty(),
                embedded ? "embedded" : options.bootstrapServers(),
                options.units(),
                options.minWindowSeconds(),
                options.workers(),
                options.batch(),
                options.inflight(),
                options.shareConsumers(),
                commitInterval,
                StreamsConfig.EXACTLY_ONCE_V2,
                Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.version"),
                jvmOptions(),
                CpuMeter.loadAverage()));
        try {
            runKafkaPhases(report, runId, embedded, commitInterval, tmp);
            if (options.phases().contains(SCALE)) {
                progress.println("== e. scale: request_attempts cost by spec size (engine on RocksDB, Kafka stopped)");
                List<BenchReport.ScaleFigure> figures = new RequestCostBenchmark(progress)
                        .run(options.scaleSizes(), options.scaleRequests()).stream()
                                .map(f -> new BenchReport.ScaleFigure(
                                        f.units(),
                                        f.addUnitsPerSecond(),
                                        f.microsPerRequest1(),
                                        f.microsPerRequest100()))
                                .toList();
                report.scale(figures);
            }
        } finally {
            EngineBench.deleteRecursively(tmp);
            Runtime.getRuntime().removeShutdownHook(cleanup);
        }
        return report;
    }

    /** The phases on Kafka, on one broker: the embedded one (started here) or the given cluster. */
    private void runKafkaPhases(BenchReport report, String runId, boolean embedded, long commitInterval, Path tmp)
            throws Exception {
        Set<String> phases = options.phases();
        boolean inProcess = phases.contains(BASELINE)
                || phases.contains(SHARE)
                || phases.contains(LIFECYCLE)
                || phases.contains(SDK)
                || phases.contains(SDK_DEFAULT)
                || phases.contains(PYTHON)
                || phases.contains(NODE)
                || phases.contains(LATENCY);
        if (!inProcess && !phases.contains(MEMORY)) {
            return;
        }
        EmbeddedKafkaBroker broker = null;
        if (embedded) {
            progress.println("== starting an embedded broker");
            broker = EmbeddedKafkaBroker.start(tmp.resolve("data").resolve("kafka"), 0);
        }
        String bootstrapServers = embedded ? broker.bootstrapServers() : options.bootstrapServers();
        try (BenchKafka kafka = new BenchKafka(bootstrapServers)) {
            try {
                if (inProcess) {
                    runInProcessPhases(report, kafka, runId, embedded, commitInterval, tmp);
                }
                if (phases.contains(MEMORY)) {
                    progress.printf(
                            Locale.ROOT,
                            "== f. memory: the app alone (-Xmx%s), %,d units in batches of %,d%n",
                            options.memoryHeap(),
                            options.memoryUnits(),
                            options.memoryBatch());
                    MemoryProbe probe = new MemoryProbe(progress);
                    report.memory(probe.run(
                            kafka, runId, tmp, options.memoryUnits(), options.memoryBatch(), options.memoryHeap()));
                    report.restart(probe.restart());
                }
            } finally {
                if (!embedded) {
                    try {
                        kafka.deleteTopics(t -> t.startsWith(runId));
                        List<String> left = kafka.deleteGroups(g -> g.startsWith(runId));
                        if (!left.isEmpty()) {
                            LOG.info(
                                    "groups {} still have members and were left on the cluster (they hold only offsets)",
                                    left);
                        }
                    } catch (RuntimeException e) {
                        LOG.warn("could not delete everything named {}* from the cluster: {}", runId, e.toString());
                    }
                }
            }
        } finally {
            if (broker != null) {
                broker.close();
            }
        }
    }

    /** The phases on the app in this JVM (a to e), which is stopped at the end. */
    private void runInProcessPhases(
            BenchReport report, BenchKafka kafka, String runId, boolean embedded, long commitInterval, Path tmp)
            throws Exception {
        Set<String> phases = options.phases();
        progress.println("== starting the app");
        // Embedded: as `bin/coordinate dev` runs it. A cluster: a prefix and application id of its own, so the run
        // neither sees nor disturbs what the cluster holds.
        AppConfig config = embedded
                ? AppConfig.defaults(
                                kafka.bootstrapServers(), 0, tmp.resolve("data").resolve("streams"))
                        .withCommitIntervalMs(commitInterval)
                : new AppConfig(
                        options.bootstrapServers(),
                        runId,
                        "127.0.0.1",
                        0,
                        tmp.resolve("streams"),
                        runId + ".",
                        commitInterval,
                        AppConfig.DEFAULT_PUNCTUATE_INTERVAL_MS);
        CoordinateApplication app = AppLauncher.start(config, Optional.empty());
        try {
            config = app.config();
            TopicNames topics = new TopicNames(config.topicPrefix());
            int partitions = kafka.partitionCount(topics.commands());
            Properties settings = StreamsSettings.withoutCommitPolicy(config);
            long warmupUnits = Math.round(options.units() * options.warmup());
            boolean baseline = phases.contains(BASELINE);
            boolean lifecycleOn = phases.contains(LIFECYCLE);
            PhaseWindow<BenchReport.Baseline> baselineWindow =
                    window("a. baseline", "records", BenchReport.Baseline::records, BenchReport.Baseline::seconds);
            int baselineWarmups = 0;
            if (baseline) {
                progress.println("== a. baseline: pass-through Kafka Streams topology, " + runSize("records"));
                baselineWarmups = warmUp(warmupUnits > 0, i -> {
                    String name = runId + "-baseline-warmup" + (i == 1 ? "" : "-" + i);
                    baselineWindow.observe(
                            BaselineTopology.run(kafka, settings, name, warmupUnits, partitions, tmp.resolve(name)));
                });
            }
            if (phases.contains(SHARE)) {
                progress.println("== b. peer: share group, " + runSize("records") + ", " + options.shareConsumers()
                        + " consumer(s)");
                PhaseWindow<BenchReport.Share> shareWindow =
                        window("b. share group", "records", BenchReport.Share::records, BenchReport.Share::seconds);
                report.share(shareWindow.measure((records, attempt) -> ShareGroupPeer.run(
                        kafka, runId + "-share" + again(attempt), records, partitions, options.shareConsumers())));
            }
            try (CommandClient client = new CommandClient(kafka, topics, runId + "-client")) {
                BenchReport.Lifecycle lifecycle = null;
                LifecycleLoad load = new LifecycleLoad(client, options.workers(), options.batch(), options.inflight());
                Map<String, LanguageLoad> languages = languageLoads(load, kafka, topics, tmp);
                PhaseWindow<BenchReport.Lifecycle> lifecycleWindow = window(
                        "c. lifecycle", "units", BenchReport.Lifecycle::units, BenchReport.Lifecycle::workSeconds);
                int lifecycleWarmups = 0;
                if (lifecycleOn) {
                    progress.println(
                            "== c. lifecycle: " + runSize("units") + ", " + options.workers() + " workers, batch "
                                    + options.batch() + ", " + options.inflight() + " request(s) in flight per worker");
                    lifecycleWarmups = warmUp(
                            warmupUnits > 0,
                            i -> lifecycleWindow.observe(
                                    load.run("bench-warmup" + (i == 1 ? "" : "-" + i), warmupUnits)));
                }
                SdkLoad sdk = phases.contains(SDK)
                        ? new SdkLoad(
                                load,
                                kafka.bootstrapServers(),
                                config.topicPrefix(),
                                options.sdkWorkers(),
                                options.sdkConcurrency(),
                                options.sdkPrefetch())
                        : null;
                PhaseWindow<BenchReport.Sdk> sdkWindow =
                        window("g. sdk", "units", BenchReport.Sdk::units, BenchReport.Sdk::workSeconds);
                int sdkWarmups = 0;
                if (sdk != null) {
                    progress.printf(
                            Locale.ROOT,
                            "== g. sdk: %s, %d Worker(s) x concurrency %d, prefetch %d; then one "
                                    + "idle worker for %.0f s%n",
                            runSize("units"),
                            options.sdkWorkers(),
                            options.sdkConcurrency(),
                            options.sdkPrefetch(),
                            SdkLoad.IDLE_SECONDS);
                    // Warmed up as the lifecycle is: the worker library's code is new to the JIT.
                    sdkWarmups = warmUp(
                            warmupUnits > 0, i -> sdkWindow.observe(sdk.work("bench-sdk-warmup-" + i, warmupUnits)));
                }
                SdkLoad sdkDefault = phases.contains(SDK_DEFAULT)
                        ? SdkLoad.atDefaults(load, kafka.bootstrapServers(), config.topicPrefix(), options.sdkWorkers())
                        : null;
                PhaseWindow<BenchReport.Sdk> sdkDefaultWindow =
                        window("g. sdk_default", "units", BenchReport.Sdk::units, BenchReport.Sdk::workSeconds);
                int sdkDefaultWarmups = 0;
                if (sdkDefault != null) {
                    progress.printf(
                            Locale.ROOT,
                            "== g. sdk_default: %s, %d Worker(s) at the defaults x concurrency %d, 1 ms handlers%n",
                            runSize("units"),
                            options.sdkWorkers(),
                            SdkLoad.DEFAULT_CONCURRENCY);
                    sdkDefaultWarmups = warmUp(
                            warmupUnits > 0,
                            i -> sdkDefaultWindow.observe(
                                    sdkDefault.work("bench-sdk-default-warmup-" + i, warmupUnits)));
                }
                // The measured runs of the baseline, the lifecycle and the sdk phase alternate, so that each ratio
                // compares
                // runs seconds apart: this host's speed drifts by tens of percent within minutes (docs/performance.md).
                List<BenchReport.Baseline> baselineRuns = new ArrayList<>();
                List<BenchReport.Lifecycle> lifecycleRuns = new ArrayList<>();
                double[] baselineJit = new double[options.repeat()];
                double[] lifecycleJit = new double[options.repeat()];
                List<BenchReport.Sdk> sdkRuns = new ArrayList<>();
                double[] sdkJit = new double[options.repeat()];
                List<BenchReport.Sdk> sdkDefaultRuns = new ArrayList<>();
                double[] sdkDefaultJit = new double[options.repeat()];
                Map<String, List<BenchReport.LanguageRun>> languageRuns = new LinkedHashMap<>();
                Map<String, PhaseWindow<BenchReport.LanguageRun>> languageWindows = new LinkedHashMap<>();
                languages
                        .keySet()
                        .forEach(language -> languageWindows.put(
                                language,
                                window(
                                        "g. " + language,
                                        "units",
                                        BenchReport.LanguageRun::units,
                                        BenchReport.LanguageRun::workSeconds)));
                for (int i = 1; i <= options.repeat(); i++) {
                    String suffix = i == 1 ? "" : "-" + i;
                    if (baseline) {
                        baselineRuns.add(measured(baselineWindow, i, baselineJit, (records, attempt) -> {
                            String name = runId + "-baseline" + suffix + again(attempt);
                            return BaselineTopology.run(kafka, settings, name, records, partitions, tmp.resolve(name));
                        }));
                    }
                    if (lifecycleOn) {
                        lifecycleRuns.add(measured(
                                lifecycleWindow,
                                i,
                                lifecycleJit,
                                (units, attempt) -> load.run("bench" + suffix + again(attempt), units)));
                    }
                    if (sdk != null) {
                        sdkRuns.add(measured(
                                sdkWindow,
                                i,
                                sdkJit,
                                (units, attempt) -> sdk.work("bench-sdk" + suffix + again(attempt), units)));
                    }
                    if (sdkDefault != null) {
                        sdkDefaultRuns.add(measured(
                                sdkDefaultWindow,
                                i,
                                sdkDefaultJit,
                                (units, attempt) ->
                                        sdkDefault.work("bench-sdk-default" + suffix + again(attempt), units)));
                    }
                    for (Map.Entry<String, LanguageLoad> language : languages.entrySet()) {
                        languageRuns
                                .computeIfAbsent(language.getKey(), l -> new ArrayList<>())
                                .add(measured(
                                        languageWindows.get(language.getKey()),
                                        i,
                                        new double[options.repeat()],
                                        (units, attempt) -> language.getValue()
                                                .work("bench-" + language.getKey() + suffix + again(attempt), units)));
                    }
                }
                if (baseline) {
                    report.baselineRuns(baselineRuns, new BenchReport.Warmup(baselineWarmups, baselineJit));
                }
                if (lifecycleOn) {
                    report.lifecycleRuns(lifecycleRuns, new BenchReport.Warmup(lifecycleWarmups, lifecycleJit));
                    lifecycle = report.lifecycle();
                    report.resources(resources(kafka, config, topics, embedded, load.unitsAdded()));
                }
                if (sdk != null) {
                    report.sdkRuns(sdkRuns, new BenchReport.Warmup(sdkWarmups, sdkJit), sdk.idle("bench-sdk-idle"));
                }
                if (sdkDefault != null) {
                    report.sdkDefaultRuns(sdkDefaultRuns, new BenchReport.Warmup(sdkDefaultWarmups, sdkDefaultJit));
                }
                languageRuns.forEach(report::languageRuns);
                if (phases.contains(LATENCY)) {
                    // Half load: the latency load adds its units as it works them, so its maximum is the lifecycle's
                    // end
                    // to end rate (add + work), not the burn-down (work only).
                    double rate = options.latencyRate() != null
                            ? options.latencyRate()
                            : lifecycle != null ? lifecycle.endToEndUnitsPerSecond() / 2 : 2_000;
                    progress.printf("== d. latency: %.0f units/s for %.0f s%n", rate, options.latencySeconds());
                    LatencyProbe probe = new LatencyProbe(client, options.workers(), options.batch());
                    // The same load first, untimed, until the JIT has settled on it: it runs code the lifecycle did not
                    // (the
                    // adds among the requests, the probe itself, the broker's answers to it), and C2 compiling it took
                    // up to
                    // two thirds of a core in the measured load, the 2-3 s spells when every request waited 200-500 ms.
                    int latencyWarmups = warmUp(
                            options.warmup() > 0,
                            i -> probe.run("bench-latency-warmup-" + i, rate, options.latencySeconds() / 2));
                    report.latency(probe.run("bench-latency", rate, options.latencySeconds()), latencyWarmups);
                    if (options.latencyRate() == null && lifecycle != null) {
                        double burnDownHalf = lifecycle.unitsPerSecond() / 2;
                        progress.printf(
                                "== d. latency at half the burn-down rate (not judged): %.0f units/s for %.0f s%n",
                                burnDownHalf, options.latencySeconds());
                        report.latencyAtHalfBurnDown(
                                probe.run("bench-latency-2", burnDownHalf, options.latencySeconds()));
                    }
                }
            }
        } finally {
            app.close();
        }
    }

    /** The sizes of a phase's measured runs, from {@code --units} and {@code --min-window-seconds}. */
    /** The language clients' loads of the selected phases (python, node), which need the embedded app's topics. */
    private Map<String, LanguageLoad> languageLoads(LifecycleLoad load, BenchKafka kafka, TopicNames topics, Path tmp) {
        Map<String, LanguageLoad> loads = new LinkedHashMap<>();
        for (LanguageRunners language : LanguageRunners.values()) {
            String phase = language == LanguageRunners.PYTHON ? PYTHON : NODE;
            if (!options.phases().contains(phase)) {
                continue;
            }
            if (!topics.equals(TopicNames.unprefixed())) {
                throw new IllegalArgumentException("the " + phase + " phase needs the unprefixed topics of the "
                        + "embedded app: the language clients' runners take no topic prefix");
            }
            loads.put(
                    phase,
                    new LanguageLoad(
                            load,
                            language,
                            kafka,
                            topics.events(),
                            options.sdkWorkers(),
                            options.sdkConcurrency(),
                            tmp.resolve(phase + "-runners")));
        }
        return loads;
    }

    private <T> PhaseWindow<T> window(String phase, String what, ToLongFunction<T> count, ToDoubleFunction<T> seconds) {
        return new PhaseWindow<>(phase, what, options.units(), options.minWindowSeconds(), count, seconds, progress);
    }

    /** How a phase's measured runs are sized, for its progress line. */
    private String runSize(String what) {
        return String.format(
                Locale.ROOT,
                "measured runs of at least %,d %s and %s s",
                options.units(),
                what,
                PhaseWindow.seconds(options.minWindowSeconds()));
    }

    /**
     * Measured run {@code number} of a phase, run again while its window is short; the JIT compilers' cores during its
     * last attempt go to {@code jitCores}.
     */
    private <T> T measured(PhaseWindow<T> window, int number, double[] jitCores, PhaseWindow.Run<T> run)
            throws Exception {
        progress.printf(
                Locale.ROOT,
                "== %s run %d of %d: %,d %s%n",
                window.phase(),
                number,
                options.repeat(),
                window.count(),
                window.what());
        return window.measure((count, attempt) -> {
            JitActivity activity = JitActivity.start();
            T result = run.run(count, attempt);
            jitCores[number - 1] = activity.cores();
            return result;
        });
    }

    /** The name suffix of a measured run's attempt: none for the first, "-try2"... for a run again. */
    private static String again(int attempt) {
        return attempt == 1 ? "" : "-try" + attempt;
    }

    private interface WarmupRun {
        void run(int number) throws Exception;
    }

    /**
     * Untimed runs before the measured ones, when {@code enabled}: at least one, then more while the JIT compilers
     * used more than {@link JitActivity#SETTLED_CORES} during the last one, for at most {@code --warmup-max-seconds}.
     * Returns how many ran.
     */
    private int warmUp(boolean enabled, WarmupRun run) throws Exception {
        if (!enabled) {
            return 0;
        }
        long deadline = System.nanoTime() + (long) (options.warmupMaxSeconds() * 1e9);
        for (int i = 1; ; i++) {
            JitActivity activity = JitActivity.start();
            run.run(i);
            double cores = activity.cores();
            progress.printf("   warm-up run %d: JIT compilers %.2f cores%n", i, cores);
            if (!(cores > JitActivity.SETTLED_CORES) || System.nanoTime() > deadline) {
                return i;
            }
        }
    }

    /** RSS of this process, the state dir and the changelog after the lifecycle load. */
    private BenchReport.Resources resources(
            BenchKafka kafka, AppConfig config, TopicNames topics, boolean embedded, long storedUnits)
            throws InterruptedException {
        TimeUnit.MILLISECONDS.sleep(2 * config.commitIntervalMs()); // the last commit's writes reach the log
        String changelog = config.applicationId() + "-" + StoreNames.STATE + "-changelog";
        return new BenchReport.Resources(
                procStatus("VmRSS"),
                procStatus("VmHWM"),
                embedded,
                storedUnits,
                BenchKafka.directoryBytes(config.stateDir()),
                kafka.topicBytes(changelog::equals),
                kafka.topicBytes(topics.events()::equals));
    }

    /** A memory line of /proc/self/status in bytes, or -1 where there is none (not Linux). */
    static long procStatus(String field) {
        return ProcStatus.read(Path.of("/proc/self/status"), field);
    }

    /** Writes the report's JSON as {@code <dir>/<time>.json}; returns the file. */
    public static Path write(BenchReport report, Path dir) {
        try {
            Files.createDirectories(dir);
            Path file =
                    dir.resolve(FILE_TIME.format(Instant.parse(report.config().time())) + ".json");
            Files.writeString(
                    file,
                    Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(report.toJson()) + "\n",
                    StandardCharsets.UTF_8);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String git(String... args) {
        try {
            String[] command = new String[args.length + 3];
            command[0] = "git";
            command[1] = "-C";
            command[2] = options.home().toString();
            System.arraycopy(args, 0, command, 3, args.length);
            Process process =
                    new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return process.waitFor() == 0 ? output : null;
        } catch (IOException | InterruptedException e) {
            return null;
        }
    }

    private Boolean gitDirty() {
        String status = git("status", "--porcelain", "--untracked-files=no");
        return status == null ? null : !status.isEmpty();
    }

    /** This JVM's -XX options (bin/coordinate's, JAVA_OPTS'), for the report: they change the figures. */
    private static List<String> jvmOptions() {
        return ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(o -> o.startsWith("-XX:"))
                .toList();
    }
}
