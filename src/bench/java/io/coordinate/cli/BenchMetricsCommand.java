package io.coordinate.cli;

import io.coordinate.bench.MetricsScrapeBenchmark;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code coordinate bench-metrics}: the time and size of a scrape of {@code /metrics} with many namespaces. */
@Command(
        name = "bench-metrics",
        mixinStandardHelpOptions = false,
        description = "Measure a scrape of /metrics (the queue gauges read from RocksDB, the registry written as text) "
                + "with many namespaces, each spec with an available unit (the engine alone, no Kafka).")
final class BenchMetricsCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--namespaces", defaultValue = "10000", description = "Namespaces (default: ${DEFAULT-VALUE}).")
    int namespaces;

    @Option(names = "--specs", defaultValue = "5", description = "Specs per namespace (default: ${DEFAULT-VALUE}).")
    int specs;

    @Option(
            names = "--scrapes",
            defaultValue = "6",
            description = "Scrapes; the first makes the meters, the median of the others is reported "
                    + "(default: ${DEFAULT-VALUE}).")
    int scrapes;

    @Override
    public Integer call() {
        if (namespaces < 1 || specs < 1 || scrapes < 2) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--namespaces and --specs must be >= 1, --scrapes >= 2");
        }
        MetricsScrapeBenchmark.Figures f = new MetricsScrapeBenchmark(System.out).run(namespaces, specs, scrapes);
        System.out.println(String.format(
                Locale.ROOT,
                "RESULT {\"namespaces\":%d,\"specs\":%d,\"series\":%d,\"coordinate_series\":%d,\"bytes\":%d,"
                        + "\"first_scrape_ms\":%.1f,\"read_ms\":%.1f,\"write_ms\":%.1f,\"list_ms\":%.1f}",
                f.namespaces(),
                f.specs(),
                f.series(),
                f.queueSeries(),
                f.bytes(),
                f.firstMillis(),
                f.refreshMillis(),
                f.writeMillis(),
                f.listMillis()));
        return 0;
    }
}
