package io.coordinate.engine.state.db;

import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.engine.state.codec.AttemptKeys;
import io.coordinate.engine.state.codec.FamilyKeys;
import io.coordinate.engine.state.codec.KeyFamily;
import io.coordinate.engine.state.codec.KeySpace;
import io.coordinate.engine.state.codec.NamespaceKeys;
import io.coordinate.engine.state.codec.SpecKeys;
import io.coordinate.engine.state.codec.TimeIndexKeys;
import io.coordinate.engine.state.codec.UnitKeys;
import io.coordinate.engine.state.codec.WorkerKeys;
import io.coordinate.engine.state.model.UnitRef;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.storage.InMemoryKeyValueStore;
import io.coordinate.storage.KeyValueIterator;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SplitStoreTest {

    private final InMemoryKeyValueStore records = new InMemoryKeyValueStore();
    private final InMemoryKeyValueStore indexes = new InMemoryKeyValueStore();
    private final SplitStore store = new SplitStore(records, indexes);

    private static final byte[] V = {1};

    @Test
    void recordsAndIndexesGoToTheirOwnStore() {
        store.put(UnitKeys.unit("ns", "s", "u"), V);
        store.put(AttemptKeys.attempt("ns", 7), V);
        store.put(WorkerKeys.worker("ns", "w"), V);
        store.put(SpecKeys.spec("ns", "s"), V);
        store.put(NamespaceKeys.namespace("ns"), V);
        store.put(AttemptKeys.sequence("ns"), V);
        store.put(KeySpace.stateVersion(), V);
        store.put(UnitKeys.available("ns", "s", 1.0, "u"), V);
        store.put(UnitKeys.count("ns", "s", UnitStatus.AVAILABLE), V);
        store.put(AttemptKeys.unitAttempt("ns", "s", "u", 7), V);
        store.put(AttemptKeys.workerActiveBlock("ns", "w", 0), V);
        store.put(TimeIndexKeys.attemptDeadlineBlock(5, "ns", 0), V);
        store.put(TimeIndexKeys.delayedUnit(5, "ns", "s", "u"), V);
        store.put(TimeIndexKeys.purge(5, "ns", "s", "u"), V);
        store.put(FamilyKeys.heir("ns", new UnitRef("s", "u"), new UnitRef("s", "h")), V);
        store.put(KeySpace.indexVersion(), V);

        assertThat(records.size()).isEqualTo(7);
        assertThat(indexes.size()).isEqualTo(9);
        assertThat(store.get(UnitKeys.unit("ns", "s", "u"))).isEqualTo(V);
        assertThat(store.get(UnitKeys.available("ns", "s", 1.0, "u"))).isEqualTo(V);
        store.delete(UnitKeys.available("ns", "s", 1.0, "u"));
        assertThat(indexes.size()).isEqualTo(8);
    }

    @Test
    void aNamespaceNameWithZeroBytesAndTagLettersStillRoutesByItsTag() {
        String ns = "a\0U\0\1V";
        store.put(UnitKeys.unit(ns, "s", "u"), V);
        store.put(UnitKeys.available(ns, "s", 0, "u"), V);
        assertThat(KeyFamily.isIndex(UnitKeys.unit(ns, "s", "u"))).isFalse();
        assertThat(KeyFamily.isIndex(UnitKeys.available(ns, "s", 0, "u"))).isTrue();
        assertThat(records.size()).isEqualTo(1);
        assertThat(indexes.size()).isEqualTo(1);
    }

    @Test
    void routingStaysRightWhenNamespacesAlternateAndOneNameStartsWithAnother() {
        for (String ns : new String[] {"ns", "ns2", "n", "ns", "n\0s"}) {
            store.put(UnitKeys.unit(ns, "s", "u"), V);
            store.put(UnitKeys.available(ns, "s", 0, "u"), V);
            store.put(NamespaceKeys.namespace(ns), V);
            store.put(TimeIndexKeys.attemptDeadlineBlock(1, ns, 0), V);
        }
        assertThat(records.size()).isEqualTo(8); // 4 distinct namespaces × (unit, registry entry)
        assertThat(indexes.size()).isEqualTo(8);
        assertThat(records.get(UnitKeys.unit("ns2", "s", "u"))).isEqualTo(V);
        assertThat(indexes.get(UnitKeys.available("n\0s", "s", 0, "u"))).isEqualTo(V);
    }

    @Test
    void aRangeWithinOneGroupReadsOneStoreAndAWiderOneMergesBothInKeyOrder() {
        store.put(UnitKeys.unit("ns", "s", "b"), V);
        store.put(UnitKeys.unit("ns", "s", "a"), V);
        store.put(UnitKeys.available("ns", "s", 2.0, "a"), V);
        store.put(AttemptKeys.attempt("ns", 1), V);
        store.put(UnitKeys.unit("other", "s", "x"), V);

        assertThat(names(store.prefix(UnitKeys.units("ns", "s"))))
                .containsExactly(hex(UnitKeys.unit("ns", "s", "a")), hex(UnitKeys.unit("ns", "s", "b")));
        List<String> all = names(store.prefix(NamespaceKeys.namespaceData("ns")));
        List<String> expected = new ArrayList<>(List.of(
                hex(AttemptKeys.attempt("ns", 1)),
                hex(UnitKeys.unit("ns", "s", "a")),
                hex(UnitKeys.unit("ns", "s", "b")),
                hex(UnitKeys.available("ns", "s", 2.0, "a"))));
        expected.sort(String::compareTo);
        assertThat(all).containsExactlyElementsOf(expected);
    }

    private static String hex(byte[] key) {
        return java.util.HexFormat.of().formatHex(key);
    }

    private static List<String> names(KeyValueIterator it) {
        List<String> keys = new ArrayList<>();
        try (it) {
            it.forEachRemaining(e -> keys.add(hex(e.key())));
        }
        return keys;
    }
}
