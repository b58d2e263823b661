package io.coordinate.cli;

import io.coordinate.bench.BenchReport;
import io.coordinate.bench.BenchRun;
import io.coordinate.engine.handlers.WorkUnitCommands;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code coordinate bench}: the app against its limit (a pass-through Kafka Streams topology) and its peer (a Kafka
 * share group) in one run, on one broker; see docs/performance.md. Progress goes to stderr; stdout gets the table
 * and, last, the {@code RESULT {json}} line, whose JSON is also written under {@code bench/results/}.
 */
@Command(
        name = "bench",
        description =
                "Benchmark: baseline Streams topology, share group, unit lifecycle, the same by the Java worker "
                        + "library (sdk; sdk_default: at its defaults with 1 ms handlers), latency at half load, "
                        + "the app's memory with many units, request cost by spec size; prints a table and a RESULT {json} line.")
final class BenchCommand implements Callable<Integer> {

    /** The memory phase's round trips finish 20 × 100 units. */
    static final long MIN_MEMORY_UNITS = 2_000;

    @Spec
    CommandSpec spec;

    @Option(
            names = "--units",
            defaultValue = "200000",
            description = "Units of each run of the lifecycle and the sdk phase, and records of the baseline and share "
                    + "group, at least: a measured run takes more when it would end within --min-window-seconds; a warm-up "
                    + "run takes --warmup x this (default: ${DEFAULT-VALUE}).")
    int units;

    // A window of a second or so measures a phase's start and end as much as its pace, and the baseline's more than the
    // app's; how the runs are sized: PhaseWindow and docs/performance.md, "Windows".
    @Option(
            names = "--min-window-seconds",
            defaultValue = "5",
            description = "The shortest window a measured run of the baseline, share group, lifecycle or sdk phase may "
                    + "report: each is sized from the phase's rate in its warm-up runs, and a run that still ends sooner "
                    + "is run again, larger; 0 runs exactly --units (default: ${DEFAULT-VALUE}).")
    double minWindowSeconds;

    @Option(names = "--workers", defaultValue = "8", description = "Worker threads (default: ${DEFAULT-VALUE}).")
    int workers;

    @Option(
            names = "--batch",
            defaultValue = "100",
            description = "Units per add_work_units and attempts per request_attempts (default: ${DEFAULT-VALUE}).")
    int batch;

    // 16: with fewer, a fast host's round trip stayed at the client-bound mark (2 x the commit interval), so the
    // workers, not the app, set the pace; more only lengthened the round trip (docs/performance.md).
    @Option(
            names = "--inflight",
            defaultValue = "16",
            description =
                    "request_attempts each worker keeps outstanding in the lifecycle: it asks for its next batches "
                            + "while it finishes the current one, so that the app, not the round trip, limits units/s "
                            + "(default: ${DEFAULT-VALUE}).")
    int inflight;

    @Option(
            names = "--sdk-workers",
            defaultValue = "8",
            description =
                    "Workers of the Java worker library in the sdk and sdk_default phases, each with a client of its own "
                            + "(default: ${DEFAULT-VALUE}).")
    int sdkWorkers;

    @Option(
            names = "--sdk-concurrency",
            defaultValue = "16",
            description = "Handlers (no-op) of each sdk worker (default: ${DEFAULT-VALUE}).")
    int sdkConcurrency;

    // No-op handlers end in microseconds, so a worker's pace is what it holds per round trip to the app: it needs
    // about a round trip's worth of attempts queued (docs/performance.md, "SDK workers").
    @Option(
            names = "--sdk-prefetch",
            defaultValue = "1000",
            description =
                    "Attempts each sdk worker holds queued beyond its running handlers (default: ${DEFAULT-VALUE}).")
    int sdkPrefetch;

    @Option(
            names = "--share-consumers",
            defaultValue = "2",
            description = "KafkaShareConsumers of the share group (default: ${DEFAULT-VALUE}).")
    int shareConsumers;

    @Option(
            names = "--bootstrap-servers",
            paramLabel = "HOST:PORT[,HOST:PORT]",
            description = "Use this cluster (topics get a prefix of their own and are deleted afterwards); "
                    + "default: an embedded broker in this JVM, in a temporary directory.")
    String bootstrapServers;

    @Option(
            names = "--commit-interval-ms",
            description = "commit.interval.ms of the app and the baseline (default: the app's, 100).")
    Long commitIntervalMs;

    @Option(
            names = "--phases",
            split = ",",
            paramLabel = "PHASE[,PHASE]",
            description =
                    "Phases to run, of baseline, share, lifecycle, sdk, sdk_default, python, node, latency, memory, "
                            + "scale (default: all).")
    List<String> phases;

    @Option(names = "--skip-scale", description = "Do not run the scale phase (same as leaving it out of --phases).")
    boolean skipScale;

    @Option(
            names = "--scale-sizes",
            split = ",",
            defaultValue = "10000,1000000,10000000",
            description = "Spec sizes of the scale phase (default: ${DEFAULT-VALUE}; the 10M size takes about 3 "
                    + "minutes and ~2 GB of /tmp: leave it out for a quick run).")
    List<Integer> scaleSizes;

    @Option(
            names = "--scale-requests",
            defaultValue = "2000",
            description = "Timed request_attempts of count 1 per size; a tenth as many of count 100 "
                    + "(default: ${DEFAULT-VALUE}).")
    int scaleRequests;

