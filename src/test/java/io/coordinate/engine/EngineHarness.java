package io.coordinate.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.handlers.UnitQuery;
import io.coordinate.engine.state.StateReader;
import io.coordinate.engine.state.codec.KeyFamily;
import io.coordinate.engine.state.codec.KeySpace;
import io.coordinate.engine.state.db.DbState;
import io.coordinate.engine.state.db.IndexRebuild;
import io.coordinate.engine.state.db.SplitStore;
import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.engine.state.model.WorkSpecRecord;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.engine.state.model.WorkerRecord;
import io.coordinate.engine.view.StateViews;
import io.coordinate.protocol.Command;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.Times;
import io.coordinate.storage.InMemoryKeyValueStore;
import io.coordinate.storage.KeyValueIterator;
import io.coordinate.storage.KeyValueStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A synchronous, fluent driver of the {@link Engine} for tests: an in-memory store, a clock that only moves
 * when told to, a seeded random source, commands built as JSON, chained commands fed back in (as the topology
 * does), every output captured, and reads through {@link StateReader} and {@link StateViews} (as HTTP does).
 */
public final class EngineHarness {

    /** Where every test's clock starts. */
    public static final Instant START = Instant.parse("2026-11-22T10:00:00Z");

    private static final String REPLY_TO = "test-client";

    /** Records and derived indexes in two stores, as in production (see {@link SplitStore}). */
    private final SplitStore store = new SplitStore(new InMemoryKeyValueStore(), new InMemoryKeyValueStore());

    private final long seed;
    private Engine engine;
    private long now = START.toEpochMilli();
    private String namespace = "ns";
    private String worker = "worker";
    private int requestCounter;

    private final List<ObjectNode> replies = new ArrayList<>();
    private final List<OutRecord> assignments = new ArrayList<>();
    private final List<ObjectNode> events = new ArrayList<>();
    private final List<ObjectNode> chainedCommands = new ArrayList<>();
    private final List<ObjectNode> results = new ArrayList<>();
    private final List<EngineResult> chainedRejections = new ArrayList<>();

    public EngineHarness() {
        this(42L);
    }

    public EngineHarness(long seed) {
        this.seed = seed;
        this.engine = new Engine(store, new Random(seed));
        IndexRebuildCheck.created(this);
    }

    /**
     * Replaces the engine by a new one on the same store, as a task opens one after a restore or a restart: what the
     * old one kept in memory is gone, and the new one knows only what it reads from the store.
     */
    public EngineHarness reopen() {
        this.engine = new Engine(store, new Random(seed));
        return this;
    }

    /** The engine the commands go to: the one of the store (an engine keeps what it knows of the store in memory). */
    public Engine engine() {
        return engine;
    }

    // --- setup ---

    /** Later commands and reads go to this namespace. */
    public EngineHarness namespace(String name) {
        this.namespace = name;
        return this;
    }

    public String namespace() {
        return namespace;
    }

    /** Later attempt requests are made by this worker. */
    public EngineHarness worker(String name) {
        this.worker = name;
        return this;
    }

    // --- clock ---

    public EngineHarness advance(Duration duration) {
        assertThat(duration.isNegative()).as("the clock only moves forward").isFalse();
        now += duration.toMillis();
        return this;
    }

    public EngineHarness advanceSeconds(long seconds) {
        return advance(Duration.ofSeconds(seconds));
    }

    public long now() {
        return now;
    }

    public String nowText() {
        return Times.format(now);
    }

    /** The time {@code offset} from now, as the wire writes it. */
    public String timeIn(Duration offset) {
        return Times.format(now + offset.toMillis());
    }

    // --- commands ---

    /**
     * Sends a command with the given fields ({@code "work_spec_name", "spec", ...}); values may be strings,
     * numbers, booleans, lists, {@link JsonNode}s, or JSON text wrapped with {@link #json}. Applies the
     * chained commands it produced. Returns the reply.
     */
    public Reply send(String command, Object... fields) {
        ObjectNode body = Json.object();
        body.put("command", command);
        body.put("namespace", namespace);
        body.put("request_id", "r-" + (++requestCounter));
        body.put("reply_to", REPLY_TO);
        for (int i = 0; i < fields.length; i += 2) {
            body.set((String) fields[i], toNode(fields[i + 1]));
        }
        return sendBody(body);
    }

