package io.coordinate.bench;

import static io.coordinate.bench.EngineBench.command;
import static io.coordinate.bench.EngineBench.deleteRecursively;
import static io.coordinate.bench.EngineBench.send;
import static io.coordinate.bench.EngineBench.tempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.Engine;
import io.coordinate.engine.EngineResult;
import io.coordinate.engine.state.db.IndexRebuild;
import io.coordinate.engine.state.db.SplitStore;
import io.coordinate.protocol.Command;
import io.coordinate.protocol.Json;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The cost of {@code request_attempts} as a spec grows: the engine on a real RocksDB store (no Kafka), one
 * spec holding N units with mixed priorities; after each request its units are finished and added again
 * (untimed), so the available index keeps its size. A request reads the first {@code count} keys
 * of the available index, so its cost must not grow with N. Figures are reported against the smallest size
 * measured in the same run. Last, each size times a rebuild of its indexes from its records ({@link IndexRebuild}):
 * how long a task that lost its local state works before it runs again. With groups, unit {@code i} is in group
 * {@code i mod groups} (docs/reference.md#concurrency-groups), so that requests take units round robin among them.
 */
public final class RequestCostBenchmark {

    private static final int ADD_BATCH = 10_000;

    private final PrintStream out;
    /** Concurrency groups of the spec's units; 0: none. */
    private final int groups;

    public RequestCostBenchmark(PrintStream out) {
        this(out, 0);
    }

    public RequestCostBenchmark(PrintStream out, int groups) {
        this.out = out;
        this.groups = groups;
    }

    /** Unit {@code i}'s object: its name, its priority, its group if the spec's units have groups. */
    private ObjectNode unit(ArrayNode units, int i, int priority) {
        ObjectNode unit = units.addObject();
        unit.put("name", String.format("unit-%09d", i));
        unit.put("priority", priority);
        if (groups > 0) {
            unit.put("group", "g-" + i % groups);
        }
        return unit;
    }

    /** One measured size. */
    public record Figure(
            int units,
            double addUnitsPerSecond,
            double microsPerRequest1,
            double microsPerRequest100,
            double rebuildSeconds) {}

    public List<Figure> run(List<Integer> sizes, int requests) {
        List<Figure> figures = new ArrayList<>();
        measure(sizes.get(0), requests); // warm-up: the JIT compiles the engine; not reported
        out.printf(
                "%12s %14s %18s %20s %12s %12s %14s%n",
                "units",
                "add units/s",
                "request(1) µs",
                "request(100) µs",
                "x(1) vs 1st",
                "x(100) vs 1st",
                "index rebuild s");
        for (int size : sizes) {
            Figure figure = measure(size, requests);
            figures.add(figure);
            Figure base = figures.get(0);
            out.printf(
                    "%12d %14.0f %18.1f %20.1f %12.2f %12.2f %14.1f%n",
                    size,
                    figure.addUnitsPerSecond(),
                    figure.microsPerRequest1(),
                    figure.microsPerRequest100(),
                    figure.microsPerRequest1() / base.microsPerRequest1(),
                    figure.microsPerRequest100() / base.microsPerRequest100(),
                    figure.rebuildSeconds());
        }
        return figures;
    }

    private Figure measure(int size, int requests) {
        Path dir = tempDir("coordinate-bench-");
        // records and indexes in two RocksDB instances, as the app keeps them (SplitStore)
        try (RocksDbKeyValueStore records = new RocksDbKeyValueStore(dir.resolve("records"));
                RocksDbKeyValueStore indexes = new RocksDbKeyValueStore(dir.resolve("indexes"))) {
            Engine engine = new Engine(new SplitStore(records, indexes), new SplittableRandom(1));
            long now = 1_800_000_000_000L;
            send(
                    engine,
                    now,
                    command("set_work_spec").set("work_spec", Json.object().put("name", "spec")));
            SplittableRandom random = new SplittableRandom(42);
            long started = System.nanoTime();
            for (int first = 0; first < size; first += ADD_BATCH) {
                ObjectNode add = command("add_work_units");
                add.put("work_spec_name", "spec");
                ArrayNode units = add.putArray("work_units");
                for (int i = first; i < Math.min(size, first + ADD_BATCH); i++) {
                    unit(units, i, random.nextInt(10)).putObject("data").put("i", i);
                }
                send(engine, now, add);
            }
            double addRate = size / ((System.nanoTime() - started) / 1e9);
            records.compact(); // measure the steady state, not the bulk load's compactions
            indexes.compact();
            double cost1 = requestCost(engine, now, 1, requests);
            double cost100 = requestCost(engine, now, 100, Math.max(10, requests / 10));
            started = System.nanoTime();
            IndexRebuild.rebuild(records, indexes); // what a task that lost its local state does before it runs
            double rebuildSeconds = (System.nanoTime() - started) / 1e9;
            return new Figure(size, addRate, cost1, cost100, rebuildSeconds);
        } finally {
            deleteRecursively(dir);
        }
    }

    /**
     * Mean µs of one request of {@code count} units. Untimed after each request: its attempts are finished and
     * the units added again, so the spec keeps {@code size} available units throughout.
     */
    private double requestCost(Engine engine, long now, int count, int requests) {
        ObjectNode request = command("request_attempts");
        request.put("worker", "w").put("count", count);
        long timed = 0;
        for (int i = -requests / 5; i < requests; i++) { // the first fifth warms up and is not counted
            long started = System.nanoTime();
            EngineResult result = engine.process(Command.of(request), now);
            long elapsed = System.nanoTime() - started;
            if (i >= 0) {
                timed += elapsed;
            }
            JsonNode attempts = result.assignments().get(0).value().get("attempts");
            if (attempts.size() != count) {
                throw new IllegalStateException("expected " + count + " attempts, got " + attempts.size());
            }
            ObjectNode again = command("add_work_units");
            again.put("work_spec_name", "spec");
            ArrayNode units = again.putArray("work_units");
            for (JsonNode attempt : attempts) {
                ObjectNode finish = command("finish_attempt");
                finish.put("attempt_id", attempt.get("attempt_id").asText());
                engine.process(Command.of(finish), now);
                int unit =
                        Integer.parseInt(attempt.get("work_unit_name").asText().substring("unit-".length()));
                unit(units, unit, i % 10);
            }
            send(engine, now, again);
        }
        return timed / 1e3 / requests;
    }
}