    @Option(
            names = "--memory-units",
            defaultValue = "10000000",
            description = "Units the memory phase loads into the app alone, in one spec (default: ${DEFAULT-VALUE}; at "
                    + "least " + MIN_MEMORY_UNITS + ").")
    long memoryUnits;

    @Option(
            names = "--memory-batch",
            defaultValue = "1000",
            description = "Units per add_work_units in the memory phase (default: ${DEFAULT-VALUE}).")
    int memoryBatch;

    @Option(
            names = "--memory-heap",
            defaultValue = "512m",
            description = "The app's maximum heap (-Xmx) in the memory phase: the units live off-heap, in RocksDB "
                    + "(default: ${DEFAULT-VALUE}).")
    String memoryHeap;

    @Option(
            names = "--latency-seconds",
            defaultValue = "20",
            description = "Duration of the latency load; its first fifth is not counted (default: ${DEFAULT-VALUE}).")
    double latencySeconds;

    @Option(
            names = "--latency-rate",
            description =
                    "Units/s added during the latency load (default: half the lifecycle's end-to-end units/s, add + work;"
                            + " then again at half its burn-down units/s, for comparison).")
    Double latencyRate;

    // A whole run first: batch commands call the hot methods few times with long loops inside, so C2 reaches
    // them late; after a 10% warm-up the JIT still took most of a core during the measured lifecycle.
    @Option(
            names = "--warmup",
            defaultValue = "1.0",
            description =
                    "Fraction of --units run first, untimed, for the baseline, the lifecycle and the sdk phase; 0 also "
                            + "skips the latency load's warm-up (default: ${DEFAULT-VALUE}).")
    double warmup;

    // One run is not enough on two cores: C2 takes about a minute to compile the hot code of the broker, the app and
    // the clients in this JVM, at most of a core, which the measured threads then lack.
    @Option(
            names = "--warmup-max-seconds",
            defaultValue = "150",
            description =
                    "Warm-up runs go on while the JIT compilers used more than 0.15 cores in the last one, for at "
                            + "most this long (default: ${DEFAULT-VALUE}).")
    double warmupMaxSeconds;

    @Option(
            names = "--repeat",
            defaultValue = "3",
            description =
                    "Measured runs of the baseline, the lifecycle and the sdk phase; the median of each is reported "
                            + "(default: "
                            + "${DEFAULT-VALUE}).")
    int repeat;

    @Option(
            names = "--results-dir",
            description = "Where the JSON goes (default: bench/results of the repository bin/coordinate runs from).")
    Path resultsDir;

    @Override
    public Integer call() throws Exception {
        Set<String> selected = new LinkedHashSet<>(phases == null ? BenchRun.PHASES : phases);
        for (String phase : selected) {
            if (!BenchRun.PHASES.contains(phase)) {
                throw new CommandLine.ParameterException(
                        spec.commandLine(), "unknown phase '" + phase + "'; phases are " + BenchRun.PHASES);
            }
        }
        if (skipScale) {
            selected.remove(BenchRun.SCALE);
        }
        if (units < 1
                || workers < 1
                || batch < 1
                || inflight < 1
                || shareConsumers < 1
                || warmup < 0
                || repeat < 1
                || warmupMaxSeconds < 0
                || sdkWorkers < 1
                || sdkConcurrency < 1
                || sdkPrefetch < 0
                || !(minWindowSeconds >= 0)
                || Double.isInfinite(minWindowSeconds)) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    "--units, --workers, --batch, --inflight, --share-consumers, --repeat, --sdk-workers and "
                            + "--sdk-concurrency must be >= 1, --warmup, --warmup-max-seconds, --sdk-prefetch and "
                            + "--min-window-seconds >= 0");
        }
        if (memoryUnits < MIN_MEMORY_UNITS
                || memoryBatch < 1
                || memoryBatch > WorkUnitCommands.MAX_UNITS_PER_COMMAND
                || !memoryHeap.matches("[1-9][0-9]*[kKmMgG]?")) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    "--memory-units must be >= " + MIN_MEMORY_UNITS
                            + " (the phase's round trips take 20 x 100 units), --memory-batch in 1.."
                            + WorkUnitCommands.MAX_UNITS_PER_COMMAND
                            + ", --memory-heap a -Xmx size such as 512m or 1g");
        }
        Path home = Path.of(System.getProperty("coordinate.home", "."));
        BenchRun.Options options = new BenchRun.Options(
                units,
                minWindowSeconds,
                workers,
                batch,
                inflight,
                shareConsumers,
                bootstrapServers,
                commitIntervalMs,
                selected,
                scaleSizes,
                scaleRequests,
                latencySeconds,
                latencyRate,
                warmup,
                warmupMaxSeconds,
                repeat,
                memoryUnits,
                memoryBatch,
                memoryHeap,
                sdkWorkers,
                sdkConcurrency,
                sdkPrefetch,
                home);
        BenchReport report = new BenchRun(options, System.err).run();
        Path file = BenchRun.write(report, resultsDir != null ? resultsDir : home.resolve("bench/results"));
        System.err.println("wrote " + file);
        System.out.println();
        System.out.print(report.table());
        System.out.println(report.resultLine());
        System.out.flush();
        return 0;
    }
}