    /** Sends a complete command body as it would arrive on the commands topic. */
    public Reply sendBody(ObjectNode body) {
        EngineResult result = process(Command.of(body));
        ObjectNode reply = result.replies().isEmpty()
                ? null
                : (ObjectNode) result.replies().get(0).value();
        applyChained(result);
        return new Reply(reply, result);
    }

    /** Runs the punctuator's time step (eager expiry and release), as the app does on wall-clock time. */
    public EngineResult punctuate() {
        EngineResult result = engine.advanceTime(now, Engine.TIME_STEP_BATCH);
        capture(result);
        return result;
    }

    private EngineResult process(Command command) {
        EngineResult result = engine.process(command, now);
        capture(result);
        return result;
    }

    private void applyChained(EngineResult first) {
        Deque<OutRecord> queue = new ArrayDeque<>(first.chained());
        while (!queue.isEmpty()) {
            OutRecord record = queue.removeFirst();
            ObjectNode body = (ObjectNode) record.value();
            assertThat(record.key()).isEqualTo(body.path("namespace").asText());
            chainedCommands.add(body);
            EngineResult result = process(Command.of(body));
            if (result.rejected()) {
                chainedRejections.add(result);
            }
            queue.addAll(result.chained());
        }
    }

    private void capture(EngineResult result) {
        result.replies().forEach(r -> {
            assertThat(r.key()).startsWith(REPLY_TO); // tests of several clients name them test-client-*
            replies.add((ObjectNode) r.value());
        });
        assignments.addAll(result.assignments());
        for (OutRecord batch : result.events()) {
            batch.value().get("events").forEach(e -> events.add((ObjectNode) e));
        }
        result.results().forEach(r -> {
            assertThat(r.key()).isEqualTo(r.value().get("namespace").asText());
            results.add((ObjectNode) r.value());
        });
    }

    // --- command shortcuts ---

    public ObjectNode setSpec(String specJson) {
        return send("set_work_spec", "work_spec", json(specJson)).ok();
    }

    public ObjectNode setSpecMeta(String spec, String metaJson) {
        return send("set_work_spec_meta", "work_spec_name", spec, "meta", json(metaJson))
                .ok();
    }

    /** Adds units with empty data and default meta. */
    public EngineHarness addUnits(String spec, String... names) {
        ArrayNode units = Json.MAPPER.createArrayNode();
        for (String name : names) {
            units.addObject().put("name", name);
        }
        send("add_work_units", "work_spec_name", spec, "work_units", units).ok();
        return this;
    }

    /** Adds units given as a JSON list of unit objects. */
    public EngineHarness addUnitsJson(String spec, String unitsJson) {
        send("add_work_units", "work_spec_name", spec, "work_units", json(unitsJson))
                .ok();
        return this;
    }

    /** A default request ({@code count} 1) by the current worker plus the given fields. */
    public List<Attempt> request(Object... fields) {
        Object[] all = new Object[fields.length + 2];
        all[0] = "worker";
        all[1] = worker;
        System.arraycopy(fields, 0, all, 2, fields.length);
        ObjectNode assignment = send("request_attempts", all).ok();
        assertThat(assignment.get("worker").asText()).isEqualTo(worker);
        List<Attempt> out = new ArrayList<>();
        for (JsonNode a : assignment.get("attempts")) {
            out.add(new Attempt(
                    a.get("attempt_id").asText(),
                    a.get("work_spec_name").asText(),
                    a.get("work_unit_name").asText(),
                    (ObjectNode) a));
        }
        return out;
    }

    /** A default request that must return exactly one attempt. */
    public Attempt requestOne(Object... fields) {
        List<Attempt> attempts = request(fields);
        assertThat(attempts).as("attempts of one request").hasSize(1);
        return attempts.get(0);
    }

