package io.coordinate.cli;

import io.coordinate.bench.RequestCostBenchmark;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code coordinate bench-scale}: how the cost of {@code request_attempts} grows with the units of a spec. */
@Command(
        name = "bench-scale",
        mixinStandardHelpOptions = false,
        description = "Measure request_attempts cost (count 1 and 100) with 10k, 100k and 1M units in one spec "
                + "(the engine on RocksDB, no Kafka).")
final class BenchScaleCommand implements Callable<Integer> {

    @Option(
            names = "--sizes",
            split = ",",
            defaultValue = "10000,100000,1000000",
            description = "Unit counts to measure (default: ${DEFAULT-VALUE}).")
    List<Integer> sizes;

    @Option(
            names = "--requests",
            defaultValue = "2000",
            description =
                    "Timed requests of count 1 per size; a tenth as many of count 100 (default: ${DEFAULT-VALUE}).")
    int requests;

    @Option(
            names = "--groups",
            defaultValue = "0",
            description = "Concurrency groups of the spec's units, unit i in group i mod N; 0: none "
                    + "(default: ${DEFAULT-VALUE}).")
    int groups;

    @Override
    public Integer call() {
        List<RequestCostBenchmark.Figure> figures = new RequestCostBenchmark(System.out, groups).run(sizes, requests);
        RequestCostBenchmark.Figure base = figures.get(0);
        RequestCostBenchmark.Figure last = figures.get(figures.size() - 1);
        System.out.println("RESULT "
                + figures.stream()
                        .map(f -> String.format(
                                "{\"units\":%d,\"request1_us\":%.1f,\"request100_us\":%.1f}",
                                f.units(), f.microsPerRequest1(), f.microsPerRequest100()))
                        .collect(Collectors.joining(",", "{\"groups\":" + groups + ",\"sizes\":[", "],"))
                + String.format(
                        "\"ratio_request1\":%.2f,\"ratio_request100\":%.2f}",
                        last.microsPerRequest1() / base.microsPerRequest1(),
                        last.microsPerRequest100() / base.microsPerRequest100()));
        return 0;
    }
}
