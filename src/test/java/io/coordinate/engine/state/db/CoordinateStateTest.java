package io.coordinate.engine.state.db;

import static io.coordinate.engine.EngineHarness.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.engine.EngineHarness;
import io.coordinate.engine.EngineHarness.Attempt;
import io.coordinate.engine.family.UnitTransitions;
import io.coordinate.engine.state.CoordinateState;
import io.coordinate.engine.state.StateReader;
import io.coordinate.engine.state.codec.AttemptKeys;
import io.coordinate.engine.state.codec.FamilyKeys;
import io.coordinate.engine.state.codec.KeyFamily;
import io.coordinate.engine.state.codec.KeySpace;
import io.coordinate.engine.state.codec.NamespaceKeys;
import io.coordinate.engine.state.codec.TimeIndexKeys;
import io.coordinate.engine.state.codec.UnitKeys;
import io.coordinate.engine.state.codec.UnitValue;
import io.coordinate.engine.state.codec.ValueCodec;
import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.engine.state.model.AttemptStatus;
import io.coordinate.engine.state.model.ChildState;
import io.coordinate.engine.state.model.Replica;
import io.coordinate.engine.state.model.ReplicationState;
import io.coordinate.engine.state.model.UnitFamily;
import io.coordinate.engine.state.model.UnitRef;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.engine.state.model.WorkSpecRecord;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.engine.state.model.WorkerRecord;
import io.coordinate.storage.KeyValueIterator;
import io.coordinate.storage.RecordingStore;
import io.coordinate.storage.WriteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every index of {@link KeyFamily} stays exact through every transition of {@link CoordinateState}: after each
 * command the indexes, read through {@link StateReader} and raw key scans, equal what the records imply.
 */
class CoordinateStateTest {

    private static final String NS = "ns";

    private final EngineHarness h = new EngineHarness().namespace(NS);

    @Test
    void unitAndAttemptLifecycleKeepsEveryIndexExact() {
        h.setSpec("{\"name\":\"spec\"}");
        h.addUnitsJson(
                "spec",
                "[{\"name\":\"a\",\"priority\":5},{\"name\":\"b\"},{\"name\":\"c\",\"priority\":-1.5},"
                        + "{\"name\":\"d\"},{\"name\":\"e\"},{\"name\":\"later\",\"delay\":30}]");
        check();
        assertThat(h.reader().units().bestAvailable(NS, "spec", 10)).containsExactly("a", "b", "d", "e", "c");
        assertThat(h.reader().timeIndexes().dueDelayedUnits(h.now() + 30_000, 10))
                .containsExactly(new TimeIndexKeys.DelayedUnitKey(h.now() + 30_000, NS, "spec", "later"));

        List<Attempt> batch = h.request("count", 4);
        assertThat(batch).extracting(Attempt::unit).containsExactly("a", "b", "d", "e");
        check();
        assertThat(h.reader().timeIndexes().dueAttemptDeadlines(Long.MAX_VALUE, 10))
                .hasSize(4);

        h.renew(batch.get(0), 60, "{\"x\":1}").ok(); // moves its deadline
        check();
        h.finish(batch.get(0)).ok();
        check();
        h.fail(batch.get(1)).ok();
        check();
        h.retry(batch.get(2), 100).ok(); // d: delayed
        check();
        h.expire(batch.get(3)).ok(); // e: available again
        check();

        h.advanceSeconds(40); // "later" is due; the next command's time step releases it
        assertThat(h.reader().units().get(NS, "spec", "later").status())
                .as("stored, before the time step")
                .isEqualTo(UnitStatus.DELAYED);
        Attempt onE = h.request("count", 2).get(0);
        check();
        assertThat(h.reader().units().get(NS, "spec", "later").status()).isEqualTo(UnitStatus.PENDING);

        h.advance(Duration.ofMinutes(20)); // the two pending attempts expire, d is released
        h.punctuate();
        check();
        assertThat(h.reader().units().counts(NS, "spec"))
                .isEqualTo(Map.of(UnitStatus.AVAILABLE, 4L, UnitStatus.FINISHED, 1L, UnitStatus.FAILED, 1L));
        assertThat(h.reader().attempts().get(NS, Long.parseLong(onE.id())).status())
                .isEqualTo(AttemptStatus.EXPIRED);

        h.reset("spec", "{\"statuses\":[\"finished\",\"failed\"]}").ok();
        check();
        h.send(
                        "prioritize_work_units",
                        "work_spec_name",
                        "spec",
                        "query",
                        json("{\"names\":[\"c\"]}"),
                        "adjustment",
                        100)
                .ok();
        check();
        assertThat(h.reader().units().bestAvailable(NS, "spec", 1)).containsExactly("c");

        Attempt pending = h.requestOne();
        h.addUnitsJson("spec", "[{\"name\":\"c\",\"data\":{\"v\":2}},{\"name\":\"a\",\"delay\":10}]"); // c pending
        check();
        assertThat(h.reader().units().get(NS, "spec", "c").status()).isEqualTo(UnitStatus.PENDING);
        assertThat(h.reader().units().get(NS, "spec", "a").status()).isEqualTo(UnitStatus.DELAYED);

        h.send("delete_work_units", "work_spec_name", "spec", "query", json("{\"names\":[\"c\",\"a\"]}"))
                .ok();
        check();
        assertThat(h.reader().attempts().get(NS, Long.parseLong(pending.id()))).isNull();
        assertThat(h.reader().attempts().ofWorker(NS, "worker"))
                .extracting(AttemptRecord::unit)
                .doesNotContain("c", "a");
    }