    public void requestNone(Object... fields) {
        assertThat(request(fields))
                .as("attempts of a request that should find no work")
                .isEmpty();
    }

    public Reply finish(Attempt attempt) {
        return send("finish_attempt", "attempt_id", attempt.id());
    }

    public Reply finish(Attempt attempt, String dataJson) {
        return send("finish_attempt", "attempt_id", attempt.id(), "data", json(dataJson));
    }

    public Reply fail(Attempt attempt) {
        return send("fail_attempt", "attempt_id", attempt.id());
    }

    public Reply retry(Attempt attempt, long delaySeconds) {
        return send("retry_attempt", "attempt_id", attempt.id(), "delay", delaySeconds);
    }

    public Reply expire(Attempt attempt) {
        return send("expire_attempt", "attempt_id", attempt.id());
    }

    public Reply renew(Attempt attempt, long extendSeconds, String dataJson) {
        return send("renew_attempt", "attempt_id", attempt.id(), "extend", extendSeconds, "data", json(dataJson));
    }

    public Reply reset(String spec, String queryJson) {
        return send("reset_work_units", "work_spec_name", spec, "query", json(queryJson));
    }

    /**
     * The conformance tests' "order" (docs/architecture.md#conformance-tests): repeatedly advance 5 s, request one
     * attempt, expect it from {@code spec}, record its unit and finish it; stop when a request returns none.
     */
    public List<String> order(String spec) {
        List<String> names = new ArrayList<>();
        while (true) {
            advanceSeconds(5);
            List<Attempt> attempts = request();
            if (attempts.isEmpty()) {
                return names;
            }
            assertThat(attempts).hasSize(1);
            assertThat(attempts.get(0).spec()).isEqualTo(spec);
            names.add(attempts.get(0).unit());
            finish(attempts.get(0)).ok();
            assertThat(names.size()).as("order loop bound").isLessThan(1000);
        }
    }

    /**
     * The "seven units" fixture in {@code spec}, all at the current instant: {@code available} (no attempt),
     * {@code pending}, {@code finished}, {@code failed}, {@code expired}, {@code retryable} (delay 0) and
     * {@code delayed} (retried with a delay of 24 h). One request of six hands out the six to-be-attempted
     * units in name order.
     */
    public EngineHarness sevenUnits(String spec) {
        addUnits(spec, "pending", "finished", "failed", "expired", "retryable", "delayed");
        Map<String, Attempt> byName = new LinkedHashMap<>();
        request("count", 6, "work_specs", List.of(spec)).forEach(a -> byName.put(a.unit(), a));
        assertThat(byName.keySet()).containsExactly("delayed", "expired", "failed", "finished", "pending", "retryable");
        finish(byName.get("finished")).ok();
        fail(byName.get("failed")).ok();
        expire(byName.get("expired")).ok();
        retry(byName.get("retryable"), 0).ok();
        retry(byName.get("delayed"), Duration.ofHours(24).toSeconds()).ok();
        addUnits(spec, "available");
        return this;
    }

    // --- reads (through the same views as the HTTP queries) ---

    public StateReader reader() {
        return DbState.reader(store);
    }

    public StateViews views() {
        return new StateViews(reader(), namespace, now);
    }

    public List<String> namespaces() {
        return reader().namespaces().list();
    }

    public List<String> specNames() {
        return reader().specs().list(namespace).stream()
                .map(WorkSpecRecord::name)
                .toList();
    }

    /** The spec's JSON ({@code name, data, meta, counts}), or null when there is no such spec. */
    public ObjectNode spec(String name) {
        WorkSpecRecord spec = reader().specs().get(namespace, name);
        return spec == null ? null : views().spec(spec);
    }

    public ObjectNode meta(String spec) {
        ObjectNode node = spec(spec);
        assertThat(node).as("spec " + spec).isNotNull();
        return (ObjectNode) node.get("meta");
    }

