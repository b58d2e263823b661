package io.coordinate.bench;

import static io.coordinate.bench.EngineBench.deleteRecursively;
import static io.coordinate.bench.EngineBench.tempDir;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.Engine;
import io.coordinate.engine.state.db.DbState;
import io.coordinate.engine.state.db.SplitStore;
import io.coordinate.metrics.MetricsSettings;
import io.coordinate.metrics.QueueGauges;
import io.coordinate.metrics.QueueMetrics;
import io.coordinate.protocol.CommandParser;
import io.coordinate.protocol.Json;
import io.coordinate.storage.ReadableKeyValueStore;
import io.coordinate.streams.BoundedRocksDbMemory;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.rocksdb.Options;

/**
 * What a scrape of {@code /metrics} costs with many namespaces: the engine on RocksDB (the app's settings) fills
 * them, each spec with an available unit and each namespace with a worker holding one attempt; then each scrape reads
 * the queue gauges from the stores and writes the registry as Prometheus text, as {@code GET /metrics} does.
 */
public final class MetricsScrapeBenchmark {

    private static final long T0 = 1_800_000_000_000L;

    private final PrintStream out;

    public MetricsScrapeBenchmark(PrintStream out) {
        this.out = out;
    }

    /**
     * @param first the first scrape, which makes the meters
     * @param refreshMillis the gauges' read of the stores, median of the later scrapes
     * @param writeMillis the registry written as text, median of the later scrapes
     * @param listMillis of the read, the list of the namespaces alone, median of as many lists
     */
    public record Figures(
            int namespaces,
            int specs,
            long series,
            long queueSeries,
            long bytes,
            double firstMillis,
            double refreshMillis,
            double writeMillis,
            double listMillis) {}

    public Figures run(int namespaces, int specsPerNamespace, int scrapes) {
        Path dir = tempDir("coordinate-bench-metrics-");
        Consumer<Options> appSettings = options -> new BoundedRocksDbMemory().setConfig("bench", options, Map.of());
        try (RocksDbKeyValueStore records = new RocksDbKeyValueStore(dir.resolve("records"), appSettings);
                RocksDbKeyValueStore indexes = new RocksDbKeyValueStore(dir.resolve("indexes"), appSettings)) {
            SplitStore store = new SplitStore(records, indexes);
            fill(new Engine(store, new SplittableRandom(1)), namespaces, specsPerNamespace);
            PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            QueueMetrics metrics = new QueueMetrics(
                    registry, MetricsSettings.DEFAULT_MAX_SPECS, MetricsSettings.DEFAULT_MAX_NAMESPACES);
            AtomicLong clock = new AtomicLong(T0);
            List<ReadableKeyValueStore> stores = List.of(store);
            QueueGauges gauges = new QueueGauges(registry, metrics, () -> stores, clock::get, 1000);
            double first = 0;
            double[] refresh = new double[scrapes - 1];
            double[] write = new double[scrapes - 1];
            double[] list = new double[scrapes - 1];
            String text = "";
            for (int i = 0; i < scrapes; i++) {
                clock.addAndGet(2000); // past the gauges' minimum interval: every scrape reads the stores
                long start = System.nanoTime();
                gauges.refreshIfDue();
                long read = System.nanoTime();
                text = registry.scrape();
                long end = System.nanoTime();
                if (i == 0) {
                    first = (end - start) / 1e6;
                } else {
                    refresh[i - 1] = (read - start) / 1e6;
                    write[i - 1] = (end - read) / 1e6;
                    long listStart = System.nanoTime();
                    DbState.reader(store).namespaces().list();
                    list[i - 1] = (System.nanoTime() - listStart) / 1e6;
                }
                out.printf("scrape %d: read %.1f ms, written %.1f ms%n", i, (read - start) / 1e6, (end - read) / 1e6);
            }
            long series = text.lines()
                    .filter(line -> !line.startsWith("#") && !line.isBlank())
                    .count();
            long queueSeries =
                    text.lines().filter(line -> line.startsWith("coordinate_")).count();
            return new Figures(
                    namespaces,
                    namespaces * specsPerNamespace,
                    series,
                    queueSeries,
                    text.getBytes(StandardCharsets.UTF_8).length,
                    first,
                    median(refresh),
                    median(write),
                    median(list));
        } finally {
            deleteRecursively(dir);
        }
    }

    private void fill(Engine engine, int namespaces, int specsPerNamespace) {
        long start = System.nanoTime();
        for (int n = 0; n < namespaces; n++) {
            String ns = String.format("ns-%06d", n);
            for (int s = 0; s < specsPerNamespace; s++) {
                String spec = "spec-" + s;
                send(
                        engine,
                        ns,
                        command(ns, "set_work_spec")
                                .set("work_spec", Json.object().put("name", spec)));
                ObjectNode add = command(ns, "add_work_units").put("work_spec_name", spec);
                add.putArray("work_units").addObject().put("name", "u1");
                add.withArray("work_units").addObject().put("name", "u2");
                send(engine, ns, add);
            }
            send(engine, ns, command(ns, "request_attempts").put("worker", "w").put("count", 1));
            if ((n + 1) % 1000 == 0) {
                out.printf("%d namespaces filled in %.1f s%n", n + 1, (System.nanoTime() - start) / 1e9);
            }
        }
    }

    private static ObjectNode command(String ns, String name) {
        return Json.object().put("command", name).put("namespace", ns);
    }

    private static void send(Engine engine, String ns, ObjectNode body) {
        if (engine.process(CommandParser.parse(ns, Json.bytes(body)), T0).rejected()) {
            throw new IllegalStateException("rejected: " + body);
        }
    }

    private static double median(double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