    @Test
    void aRequestReadsTheUnitsItHandsOutFromTheAvailableIndex() {
        h.setSpec("{\"name\":\"spec\"}");
        h.addUnits("spec", "a", "b", "c");
        h.expire(h.requestOne()).ok(); // a holds its expired attempt: its entry carries no value
        RecordingStore recorded = new RecordingStore(h.store(), HexFormat.of()::formatHex, false);
        StateReader reader = DbState.reader(new WriteBuffer(recorded));

        assertThat(reader.units().bestAvailable(NS, "spec", 3)).containsExactly("a", "b", "c");
        assertThat(reader.units().get(NS, "spec", "b").status()).isEqualTo(UnitStatus.AVAILABLE);
        assertThat(reader.units().get(NS, "spec", "c").name()).isEqualTo("c");
        assertThat(recorded.reads).as("b and c came with the scan").isEmpty();
        assertThat(reader.units().get(NS, "spec", "a").attemptCount()).isEqualTo(1);
        assertThat(recorded.reads).containsExactly(HexFormat.of().formatHex(UnitKeys.unit(NS, "spec", "a")));
    }

    @Test
    void aBatchOfCloseNamesIsReadInOneScanAndSpreadNamesOneByOne() {
        h.setSpec("{\"name\":\"spec\"}");
        h.addUnits("spec", "u-02", "u-04");
        RecordingStore recorded = new RecordingStore(h.store(), HexFormat.of()::formatHex, false);
        StateReader reader = DbState.reader(new WriteBuffer(recorded));

        reader.units().prefetch(NS, "spec", List.of("u-03", "u-01", "u-02", "u-04"));

        assertThat(reader.units().get(NS, "spec", "u-01")).isNull();
        assertThat(reader.units().get(NS, "spec", "u-02").name()).isEqualTo("u-02");
        assertThat(reader.units().get(NS, "spec", "u-03")).isNull();
        assertThat(reader.units().get(NS, "spec", "u-04").name()).isEqualTo("u-04");
        assertThat(recorded.reads).as("all four came with the scan").isEmpty();

        h.addUnits("spec", "v-1", "v-2", "v-3", "v-4", "v-5"); // between w-0 and w-9: more others than the batch
        StateReader spread = DbState.reader(new WriteBuffer(recorded));
        spread.units().prefetch(NS, "spec", List.of("u-00", "w-9"));
        assertThat(spread.units().get(NS, "spec", "u-00")).isNull();
        assertThat(spread.units().get(NS, "spec", "w-9")).isNull();
        assertThat(recorded.reads).as("read by key").hasSize(2);
    }

    @Test
    void theAttemptsOfOneRequestFindTheirUnitsThroughOneBlockEntry() {
        h.setSpec("{\"name\":\"spec\"}");
        h.addUnits("spec", "a", "b", "c");
        List<Long> seqs = h.request("count", 3).stream()
                .map(attempt -> Long.parseLong(attempt.id()))
                .toList();
        assertThat(seqs).containsExactly(1L, 2L, 3L);
        RecordingStore recorded = new RecordingStore(h.store(), HexFormat.of()::formatHex, false);
        StateReader reader = DbState.reader(new WriteBuffer(recorded));

        assertThat(seqs.stream().map(seq -> reader.attempts().get(NS, seq).unit()))
                .containsExactly("a", "b", "c");
        // a reader without the engine's map of started units (a query's) scans the started-units entries besides
        assertThat(recorded.reads)
                .as("the block's entry once, then the units by key")
                .containsExactly(
                        HexFormat.of().formatHex(AttemptKeys.attemptUnitsBlock(NS, 0)),
                        HexFormat.of().formatHex(UnitKeys.unit(NS, "spec", "a")),
                        HexFormat.of().formatHex(UnitKeys.unit(NS, "spec", "b")),
                        HexFormat.of().formatHex(UnitKeys.unit(NS, "spec", "c")));
        assertThat(reader.units().get(NS, "spec", "b").status())
                .as("the record with what the start added")
                .isEqualTo(UnitStatus.PENDING);
    }

    @Test
    void aPendingUnitComesWithItsAttemptsBlockEntriesUntilItsAttemptEnds() {
        h.setSpec("{\"name\":\"spec\"}");
        h.addUnits("spec", "a", "b", "c");
        List<Attempt> started = h.request("count", 3);
        RecordingStore recorded = new RecordingStore(h.store(), HexFormat.of()::formatHex, false);
        CoordinateState state = DbState.over(new WriteBuffer(recorded));

        assertThat(Stream.of(1L, 2L, 3L)
                        .map(seq -> state.attempts().get(NS, seq).unit()))
                .containsExactly("a", "b", "c");
        assertThat(state.units().get(NS, "spec", "b").status()).isEqualTo(UnitStatus.PENDING);
        assertThat(recorded.reads)
                .as("the block's entry carries the pending units' records: no unit read by key")
                .containsExactly(HexFormat.of().formatHex(AttemptKeys.attemptUnitsBlock(NS, 0)));
        assertThat(carried(1)).isEqualTo(unitValue("a"));
        assertThat(carried(2)).isEqualTo(unitValue("b"));
        assertThat(ValueCodec.decode(unitValue("a"), WorkUnitRecord.class).status())
                .as("a start writes the record")
                .isEqualTo(UnitStatus.PENDING);
        assertThat(UnitValue.attemptSeq(unitValue("a"))).isEqualTo(1);

        h.finish(started.get(1)).ok();

        assertThat(carried(2)).as("finished: nothing to carry").isNull();
        assertThat(h.store().get(UnitKeys.unit(NS, "spec", "b"))).isEqualTo(unitValue("b"));
        assertThat(carried(1)).isEqualTo(unitValue("a"));
        byte[] beforeRenewal = carried(1);
        h.advanceSeconds(5).renew(started.get(0), 900, "{\"step\":2}").ok();
        assertThat(carried(1))
                .as("renewed: the value with the new lease")
                .isNotEqualTo(beforeRenewal)
                .isEqualTo(unitValue("a"))
                .isEqualTo(h.store().get(UnitKeys.unit(NS, "spec", "a")));
        check();
    }