    /** Counts by status now, zero counts omitted. */
    public ObjectNode counts(String spec) {
        return StateViews.counts(views().counts(spec));
    }

    /** Every spec with its counts now, as the summary query lists them: {@code [{"name", "counts"}]}. */
    public ArrayNode summary() {
        ArrayNode specs = Json.MAPPER.createArrayNode();
        for (WorkSpecRecord spec : reader().specs().list(namespace)) {
            specs.addObject().put("name", spec.name()).set("counts", counts(spec.name()));
        }
        return specs;
    }

    /** The unit's JSON, or null when there is no such unit. */
    public ObjectNode unit(String spec, String name) {
        WorkUnitRecord unit = reader().units().get(namespace, spec, name);
        return unit == null ? null : views().unit(unit);
    }

    public String status(String spec, String unit) {
        ObjectNode node = unit(spec, unit);
        assertThat(node).as("unit " + spec + "/" + unit).isNotNull();
        return node.get("status").asText();
    }

    public JsonNode unitData(String spec, String unit) {
        return unit(spec, unit).get("data");
    }

    /** Names of the units that match a query object (docs/reference.md#query-object), in name order. */
    public List<String> units(String spec, String queryJson) {
        return UnitQuery.parse(json(queryJson)).run(reader(), namespace, spec, now).stream()
                .map(WorkUnitRecord::name)
                .toList();
    }

    public ObjectNode workerView(String name) {
        WorkerRecord record = reader().workers().get(namespace, name);
        return record == null ? null : views().worker(record);
    }

    public ObjectNode attempt(String id) {
        AttemptRecord record = reader().attempts().get(namespace, Long.parseLong(id));
        return record == null ? null : views().attempt(record);
    }

    public ObjectNode attempt(Attempt attempt) {
        return attempt(attempt.id());
    }

    // --- captured output ---

    public List<ObjectNode> replies() {
        return replies;
    }

    public List<OutRecord> assignments() {
        return assignments;
    }

    public List<ObjectNode> events() {
        return events;
    }

    public List<String> eventTypes() {
        return events.stream().map(e -> e.get("type").asText()).toList();
    }

    public List<ObjectNode> chainedCommands() {
        return chainedCommands;
    }

    /** The assimilated records written to {@code coordinate.results} (docs/reference.md#assimilated-result), in order. */
    public List<ObjectNode> results() {
        return results;
    }

    public List<EngineResult> chainedRejections() {
        return chainedRejections;
    }

    /** Forgets the captured output, to look at what the next commands produce. */
    public EngineHarness clearCaptured() {
        replies.clear();
        assignments.clear();
        events.clear();
        chainedCommands.clear();
        results.clear();
        return this;
    }

    /** Every entry of the store (hex key → hex value), in key order: to show that nothing changed. */
    public Map<String, String> snapshot() {
        Map<String, String> all = new LinkedHashMap<>();
        HexFormat hex = HexFormat.of();
        try (KeyValueIterator it = store.range(new byte[] {0}, new byte[] {(byte) 0xFF, (byte) 0xFF})) {
            while (it.hasNext()) {
                KeyValueIterator.Entry e = it.next();
                all.put(hex.formatHex(e.key()), hex.formatHex(e.value()));
            }
        }
        return all;
    }

    /**
     * {@link #snapshot} without the answers kept for repeated request ids ({@code 'R'} records and their {@code 09}
     * expiry entries): to show that a command that answered ok changed nothing else.
     */
    public Map<String, String> stateSnapshot() {
        Map<String, String> all = snapshot();
        all.keySet()
                .removeIf(key -> key.startsWith("09")
                        || KeyFamily.kind(HexFormat.of().parseHex(key)).equals("R"));
        return all;
    }

    public SplitStore store() {
        return store;
    }

    /**
     * A copy of the records and the indexes as they are now: an engine over it, as after a reopen, runs a command or a
     * time step on the side and leaves this harness as it is.
     */
    public SplitStore storeCopy() {
        return new SplitStore(copyOf(store.records()), copyOf(store.indexes()));
    }

