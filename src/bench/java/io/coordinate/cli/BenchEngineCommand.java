package io.coordinate.cli;

import io.coordinate.bench.EngineLifecycleBenchmark;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code coordinate bench-engine}: the engine's CPU per unit of the lifecycle, without Kafka. */
@Command(
        name = "bench-engine",
        mixinStandardHelpOptions = false,
        description = "Measure the engine's µs per unit of add, request and finish (the lifecycle's commands as bytes, "
                + "the engine on RocksDB, outputs as bytes; no Kafka, one thread).")
final class BenchEngineCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--units", defaultValue = "100000", description = "Units per round (default: ${DEFAULT-VALUE}).")
    int units;

    @Option(
            names = "--batch",
            defaultValue = "100",
            description = "Units per add_work_units, attempts per request_attempts (default: ${DEFAULT-VALUE}).")
    int batch;

    @Option(
            names = "--inflight",
            defaultValue = "128",
            description = "Requests answered and not yet finished, as the bench's 8 workers x 16 keep them "
                    + "(default: ${DEFAULT-VALUE}; 1: each request finished before the next).")
    int inflight;

    @Option(
            names = "--rounds",
            defaultValue = "10",
            description =
                    "Rounds; the first half warms the JIT, the second half is reported (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Override
    public Integer call() {
        if (units < 1 || batch < 1 || rounds < 1 || inflight < 1) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--units, --batch, --rounds and --inflight must be >= 1");
        }
        List<EngineLifecycleBenchmark.Round> measured =
                new EngineLifecycleBenchmark(System.out).run(units, batch, rounds, inflight);
        List<EngineLifecycleBenchmark.Round> reported = measured.subList(measured.size() / 2, measured.size());
        double add = reported.stream()
                .mapToDouble(EngineLifecycleBenchmark.Round::addMicros)
                .average()
                .orElseThrow();
        double request = reported.stream()
                .mapToDouble(EngineLifecycleBenchmark.Round::requestMicros)
                .average()
                .orElseThrow();
        double finish = reported.stream()
                .mapToDouble(EngineLifecycleBenchmark.Round::finishMicros)
                .average()
                .orElseThrow();
        System.out.println(String.format(
                Locale.ROOT,
                "RESULT {\"units\":%d,\"batch\":%d,\"inflight\":%d,\"rounds_reported\":%d,\"add_us_per_unit\":%.2f,"
                        + "\"request_us_per_unit\":%.2f,\"finish_us_per_unit\":%.2f,\"us_per_unit\":%.2f}",
                units,
                batch,
                inflight,
                reported.size(),
                add,
                request,
                finish,
                add + request + finish));
        return 0;
    }
}