    @Test
    void aUnitStartingAnotherAttemptWhilePendingMovesItsValueToTheNewAttemptsEntry() {
        h.setSpec("{\"name\":\"spec\"}");
        h.addUnits("spec", "a");
        h.request("count", 1);
        WriteBuffer buffer = new WriteBuffer(h.store());
        DbState state = DbState.over(buffer);
        // as a replica's start does (docs/replication.md): the unit is pending on attempt 1 when attempt 2 starts
        AttemptRecord second = UnitTransitions.startAttempt(
                state.attempts(), NS, state.units().get(NS, "spec", "a"), "worker", 60_000, h.now());
        state.flush();
        buffer.commit();
        h.reopen(); // the store was written beside the harness's engine

        assertThat(carried(1))
                .as("the unit's value holds attempt 2 now: attempt 1's entry carries nothing")
                .isNull();
        assertThat(second.seq()).isEqualTo(2);
        assertThat(carried(2)).isEqualTo(unitValue("a"));
        assertThat(h.store().get(UnitKeys.unit(NS, "spec", "a"))).isEqualTo(unitValue("a"));
        check();
    }

    /** The unit's record: its value (see {@link UnitValue}). */
    private byte[] unitValue(String unit) {
        return h.store().records().get(UnitKeys.unit(NS, "spec", unit));
    }

    /** The value the units entry of attempt {@code seq} (block 0) carries, or null. */
    private byte[] carried(long seq) {
        byte[][] keys = new byte[64][];
        byte[][] values = new byte[64][];
        AttemptBlockValues.decodeUnits(h.store().get(AttemptKeys.attemptUnitsBlock(NS, 0)), keys, values);
        return values[(int) seq];
    }

    @Test
    void aRequestWritesOneEntryPerBlockOfItsAttemptsAndTheirFinishDeletesThem() {
        addSeventyUnits();
        List<Attempt> started = h.request("count", 70);
        assertThat(started).extracting(Attempt::id).first().isEqualTo("1");
        assertThat(started).extracting(Attempt::id).last().isEqualTo("70");
        long expiration = h.reader().attempts().get(NS, 1).expirationTime();
        check();

        // attempts 1-63 in block 0, 64-70 in block 1
        assertThat(keys(AttemptKeys.workerAttempts(NS, "worker")))
                .extracting(HexFormat.of()::formatHex)
                .containsExactly(
                        HexFormat.of().formatHex(AttemptKeys.workerAttemptBlock(NS, "worker", 0)),
                        HexFormat.of().formatHex(AttemptKeys.workerAttemptBlock(NS, "worker", 1)));
        assertThat(AttemptBlockValues.decodeBits(h.store().get(AttemptKeys.workerActiveBlock(NS, "worker", 0))))
                .isEqualTo(-2L); // every bit but 0: there is no attempt 0
        assertThat(AttemptBlockValues.decodeBits(h.store().get(AttemptKeys.workerActiveBlock(NS, "worker", 1))))
                .isEqualTo(0x7FL);
        assertThat(AttemptBlockValues.decodeBits(h.store().get(TimeIndexKeys.attemptDeadlineBlock(expiration, NS, 1))))
                .isEqualTo(0x7FL);
        assertThat(AttemptBlockValues.unitKeyIn(h.store().get(AttemptKeys.attemptUnitsBlock(NS, 1)), 70))
                .isEqualTo(UnitKeys.unit(NS, "spec", "u69"));

        h.finish(started.get(69)).ok();
        assertThat(AttemptBlockValues.decodeBits(h.store().get(AttemptKeys.workerActiveBlock(NS, "worker", 1))))
                .isEqualTo(0x3FL);
        check();
        for (Attempt attempt : started.subList(0, 69)) {
            h.finish(attempt).ok();
        }
        check();
        assertThat(keys(AttemptKeys.workerActiveAttempts(NS, "worker"))).isEmpty();
        assertThat(h.reader().timeIndexes().dueAttemptDeadlines(Long.MAX_VALUE, 10))
                .isEmpty();
        assertThat(keys(AttemptKeys.workerAttempts(NS, "worker"))).hasSize(2);
        assertThat(h.reader().attempts().ofWorker(NS, "worker")).hasSize(70);
    }