    /** Every entry of {@code from}, in a new in-memory store. */
    public static InMemoryKeyValueStore copyOf(KeyValueStore from) {
        InMemoryKeyValueStore to = new InMemoryKeyValueStore();
        try (KeyValueIterator it = from.range(new byte[0], KeySpace.prefixEnd(new byte[0]))) {
            while (it.hasNext()) {
                KeyValueIterator.Entry e = it.next();
                to.put(e.key(), e.value());
            }
        }
        return to;
    }

    /**
     * The indexes kept up command by command equal the ones {@link IndexRebuild} derives from the records alone,
     * but for time-index entries of deleted units, which the live store keeps until its time step drops them.
     * {@link IndexRebuildCheck} runs this after every test that made a harness.
     */
    public void assertIndexesRebuildable() {
        InMemoryKeyValueStore rebuilt = new InMemoryKeyValueStore();
        IndexRebuild.rebuild(store.records(), rebuilt);
        Map<String, String> live = entries(store.indexes());
        Map<String, String> derived = entries(rebuilt);
        derived.remove(HexFormat.of().formatHex(KeySpace.indexVersion()));
        derived.remove(HexFormat.of().formatHex(KeySpace.indexLayout()));
        assertThat(live).as("live indexes contain every rebuilt entry").containsAllEntriesOf(derived);
        Map<String, String> extra = new LinkedHashMap<>(live);
        extra.keySet().removeAll(derived.keySet());
        // time-index entries outlive their records (a deleted unit, a destroyed namespace's kept answers) until the
        // time
        // step drops them
        extra.keySet()
                .removeIf(key ->
                        key.startsWith("03") || key.startsWith("04") || key.startsWith("05") || key.startsWith("09"));
        assertThat(extra).as("live index entries that the records do not imply").isEmpty();
    }

    private static Map<String, String> entries(KeyValueStore kv) {
        Map<String, String> all = new LinkedHashMap<>();
        HexFormat hex = HexFormat.of();
        try (KeyValueIterator it = kv.range(new byte[0], KeySpace.prefixEnd(new byte[0]))) {
            while (it.hasNext()) {
                KeyValueIterator.Entry e = it.next();
                all.put(hex.formatHex(e.key()), hex.formatHex(e.value()));
            }
        }
        return all;
    }

    // --- JSON helpers ---

    /** Marks text as JSON for {@link #send}. */
    public static JsonNode json(String text) {
        return Json.parse(text);
    }

    /**
     * A form of a JSON value for exact comparison: numbers compare by their written form (a stored long 20 and
     * a parsed int 20 are equal; 20 and 20.0 are not), objects ignore field order.
     */
    public static JsonNode normalized(JsonNode node) {
        return node == null ? null : Json.parse(Json.text(node));
    }

    /** Asserts that {@code actual} is exactly the JSON {@code expected} (see {@link #normalized}). */
    public static void assertJson(JsonNode actual, String expected) {
        assertThat(normalized(actual)).isEqualTo(json(expected));
    }

    private static JsonNode toNode(Object value) {
        if (value instanceof JsonNode node) {
            return node;
        }
        return Json.MAPPER.valueToTree(value);
    }

    /** An attempt handed out by {@code request_attempts}, as the assignment lists it. */
    public record Attempt(String id, String spec, String unit, ObjectNode assignmentItem) {}

    /** The reply to a command, plus everything it produced. */
    public record Reply(ObjectNode json, EngineResult result) {

        /** Asserts an ok reply and returns its result. */
        public ObjectNode ok() {
            assertThat(json).as("reply").isNotNull();
            assertThat(json.get("ok").asBoolean()).as("ok reply, got %s", json).isTrue();
            return (ObjectNode) json.get("result");
        }

        /** Asserts an error reply and returns its code. */
        public String errorCode() {
            assertThat(json).as("reply").isNotNull();
            assertThat(json.get("ok").asBoolean())
                    .as("error reply, got %s", json)
                    .isFalse();
            return json.get("error").get("code").asText();
        }
    }
}
