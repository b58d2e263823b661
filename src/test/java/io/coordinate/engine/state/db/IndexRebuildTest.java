package io.coordinate.engine.state.db;

import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.engine.EngineHarness;
import io.coordinate.engine.EngineHarness.Attempt;
import io.coordinate.engine.state.StateReader;
import io.coordinate.engine.state.codec.AttemptKeys;
import io.coordinate.engine.state.codec.KeyFamily;
import io.coordinate.engine.state.codec.KeySpace;
import io.coordinate.engine.state.codec.KeyWriter;
import io.coordinate.engine.state.codec.NamespaceKeys;
import io.coordinate.engine.state.codec.UnitKeys;
import io.coordinate.engine.state.codec.ValueCodec;
import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.engine.state.model.AttemptStatus;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.storage.InMemoryKeyValueStore;
import io.coordinate.storage.KeyValueIterator;
import io.coordinate.storage.KeyValueStore;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The versions that tell when indexes must be rebuilt, and the rebuild itself (also run after every engine test). */
class IndexRebuildTest {

    @Test
    void freshStoresAreNotInStepUntilTheFirstRebuildThenEveryStepKeepsThemInStep() {
        InMemoryKeyValueStore records = new InMemoryKeyValueStore();
        InMemoryKeyValueStore indexes = new InMemoryKeyValueStore();
        assertThat(IndexRebuild.inStep(records, indexes)).isFalse();
        IndexRebuild.rebuild(records, indexes);
        assertThat(IndexRebuild.inStep(records, indexes)).isTrue();

        VersionedStore store = new VersionedStore(records, indexes);
        store.putAll(List.of(new KeyValueIterator.Entry(NamespaceKeys.namespace("n"), new byte[] {1})));
        store.delete(NamespaceKeys.namespace("n"));
        assertThat(store.version()).isEqualTo(2);
        assertThat(IndexRebuild.stateVersion(records)).isEqualTo(2);
        assertThat(IndexRebuild.inStep(records, indexes)).isTrue();
    }

    @Test
    void recordsThatMovedOnWithoutTheIndexesAreNotInStep() {
        InMemoryKeyValueStore records = new InMemoryKeyValueStore();
        InMemoryKeyValueStore indexes = new InMemoryKeyValueStore();
        IndexRebuild.rebuild(records, indexes);
        // a restore from the changelog brings later commands into the records only
        records.put(KeySpace.stateVersion(), ValueCodec.encodeLong(5));
        assertThat(IndexRebuild.inStep(records, indexes)).isFalse();
    }

    @Test
    void indexesOfTheLayoutBeforeAttemptBlocksAreNotInStepAndTheRebuildReplacesTheirEntries() {
        EngineHarness h = new EngineHarness();
        h.setSpec("{\"name\":\"s\"}");
        h.addUnits("s", "a");
        Attempt a = h.requestOne();
        InMemoryKeyValueStore indexes = new InMemoryKeyValueStore();
        IndexRebuild.rebuild(h.store().records(), indexes);
        assertThat(IndexRebuild.inStep(h.store().records(), indexes)).isTrue();
        // as an earlier version left them: no layout key, one entry per attempt (10 [ns] 'P' [worker][attempt seq])
        indexes.delete(KeySpace.indexLayout());
        byte[] perAttempt = new KeyWriter()
                .tag(KeySpace.NAMESPACE_DATA)
                .string("ns")
                .tag(KeyFamily.WORKER_ACTIVE.tag())
                .string("worker")
                .int64(Long.parseLong(a.id()))
                .toBytes();
        indexes.put(perAttempt, ValueCodec.EMPTY);
        assertThat(IndexRebuild.inStep(h.store().records(), indexes)).isFalse();

        IndexRebuild.rebuild(h.store().records(), indexes);

        assertThat(IndexRebuild.inStep(h.store().records(), indexes)).isTrue();
        assertThat(indexes.get(perAttempt)).isNull();
        assertThat(ValueCodec.decodeLong(indexes.get(KeySpace.indexLayout()))).isEqualTo(IndexRebuild.LAYOUT);
        assertThat(DbState.reader(new SplitStore(h.store().records(), indexes))
                        .attempts()
                        .activeOfWorker("ns", "worker"))
                .extracting(AttemptRecord::id)
                .containsExactly(a.id());
    }

    @Test
    void theRebuildTellsItsProgressAfterEachChunkOfRecords() {
        EngineHarness h = new EngineHarness();
        h.setSpec("{\"name\":\"s\"}");
        h.addUnits("s", "a", "b", "c", "d", "e");
        List<String> told = new ArrayList<>();

        IndexRebuild.rebuild(
                h.store().records(),
                new InMemoryKeyValueStore(),
                (records, units) -> told.add(records + " records, " + units + " units"),
                3);

        // in key order: the namespace, its sequence and the state version; the spec, a, b; c, d, e
        assertThat(told).containsExactly("3 records, 0 units", "6 records, 2 units", "9 records, 5 units");
    }