    /** Units u00-u69 in "spec": a request for all of them fills attempt blocks 0 (1-63) and 1 (64-70). */
    private void addSeventyUnits() {
        h.setSpec("{\"name\":\"spec\"}");
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 70; i++) {
            names.add(String.format("u%02d", i));
        }
        h.addUnits("spec", names.toArray(String[]::new));
    }

    @Test
    void dueDeadlinesComeInAttemptOrderUpToTheLimitAcrossBlocks() {
        addSeventyUnits();
        h.request("count", 70);
        long after = h.reader().attempts().get(NS, 1).expirationTime() + 1;

        assertThat(h.reader().timeIndexes().dueAttemptDeadlines(after, 1))
                .extracting(TimeIndexKeys.AttemptDeadlineKey::attemptSeq)
                .containsExactly(1L);
        assertThat(h.reader().timeIndexes().dueAttemptDeadlines(after, 65))
                .extracting(TimeIndexKeys.AttemptDeadlineKey::attemptSeq)
                .containsExactlyElementsOf(LongStream.rangeClosed(1, 65).boxed().toList());
        assertThat(h.reader().timeIndexes().dueAttemptDeadlines(after, 100)).hasSize(70);
        assertThat(h.reader().timeIndexes().dueAttemptDeadlines(after - 1, 100))
                .as("expiration == now is alive")
                .isEmpty();
    }

    @Test
    void maxRetriesAndContinuousUnitsKeepEveryIndexExact() {
        h.setSpec("{\"name\":\"retries\",\"max_retries\":1,\"priority\":1}");
        h.setSpec("{\"name\":\"loop\",\"continuous\":true,\"interval\":10}");
        h.addUnits("retries", "r1", "r2");
        h.request("count", 2);
        check();
        h.advance(Duration.ofHours(1));
        assertThat(h.request("count", 2)).extracting(Attempt::spec).containsExactly("loop"); // both auto-failed
        check();
        assertThat(h.reader().units().counts(NS, "retries")).isEqualTo(Map.of(UnitStatus.FAILED, 2L));
        assertThat(h.reader().units().counts(NS, "loop")).isEqualTo(Map.of(UnitStatus.PENDING, 1L));
    }

    @Test
    void replicasAndRetentionKeepEveryIndexExact() {
        h.setSpec("{\"name\":\"rep\",\"min_quorum\":2,\"target_nresults\":3,\"delay_bound\":60,\"retention\":600}");
        h.addUnits("rep", "x", "y");
        for (String host : List.of("h1", "h2", "h3", "h4")) {
            h.send("worker_heartbeat", "worker", "w" + host, "parent", host).ok();
        }
        check();
        List<Attempt> x = new ArrayList<>();
        for (String host : List.of("h1", "h2", "h3")) {
            x.addAll(h.worker("w" + host).request("count", 2));
            check();
        }
        assertThat(h.reader().units().counts(NS, "rep")).isEqualTo(Map.of(UnitStatus.PENDING, 2L));
        h.renew(x.get(0), 30, "{}").ok();
        check();
        h.fail(x.get(1)).ok(); // y needs another replica
        check();
        assertThat(h.reader().units().bestAvailable(NS, "rep", 10)).containsExactly("y");
        h.send("finish_attempt", "attempt_id", x.get(0).id(), "data", json("{\"result\":1}"))
                .ok();
        h.send("finish_attempt", "attempt_id", x.get(2).id(), "data", json("{\"result\":1}"))
                .ok();
        check();
        assertThat(h.reader().units().get(NS, "rep", "x").status()).isEqualTo(UnitStatus.FINISHED);
        assertThat(h.reader().timeIndexes().duePurges(Long.MAX_VALUE - 1, 10)).hasSize(1);
        h.advanceSeconds(61); // y's replicas time out
        h.punctuate();
        check();
        h.send("cancel_work_units", "work_spec_name", "rep").ok();
        check();
        h.reset("rep", "{\"names\":[\"x\"]}").ok();
        check();
        assertThat(h.reader().timeIndexes().duePurges(Long.MAX_VALUE - 1, 10)).hasSize(1);
        h.advance(Duration.ofMinutes(10));
        h.punctuate();
        check();
        assertThat(h.reader().units().get(NS, "rep", "y")).isNull();
        assertThat(h.reader().units().get(NS, "rep", "x").status()).isEqualTo(UnitStatus.AVAILABLE);
    }

    @Test
    void workerParentChangesKeepTheChildIndexExact() {
        h.send("worker_heartbeat", "worker", "p1").ok();
        h.send("worker_heartbeat", "worker", "p2").ok();
        h.send("worker_heartbeat", "worker", "c", "parent", "p1").ok();
        check();
        assertThat(h.reader().workers().children(NS, "p1")).containsExactly("c");
        h.send("worker_heartbeat", "worker", "c", "parent", "p2").ok();
        check();
        assertThat(h.reader().workers().children(NS, "p1")).isEmpty();
        assertThat(h.reader().workers().children(NS, "p2")).containsExactly("c");
        h.send("worker_heartbeat", "worker", "c").ok(); // no parent given: kept
        h.send("deactivate_worker", "worker", "c").ok();
        check();
        assertThat(h.reader().workers().children(NS, "p2")).containsExactly("c");
    }

    @Test
    void deletingASpecRemovesItsKeysAndTheTimeStepDropsStaleTimeEntries() {
        h.setSpec("{\"name\":\"spec\"}");
        h.setSpec("{\"name\":\"other\"}");
        h.addUnitsJson("spec", "[{\"name\":\"p\"},{\"name\":\"d\",\"delay\":60}]");
        h.addUnits("other", "o");
        h.requestOne("work_specs", List.of("spec"));
        check();

        h.send("delete_work_spec", "work_spec_name", "spec").ok();
        check();
        for (byte[] prefix : List.of(
                UnitKeys.units(NS, "spec"),
                UnitKeys.availableUnits(NS, "spec"),
                UnitKeys.counts(NS, "spec"),
                AttemptKeys.unitAttempts(NS, "spec", "p"),
                AttemptKeys.workerActiveAttempts(NS, "worker"),
                AttemptKeys.workerAttempts(NS, "worker"))) {
            assertThat(keys(prefix)).isEmpty();
        }
        assertThat(h.reader().timeIndexes().dueAttemptDeadlines(Long.MAX_VALUE, 10))
                .isEmpty();
        assertThat(h.reader().timeIndexes().dueDelayedUnits(Long.MAX_VALUE - 1, 10))
                .as("left for the time step")
                .hasSize(1);

        h.advanceSeconds(61);
        h.punctuate();
        assertThat(h.reader().timeIndexes().dueDelayedUnits(Long.MAX_VALUE - 1, 10))
                .isEmpty();
        assertThat(h.events()).extracting(e -> e.get("type").asText()).last().isEqualTo("work_spec_deleted");
        check();
    }

    @Test
    void destroyingANamespaceLeavesOthersAndKeepsAttemptIdsUnique() {
        h.setSpec("{\"name\":\"spec\"}");
        h.addUnits("spec", "u");
        Attempt first = h.requestOne();
        h.namespace("other").setSpec("{\"name\":\"spec\"}");
        h.addUnits("spec", "u");
        h.namespace(NS).send("destroy_namespace").ok();

        // only the destroy's own answer, kept for a repeat of its request_id
        assertThat(keys(NamespaceKeys.namespaceData(NS)))
                .extracting(KeyFamily::kind)
                .containsExactly("R");
        assertThat(h.reader().namespaces().list()).containsExactly("other");
        assertThat(h.namespace("other").units("spec", "{}")).containsExactly("u");

        h.namespace(NS).setSpec("{\"name\":\"spec\"}");
        h.addUnits("spec", "u");
        Attempt second = h.requestOne();
        assertThat(Long.parseLong(second.id())).isGreaterThan(Long.parseLong(first.id()));
        h.advance(Duration.ofHours(1));
        h.punctuate();
        assertThat(h.reader().timeIndexes().dueAttemptDeadlines(Long.MAX_VALUE, 10))
                .isEmpty();
        check();
    }

    @Test
    void jobTreesKeepEveryFamilyIndexExact() {
        h.setSpec("{\"name\":\"spec\"}");
        h.setSpec("{\"name\":\"other\"}");
        h.addUnits("spec", "p", "q");
        addLinked(
                "spec",
                "[{\"name\":\"early\",\"parent\":{\"work_unit_name\":\"p\"}},"
                        + "{\"name\":\"h1\",\"predecessor\":{\"work_unit_name\":\"q\"}}]");
        check();
        List<Attempt> pq = h.request("count", 2, "lifetime", 60); // p, q
        addLinked(
                "other",
                "[{\"name\":\"c1\",\"parent\":{\"work_spec_name\":\"spec\",\"work_unit_name\":\"p\"}},"
                        + "{\"name\":\"c2\",\"parent\":{\"work_spec_name\":\"spec\",\"work_unit_name\":\"p\"},"
                        + "\"predecessor\":{\"work_spec_name\":\"spec\",\"work_unit_name\":\"q\"}}]");
        check();
        assertThat(h.reader()
                        .family()
                        .childrenParkedUnder(
                                NS,
                                new UnitRef("spec", "p"),
                                Long.parseLong(pq.get(0).id())))
                .containsExactly(new UnitRef("other", "c1"), new UnitRef("other", "c2"));
        h.retry(pq.get(0), 0).ok(); // c1, c2 discarded; early stays
        check();
        Attempt p = h.requestOne("work_specs", List.of("spec"));
        addLinked(
                "other",
                "[{\"name\":\"c1\",\"parent\":{\"work_spec_name\":\"spec\",\"work_unit_name\":\"p\"}},"
                        + "{\"name\":\"c2\",\"parent\":{\"work_spec_name\":\"spec\",\"work_unit_name\":\"p\"},"
                        + "\"predecessor\":{\"work_spec_name\":\"spec\",\"work_unit_name\":\"q\"}}]");
        h.finish(p).ok(); // released: c1 available, c2 blocked by q, early available
        check();
        assertThat(h.reader().family().childCount(NS, new UnitRef("spec", "p"), ChildState.OPEN))
                .isEqualTo(3);
        h.finish(pq.get(1)).ok(); // q: h1 and c2 released
        check();
        Attempt c1 = h.requestOne("work_specs", List.of("other"));
        h.finish(c1).ok();
        check();
        h.fail(h.requestOne("work_specs", List.of("other"))).ok(); // c2 fails: p fails
        check();
        assertThat(h.reader().units().get(NS, "spec", "p").status()).isEqualTo(UnitStatus.FAILED);
        h.reset("spec", "{\"names\":[\"p\"]}").ok();
        check();
        h.advance(Duration.ofMinutes(20));
        assertThat(h.requestOne("work_specs", List.of("spec"), "lifetime", 60).unit())
                .isEqualTo("early");
        h.advance(Duration.ofMinutes(2));
        h.punctuate(); // expires it
        check();
        assertThat(h.reader().units().get(NS, "spec", "early").status()).isEqualTo(UnitStatus.AVAILABLE);
        h.finish(h.requestOne("work_specs", List.of("spec"))).ok(); // early: the only open child of p
        check();
        h.send("delete_work_units", "work_spec_name", "spec", "query", json("{\"names\":[\"q\"]}"))
                .ok();
        check();
        h.send("delete_work_spec", "work_spec_name", "other").ok();
        check();
        h.send("delete_work_units", "work_spec_name", "spec", "query", json("{\"names\":[\"p\"]}"))
                .ok();
        check();
        assertThat(h.reader().units().list(NS, "spec", null, 10))
                .extracting(WorkUnitRecord::name)
                .containsExactly("h1");
    }

    private void addLinked(String spec, String unitsJson) {
        h.send("add_work_units", "work_spec_name", spec, "work_units", json(unitsJson))
                .ok();
    }

    // --- the invariant ---

    /** Every index of the namespace equals what its unit, attempt and worker records imply. */
    private void check() {
        StateReader r = h.reader();
        long lastSeq = ValueCodec.decodeLong(h.store().get(AttemptKeys.sequence(NS)));
        List<AttemptRecord> attempts = LongStream.rangeClosed(1, lastSeq)
                .mapToObj(seq -> r.attempts().get(NS, seq))
                .filter(Objects::nonNull)
                .toList();
        Set<TimeIndexKeys.DelayedUnitKey> delayed = new HashSet<>();
        Set<String> specNames = new HashSet<>();
        List<WorkUnitRecord> allUnits = new ArrayList<>();
        for (WorkSpecRecord spec : r.specs().list(NS)) {
            specNames.add(spec.name());
            List<WorkUnitRecord> units = r.units().list(NS, spec.name(), null, Integer.MAX_VALUE);
            allUnits.addAll(units);
            Map<UnitStatus, Long> counts = new EnumMap<>(UnitStatus.class);
            for (WorkUnitRecord unit : units) {
                counts.merge(unit.status(), 1L, Long::sum);
                checkUnit(unit, attempts);
                if (unit.status() == UnitStatus.DELAYED) {
                    delayed.add(new TimeIndexKeys.DelayedUnitKey(unit.notBefore(), NS, unit.spec(), unit.name()));
                }
            }
            assertThat(r.units().counts(NS, spec.name()))
                    .as("counts of %s", spec.name())
                    .isEqualTo(counts);
            for (WorkUnitRecord unit : units) {
                if (unit.status() == UnitStatus.AVAILABLE) {
                    byte[] stored = h.store().get(UnitKeys.unit(NS, unit.spec(), unit.name()));
                    byte[] entry = h.store().get(UnitKeys.available(NS, unit.spec(), unit.priority(), unit.name()));
                    assertThat(entry)
                            .as("available entry of %s: the unit's value while it holds no attempt", unit.name())
                            .isEqualTo(UnitValue.attemptSeq(stored) < 0 ? stored : ValueCodec.EMPTY);
                }
            }
            assertThat(r.units().bestAvailable(NS, spec.name(), Integer.MAX_VALUE))
                    .as("available index")
                    .containsExactlyElementsOf(units.stream()
                            .filter(u -> u.status() == UnitStatus.AVAILABLE)
                            .sorted(Comparator.comparingDouble(WorkUnitRecord::priority)
                                    .reversed()
                                    .thenComparing(WorkUnitRecord::name))
                            .map(WorkUnitRecord::name)
                            .toList());
        }
        // time indexes: exact for live records; entries of deleted units and attempts wait for the time step
        Set<TimeIndexKeys.DelayedUnitKey> delayedEntries = new HashSet<>();
        for (TimeIndexKeys.DelayedUnitKey entry :
                r.timeIndexes().dueDelayedUnits(Long.MAX_VALUE - 1, Integer.MAX_VALUE)) {
            if (entry.namespace().equals(NS) && r.units().get(NS, entry.spec(), entry.unit()) != null) {
                delayedEntries.add(entry);
            }
        }
        assertThat(delayedEntries).as("delayed index").isEqualTo(delayed);
        Set<TimeIndexKeys.PurgeKey> purgeEntries = new HashSet<>();
        for (TimeIndexKeys.PurgeKey entry : r.timeIndexes().duePurges(Long.MAX_VALUE - 1, Integer.MAX_VALUE)) {
            if (entry.namespace().equals(NS) && r.units().get(NS, entry.spec(), entry.unit()) != null) {
                purgeEntries.add(entry);
            }
        }
        assertThat(purgeEntries)
                .as("purge index")
                .isEqualTo(new HashSet<>(allUnits.stream()
                        .filter(u -> u.purgeAt() != null
                                && (u.status() == UnitStatus.FINISHED || u.status() == UnitStatus.FAILED))
                        .map(u -> new TimeIndexKeys.PurgeKey(u.purgeAt(), NS, u.spec(), u.name()))
                        .toList()));
        Set<TimeIndexKeys.AttemptDeadlineKey> deadlines = new HashSet<>();
        for (TimeIndexKeys.AttemptDeadlineKey entry :
                r.timeIndexes().dueAttemptDeadlines(Long.MAX_VALUE, Integer.MAX_VALUE)) {
            if (entry.namespace().equals(NS) && r.attempts().get(NS, entry.attemptSeq()) != null) {
                deadlines.add(entry);
            }
        }
        assertThat(deadlines)
                .as("deadline index")
                .isEqualTo(new HashSet<>(attempts.stream()
                        .filter(a -> a.status() == AttemptStatus.PENDING)
                        .map(a -> new TimeIndexKeys.AttemptDeadlineKey(a.expirationTime(), NS, a.seq()))
                        .toList()));
        for (WorkerRecord worker : r.workers().list(NS)) {
            assertThat(blockSeqs(AttemptKeys.workerActiveAttempts(NS, worker.name())))
                    .as("active attempts of %s", worker.name())
                    .containsExactlyElementsOf(attempts.stream()
                            .filter(a -> a.worker().equals(worker.name()) && a.status() == AttemptStatus.PENDING)
                            .map(AttemptRecord::seq)
                            .toList());
            assertThat(blockSeqs(AttemptKeys.workerAttempts(NS, worker.name())))
                    .as("attempts of %s", worker.name())
                    .containsExactlyElementsOf(attempts.stream()
                            .filter(a -> a.worker().equals(worker.name()))
                            .map(AttemptRecord::seq)
                            .toList());
            assertThat(r.workers().children(NS, worker.name()))
                    .as("children of %s", worker.name())
                    .containsExactlyElementsOf(r.workers().list(NS).stream()
                            .filter(w -> worker.name().equals(w.parent()))
                            .map(WorkerRecord::name)
                            .toList());
        }
        checkFamilies(allUnits);
        checkCarriedValues();
        for (AttemptRecord attempt : attempts) {
            assertThat(specNames)
                    .as("attempt %s outlived its spec", attempt.id())
                    .contains(attempt.spec());
            assertThat(r.units().get(NS, attempt.spec(), attempt.unit()))
                    .as("attempt %s outlived its unit", attempt.id())
                    .isNotNull();
            assertThat(r.workers().get(NS, attempt.worker())).isNotNull();
        }
    }

    /**
     * The children and heirs lists and their counts hold exactly what the units' families say; every link names a
     * unit that exists; a parked child is parked under its parent's running attempt or under 0.
     */
    private void checkFamilies(List<WorkUnitRecord> units) {
        HexFormat hex = HexFormat.of();
        Set<String> expectedEntries = new HashSet<>();
        Map<String, Long> expectedCounts = new HashMap<>();
        for (WorkUnitRecord unit : units) {
            UnitFamily family = unit.family();
            if (family == null) {
                continue;
            }
            UnitRef self = UnitRef.of(unit);
            if (family.parent() != null) {
                WorkUnitRecord parent = h.reader().units().get(NS, family.parent());
                assertThat(parent).as("parent of %s", self).isNotNull();
                assertThat(family.childState())
                        .as("place of %s under its parent", self)
                        .isNotNull();
                long parkedUnder = family.parkedUnder() == null ? 0 : family.parkedUnder();
                if (family.childState() == ChildState.PARKED && parkedUnder != 0) {
                    assertThat(parent.activeAttempt())
                            .as("%s is parked under its parent's attempt", self)
                            .isEqualTo(parkedUnder);
                    assertThat(parent.status()).isEqualTo(UnitStatus.PENDING);
                }
                expectedEntries.add(
                        hex.formatHex(FamilyKeys.child(NS, family.parent(), family.childState(), parkedUnder, self)));
                expectedCounts.merge(
                        hex.formatHex(FamilyKeys.familyCount(
                                NS, family.parent(), family.childState().code())),
                        1L,
                        Long::sum);
            }
            if (family.predecessor() != null) {
                assertThat(h.reader().units().get(NS, family.predecessor()))
                        .as("predecessor of %s", self)
                        .isNotNull();
                expectedEntries.add(hex.formatHex(FamilyKeys.heir(NS, family.predecessor(), self)));
                expectedCounts.merge(
                        hex.formatHex(FamilyKeys.familyCount(NS, family.predecessor(), FamilyKeys.HEIRS_KIND)),
                        1L,
                        Long::sum);
            }
        }
        Set<String> entries = new HashSet<>();
        Map<String, Long> counts = new HashMap<>();
        int tagAt = NamespaceKeys.namespaceData(NS).length;
        try (KeyValueIterator it = h.store().prefix(NamespaceKeys.namespaceData(NS))) {
            it.forEachRemaining(e -> {
                byte tag = e.key()[tagAt];
                if (tag == KeyFamily.CHILD.tag() || tag == KeyFamily.HEIR.tag()) {
                    entries.add(hex.formatHex(e.key()));
                } else if (tag == KeyFamily.FAMILY_COUNT.tag()) {
                    counts.put(hex.formatHex(e.key()), ValueCodec.decodeLong(e.value()));
                }
            });
        }
        assertThat(entries).as("children and heirs entries").isEqualTo(expectedEntries);
        assertThat(counts).as("children and heirs counts").isEqualTo(expectedCounts);
    }

    /**
     * A unit's record is its value: the units entry of the attempt a unit is pending on carries exactly the record, no
     * other entry carries anything, and no started-units entry of an older layout is left.
     */
    private void checkCarriedValues() {
        int tagAt = NamespaceKeys.namespaceData(NS).length;
        int carriedCount = 0;
        int pendingCount = 0;
        try (KeyValueIterator it = h.store().prefix(NamespaceKeys.namespaceData(NS))) {
            while (it.hasNext()) {
                KeyValueIterator.Entry e = it.next();
                byte tag = e.key()[tagAt];
                assertThat(tag).as("a started-units entry").isNotEqualTo(KeyFamily.STARTED_UNITS.tag());
                if (tag == KeyFamily.UNIT.tag()) {
                    WorkUnitRecord unit = ValueCodec.decode(e.value(), WorkUnitRecord.class);
                    if (unit.status() == UnitStatus.PENDING
                            && unit.activeAttempt() != null
                            && UnitValue.attemptSeq(e.value()) == unit.activeAttempt()) {
                        pendingCount++;
                        assertThat(carriedBy(unit.activeAttempt()))
                                .as("carried for %s", unit.name())
                                .isEqualTo(e.value());
                    }
                } else if (tag == KeyFamily.ATTEMPT_UNITS.tag()) {
                    byte[][] values = new byte[64][];
                    AttemptBlockValues.decodeUnits(e.value(), new byte[64][], values);
                    carriedCount +=
                            (int) Stream.of(values).filter(Objects::nonNull).count();
                }
            }
        }
        assertThat(carriedCount).as("values carried by units entries").isEqualTo(pendingCount);
    }

    private byte[] carriedBy(long seq) {
        byte[][] values = new byte[64][];
        AttemptBlockValues.decodeUnits(
                h.store().get(AttemptKeys.attemptUnitsBlock(NS, AttemptBlocks.block(seq))), new byte[64][], values);
        return values[(int) (seq % 64)];
    }

    private void checkUnit(WorkUnitRecord unit, List<AttemptRecord> attempts) {
        List<Long> own = attempts.stream()
                .filter(a -> a.spec().equals(unit.spec()) && a.unit().equals(unit.name()))
                .map(AttemptRecord::seq)
                .toList();
        long held = UnitValue.attemptSeq(h.store().get(UnitKeys.unit(NS, unit.spec(), unit.name())));
        assertThat(seqs(AttemptKeys.unitAttempts(NS, unit.spec(), unit.name())))
                .as("listed history of %s", unit.name())
                .containsExactlyElementsOf(
                        own.stream().filter(seq -> seq != held).toList());
        assertThat(h.reader().attempts().ofUnit(NS, unit.spec(), unit.name()))
                .extracting(AttemptRecord::seq)
                .as("history of %s", unit.name())
                .containsExactlyElementsOf(own);
        // a reset gives a unit a fresh retry budget, so the count may be below its history
        assertThat(unit.attemptCount()).as("attempt count of %s", unit.name()).isLessThanOrEqualTo(own.size());
        if (unit.replication() != null) {
            checkRound(unit);
            return;
        }
        UnitFamily family = unit.family();
        boolean blocks = family != null && family.blocks();
        boolean familyFailure = family != null && family.failure() != null && unit.status() == UnitStatus.FAILED;
        if (unit.activeAttempt() == null) {
            if (familyFailure) {
                return;
            }
            assertThat(unit.status())
                    .as("status of %s", unit.name())
                    .isIn(blocks ? List.of(UnitStatus.BLOCKED) : List.of(UnitStatus.AVAILABLE, UnitStatus.DELAYED));
            if (unit.status() == UnitStatus.DELAYED) {
                assertThat(unit.notBefore()).isNotNull();
            }
            return;
        }
        assertThat(blocks)
                .as("%s runs or ran, so nothing blocks it", unit.name())
                .isFalse();
        AttemptRecord active = h.reader().attempts().get(NS, unit.activeAttempt());
        assertThat(active).as("active attempt of %s", unit.name()).isNotNull();
        assertThat(active.unit()).isEqualTo(unit.name());
        long open = h.reader().family().childCount(NS, UnitRef.of(unit), ChildState.OPEN);
        UnitStatus expected = switch (active.status()) {
            case PENDING -> UnitStatus.PENDING;
            case FINISHED -> familyFailure ? UnitStatus.FAILED : open > 0 ? UnitStatus.WAITING : UnitStatus.FINISHED;
            case FAILED -> UnitStatus.FAILED;
            default -> null; // an expired or retried attempt is never active
        };
        assertThat(unit.status())
                .as("status of %s with a %s active attempt", unit.name(), active.status())
                .isEqualTo(expected);
    }

    /** A replicated unit's status follows its round; each replica is a replica attempt of the unit, deadline and all. */
    private void checkRound(WorkUnitRecord unit) {
        ReplicationState round = unit.replication();
        for (Replica replica : round.replicas()) {
            AttemptRecord attempt = h.reader().attempts().get(NS, replica.seq());
            assertThat(attempt.isReplica()).isTrue();
            assertThat(attempt.unit()).isEqualTo(unit.name());
            assertThat(attempt.worker()).isEqualTo(replica.worker());
            assertThat(replica.deadline())
                    .as("deadline of replica %s", replica.seq())
                    .isEqualTo(attempt.expirationTime());
            if (replica.running()) {
                assertThat(attempt.status()).isEqualTo(AttemptStatus.PENDING);
            }
        }
        if (round.canonical() != null) {
            assertThat(unit.activeAttempt()).isEqualTo(round.canonical());
            assertThat(unit.status()).isIn(UnitStatus.FINISHED, UnitStatus.WAITING);
        } else if (round.errorMask() != 0) {
            assertThat(unit.status()).isEqualTo(UnitStatus.FAILED);
        } else {
            assertThat(unit.activeAttempt()).isNull();
            assertThat(unit.status())
                    .isIn(UnitStatus.AVAILABLE, UnitStatus.DELAYED, UnitStatus.PENDING, UnitStatus.BLOCKED);
        }
    }

    private List<byte[]> keys(byte[] prefix) {
        List<byte[]> keys = new ArrayList<>();
        try (KeyValueIterator it = h.store().prefix(prefix)) {
            it.forEachRemaining(e -> keys.add(e.key()));
        }
        return keys;
    }

    private List<Long> seqs(byte[] prefix) {
        return keys(prefix).stream().map(KeySpace::trailingSeq).toList();
    }

    /** The attempt numbers that the block entries under a prefix list. */
    private List<Long> blockSeqs(byte[] prefix) {
        return AttemptBlockValues.seqsUnder(h.store(), prefix);
    }
}
