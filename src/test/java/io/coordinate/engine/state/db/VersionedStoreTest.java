package io.coordinate.engine.state.db;

import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.engine.state.codec.KeySpace;
import io.coordinate.engine.state.codec.NamespaceKeys;
import io.coordinate.engine.state.codec.UnitKeys;
import io.coordinate.engine.state.codec.ValueCodec;
import io.coordinate.storage.InMemoryKeyValueStore;
import io.coordinate.storage.KeyValueIterator;
import io.coordinate.storage.RecordingStore;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

class VersionedStoreTest {

    private static final byte[] V = {1};

    private final InMemoryKeyValueStore recordsBelow = new InMemoryKeyValueStore();
    private final InMemoryKeyValueStore indexesBelow = new InMemoryKeyValueStore();
    private final RecordingStore records = new RecordingStore(recordsBelow);
    private final RecordingStore indexes = new RecordingStore(indexesBelow);

    private static String hex(byte[] key) {
        return HexFormat.of().formatHex(key);
    }

    @Test
    void eachBatchCarriesTheNextVersionToBothStores() {
        VersionedStore store = new VersionedStore(records, indexes);
        byte[] namespace = NamespaceKeys.namespace("n");
        byte[] unit = UnitKeys.unit("n", "s", "u");
        byte[] available = UnitKeys.available("n", "s", 0, "u"); // an index

        store.putAll(List.of(
                new KeyValueIterator.Entry(namespace, V),
                new KeyValueIterator.Entry(unit, V),
                new KeyValueIterator.Entry(available, V)));

        assertThat(records.batches).containsExactly(List.of(hex(namespace), hex(unit), hex(KeySpace.stateVersion())));
        assertThat(indexes.batches).containsExactly(List.of(hex(available), hex(KeySpace.indexVersion())));
        assertThat(store.version()).isEqualTo(1);
        assertThat(IndexRebuild.stateVersion(recordsBelow)).isEqualTo(1);
        assertThat(ValueCodec.decodeLong(indexesBelow.get(KeySpace.indexVersion())))
                .isEqualTo(1);
    }

    @Test
    void aBatchOfOneStoreStillMovesBothVersions() {
        IndexRebuild.rebuild(recordsBelow, indexesBelow);
        VersionedStore store = new VersionedStore(records, indexes);
        store.put(UnitKeys.unit("n", "s", "u"), V);
        store.delete(UnitKeys.unit("n", "s", "u"));

        assertThat(store.version()).isEqualTo(2);
        assertThat(records.batches).hasSize(2);
        assertThat(indexes.batches)
                .containsExactly(List.of(hex(KeySpace.indexVersion())), List.of(hex(KeySpace.indexVersion())));
        assertThat(IndexRebuild.inStep(recordsBelow, indexesBelow)).isTrue();
    }

    @Test
    void anEmptyBatchWritesNothingNotEvenTheVersions() {
        VersionedStore store = new VersionedStore(records, indexes);
        store.putAll(List.of());

        assertThat(records.batches).isEmpty();
        assertThat(indexes.batches).isEmpty();
        assertThat(store.version()).isZero();
    }

    @Test
    void itGoesOnFromTheVersionStored() {
        recordsBelow.put(KeySpace.stateVersion(), ValueCodec.encodeLong(41));
        VersionedStore store = new VersionedStore(records, indexes);
        store.put(UnitKeys.unit("n", "s", "u"), V);

        assertThat(store.version()).isEqualTo(42);
        assertThat(IndexRebuild.stateVersion(recordsBelow)).isEqualTo(42);
    }

    @Test
    void theVersionsTravelInTheBatchAfterItsWrites() {
        List<KeyValueIterator.Entry> writes = List.of(
                new KeyValueIterator.Entry(new byte[] {0x10}, V),
                new KeyValueIterator.Entry(new byte[] {0x05, 0x09}, V));
        List<KeyValueIterator.Entry> merged = VersionedStore.withVersions(writes, IndexRebuild.versionWrites(3));

        assertThat(merged.stream().map(e -> hex(e.key()))).containsExactly("10", "0509", "06", "07");
    }
}