    @Test
    void aRebuildReplacesWhateverTheIndexesHeld() {
        EngineHarness h = new EngineHarness();
        h.setSpec("{\"name\":\"s\"}");
        h.addUnits("s", "a", "b", "c");
        Attempt a = h.requestOne();
        h.finish(a).ok();
        InMemoryKeyValueStore indexes = new InMemoryKeyValueStore();
        indexes.put(UnitKeys.available("ns", "s", 0, "gone"), ValueCodec.EMPTY); // stale: no such unit

        IndexRebuild.Result result = IndexRebuild.rebuild(h.store().records(), indexes);

        assertThat(result).isEqualTo(new IndexRebuild.Result(3, 1, 1, 1, 0));
        assertThat(indexes.get(UnitKeys.available("ns", "s", 0, "gone"))).isNull();
        assertThat(DbState.reader(new SplitStore(h.store().records(), indexes))
                        .units()
                        .bestAvailable("ns", "s", 10))
                .containsExactly("b", "c");
        assertThat(ValueCodec.decodeLong(indexes.get(UnitKeys.count("ns", "s", UnitStatus.FINISHED))))
                .isEqualTo(1);
    }

    @Test
    void startedUnitsEntriesOfLayoutThreeAreFoldedIntoTheirRecords() {
        EngineHarness h = new EngineHarness();
        h.setSpec("{\"name\":\"s\"}");
        h.addUnits("s", "a", "b", "c");
        byte[] added = h.store().records().get(UnitKeys.unit("ns", "s", "a"));
        Attempt a = h.requestOne();
        Attempt b = h.requestOne();
        h.finish(b).ok();
        long seq = Long.parseLong(a.id());
        KeyValueStore records = h.store().records();
        byte[] started = records.get(UnitKeys.unit("ns", "s", "a"));
        AttemptRecord attempt = h.reader().attempts().get("ns", seq);
        // as layout 3 left it: a's record as added, what its start added in the started-units entry of its block
        records.put(UnitKeys.unit("ns", "s", "a"), added);
        byte[][] keys = new byte[64][];
        byte[][] deltas = new byte[64][];
        keys[(int) seq] = UnitKeys.unit("ns", "s", "a");
        deltas[(int) seq] = StoredValuesGoldenTest.legacyDelta(attempt);
        records.put(legacyStartedUnitsBlock("ns", 0), AttemptBlockValues.encodeUnits(keys, deltas));
        long version = IndexRebuild.stateVersion(records);
        InMemoryKeyValueStore indexes = new InMemoryKeyValueStore();

        IndexRebuild.rebuild(records, indexes);

        assertThat(records.get(UnitKeys.unit("ns", "s", "a")))
                .as("folded into the record")
                .isEqualTo(started);
        assertThat(records.get(legacyStartedUnitsBlock("ns", 0)))
                .as("the entry is gone")
                .isNull();
        assertThat(IndexRebuild.stateVersion(records))
                .as("the records changed: a new version")
                .isEqualTo(version + 1);
        assertThat(IndexRebuild.inStep(records, indexes)).isTrue();
        byte[][] carried = new byte[64][];
        AttemptBlockValues.decodeUnits(indexes.get(AttemptKeys.attemptUnitsBlock("ns", 0)), new byte[64][], carried);
        assertThat(ValueCodec.decode(carried[(int) seq], WorkUnitRecord.class).status())
                .as("its units entry carries the record with what the start added")
                .isEqualTo(UnitStatus.PENDING);
        StateReader reader = DbState.reader(new SplitStore(h.store().records(), indexes));
        assertThat(reader.units().bestAvailable("ns", "s", 10)).containsExactly("c");
        assertThat(reader.units().get("ns", "s", "a").status()).isEqualTo(UnitStatus.PENDING);
        assertThat(reader.units().get("ns", "s", "a").activeAttempt()).isEqualTo(seq);
        assertThat(reader.attempts().get("ns", seq).status()).isEqualTo(AttemptStatus.PENDING);
        assertThat(reader.units().get("ns", "s", "b").status()).isEqualTo(UnitStatus.FINISHED);
        assertThat(ValueCodec.decodeLong(indexes.get(UnitKeys.count("ns", "s", UnitStatus.PENDING))))
                .isEqualTo(1);
        assertThat(ValueCodec.decodeLong(indexes.get(UnitKeys.count("ns", "s", UnitStatus.AVAILABLE))))
                .isEqualTo(1);
    }

    /** The key of a started-units entry as layout 3 wrote it: the namespace's prefix, 'O', the block. */
    private static byte[] legacyStartedUnitsBlock(String ns, long block) {
        byte[] prefix = AttemptKeys.startedUnitsBlocks(ns);
        return java.nio.ByteBuffer.allocate(prefix.length + Long.BYTES)
                .put(prefix)
                .putLong(block ^ Long.MIN_VALUE)
                .array();
    }

    @Test
    void indexEntriesFoundAmongTheRecordsMoveToTheIndexes() {
        // state written before indexes had a store of their own: one key space, all in the changelogged store
        EngineHarness h = new EngineHarness();
        h.setSpec("{\"name\":\"s\"}");
        h.addUnits("s", "a", "b");
        InMemoryKeyValueStore single = new InMemoryKeyValueStore();
        try (KeyValueIterator it = h.store().prefix(NamespaceKeys.namespaceData("ns"))) {
            it.forEachRemaining(e -> single.put(e.key(), e.value()));
        }
        InMemoryKeyValueStore indexes = new InMemoryKeyValueStore();
        int before = single.size();

        IndexRebuild.Result result = IndexRebuild.rebuild(single, indexes);

        // two available entries, the available count, and the count of those available since the add
        assertThat(result.migratedEntries()).isEqualTo(4);
        assertThat(single.size()).isEqualTo(before - 4);
        assertThat(DbState.reader(new SplitStore(single, indexes)).units().bestAvailable("ns", "s", 10))
                .containsExactly("a", "b");
    }
}
