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
import io.coordinate.engine.OutRecord;
import io.coordinate.engine.state.db.SplitStore;
import io.coordinate.protocol.CommandParser;
import io.coordinate.protocol.Json;
import io.coordinate.streams.BoundedRocksDbMemory;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.rocksdb.Options;

/**
 * The engine's share of the lifecycle, without Kafka: the commands of (c) as bytes → parse → {@link Engine} on
 * two RocksDB stores (records and indexes, as the app keeps them) → every output record as JSON bytes. Units
 * are added in batches, then requested and finished in batches, one command after the other on this thread,
 * for several rounds; each round reports µs per unit of its add, request and finish commands. The first rounds
 * warm the JIT. What it leaves out (the changelog, the producer, Kafka Streams' store layers) is what (c) adds;
 * it is the quick, quiet measure of a change to the engine's hot path: one thread, no broker, no other load.
 */
public final class EngineLifecycleBenchmark {

    private final PrintStream out;
    private TimedStore store;

    public EngineLifecycleBenchmark(PrintStream out) {
        this.out = out;
    }

    /** One round: µs of engine work per unit for each command family, and in all; of it, in RocksDB's calls. */
    public record Round(double addMicros, double requestMicros, double finishMicros, double storeMicros) {
        public double totalMicros() {
            return addMicros + requestMicros + finishMicros;
        }
    }

    /**
     * @param inflight requests answered and not yet finished, oldest finished first: the app's lifecycle (c) keeps
     *     8 workers × 16 = 128 out, so its engine works with ~12,800 units started at any time (maps and block
     *     entries of that size); 1 finishes each request before the next
     */
    public List<Round> run(int units, int batch, int rounds, int inflight) {
        Path dir = tempDir("coordinate-bench-engine-");
        List<Round> measured = new ArrayList<>();
        // the app's RocksDB settings: the shared bounded cache and memtables, partitioned index and filters
        Consumer<Options> appSettings = options -> new BoundedRocksDbMemory().setConfig("bench", options, Map.of());
        try (RocksDbKeyValueStore records = new RocksDbKeyValueStore(dir.resolve("records"), appSettings);
                RocksDbKeyValueStore indexes = new RocksDbKeyValueStore(dir.resolve("indexes"), appSettings)) {
            store = new TimedStore(new SplitStore(records, indexes));
            Engine engine = new Engine(store, new SplittableRandom(1));
            long now = 1_800_000_000_000L;
            send(
                    engine,
                    now,
                    command("set_work_spec").set("work_spec", Json.object().put("name", "spec")));
            out.printf(
                    "%6s %12s %16s %15s %12s %16s%n",
                    "round", "add µs/unit", "request µs/unit", "finish µs/unit", "all µs/unit", "of it in RocksDB");
            for (int round = 0; round < rounds; round++) {
                Round r = round(engine, now + round * 60_000L, round, units, batch, inflight);
                measured.add(r);
                out.printf(
                        "%6d %12.2f %16.2f %15.2f %12.2f %16.2f%n",
                        round, r.addMicros(), r.requestMicros(), r.finishMicros(), r.totalMicros(), r.storeMicros());
            }
        } finally {
            deleteRecursively(dir);
        }
        return measured;
    }

    private Round round(Engine engine, long now, int round, int units, int batch, int inflight) {
        store.reset();
        long addNanos = 0;
        for (int first = 0; first < units; first += batch) {
            ObjectNode add = command("add_work_units").put("work_spec_name", "spec");
            ArrayNode list = add.putArray("work_units");
            for (int i = first; i < Math.min(units, first + batch); i++) {
                ObjectNode unit = list.addObject();
                unit.put("name", String.format("u-%d-%09d", round, i));
                unit.put("priority", i % 10);
                unit.putObject("data").put("i", i);
            }
            add.put("reply_to", "bench").put("request_id", "a-" + round + "-" + first);
            addNanos += timed(engine, now, add).nanos;
        }
        long requestNanos = 0;
        long finishNanos = 0;
        int done = 0;
        int requested = 0;
        ArrayDeque<JsonNode> outstanding = new ArrayDeque<>();
        for (int worker = 0; done < units; worker = (worker + 1) % 8) {
            while (requested < units && outstanding.size() < inflight) {
                ObjectNode request = command("request_attempts")
                        .put("worker", "w" + worker)
                        .put("count", batch)
                        .put("request_id", "q-" + round + "-" + requested); // as the lifecycle's workers send it
                Timed assigned = timed(engine, now, request);
                requestNanos += assigned.nanos;
                JsonNode attempts =
                        parse(assigned.result.assignments().get(0).json()).get("attempts");
                if (attempts.isEmpty()) {
                    throw new IllegalStateException("no attempts with " + (units - requested) + " units not started");
                }
                outstanding.add(attempts);
                requested += attempts.size();
            }
            JsonNode attempts = outstanding.remove();
            ObjectNode finish = command("finish_attempts");
            ArrayNode items = finish.putArray("attempts");
            for (JsonNode attempt : attempts) {
                items.addObject().set("attempt_id", attempt.get("attempt_id"));
            }
            finish.put("reply_to", "bench").put("request_id", "f-" + round + "-" + done);
            finishNanos += timed(engine, now, finish).nanos;
            done += attempts.size();
        }
        out.printf(
                "   RocksDB per unit: %.2f reads by key (%.2f µs), %.2f keys written in batches (%.2f µs)%n",
                (double) store.reads.calls / units,
                store.reads.nanos / 1e3 / units,
                (double) store.writes.calls / units,
                store.writes.nanos / 1e3 / units);
        store.readsByKind.forEach((kind, tally) -> out.printf(
                "     %-40s %5.2f per unit, %5.2f µs each%n",
                kind, (double) tally.calls / units, tally.nanos / 1e3 / tally.calls));
        out.printf(
                "   written per unit, by kind of key: %s%n",
                store.bytesWrittenByKind.entrySet().stream()
                        .map(e -> String.format(
                                Locale.ROOT,
                                "%s %.2f keys %.0f B",
                                e.getKey(),
                                (double) e.getValue().keys / units,
                                (double) e.getValue().bytes / units))
                        .collect(Collectors.joining(", ")));
        return new Round(
                addNanos / 1e3 / units,
                requestNanos / 1e3 / units,
                finishNanos / 1e3 / units,
                store.nanos / 1e3 / units);
    }

    private record Timed(EngineResult result, long nanos) {}

    /** Parse the command's bytes, apply it, write every output as bytes: what the stream thread does around it. */
    private Timed timed(Engine engine, long now, ObjectNode body) {
        store.command = body.get("command").asText();
        byte[] bytes = Json.bytes(body);
        long started = System.nanoTime();
        EngineResult result = engine.process(CommandParser.parse(EngineBench.NAMESPACE, bytes), now);
        long size = 0;
        for (List<OutRecord> records : List.of(result.events(), result.assignments(), result.replies())) {
            for (OutRecord record : records) {
                size += record.json().length;
            }
        }
        long nanos = System.nanoTime() - started;
        if (result.rejected() || size == 0) {
            throw new IllegalStateException("rejected: " + result.rejection());
        }
        return new Timed(result, nanos);
    }

    private static JsonNode parse(byte[] json) {
        try {
            return Json.parse(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
