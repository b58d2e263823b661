package io.coordinate.engine.state.db;

import io.coordinate.storage.InMemoryKeyValueStore;
import io.coordinate.storage.KeyValueIterator;
import io.coordinate.engine.state.codec.Keys;
import io.coordinate.engine.state.model.UnitRef;
import io.coordinate.engine.state.model.UnitStatus;
import static org.assertj.core.api.Assertions.assertThat;

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
    store.put(Keys.unit("ns", "s", "u"), V);
    store.put(Keys.attempt("ns", 7), V);
    store.put(Keys.worker("ns", "w"), V);
    store.put(Keys.spec("ns", "s"), V);
    store.put(Keys.namespace("ns"), V);
    store.put(Keys.sequence("ns"), V);
    store.put(Keys.stateVersion(), V);
    store.put(Keys.available("ns", "s", 1.0, "u"), V);
    store.put(Keys.count("ns", "s", UnitStatus.AVAILABLE), V);
    store.put(Keys.unitAttempt("ns", "s", "u", 7), V);
    store.put(Keys.workerActiveBlock("ns", "w", 0), V);
    store.put(Keys.attemptDeadlineBlock(5, "ns", 0), V);
    store.put(Keys.delayedUnit(5, "ns", "s", "u"), V);
    store.put(Keys.purge(5, "ns", "s", "u"), V);
    store.put(Keys.heir("ns", new UnitRef("s", "u"), new UnitRef("s", "h")), V);
    store.put(Keys.indexVersion(), V);

    assertThat(records.size()).isEqualTo(7);
    assertThat(indexes.size()).isEqualTo(9);
    assertThat(store.get(Keys.unit("ns", "s", "u"))).isEqualTo(V);
    assertThat(store.get(Keys.available("ns", "s", 1.0, "u"))).isEqualTo(V);
    store.delete(Keys.available("ns", "s", 1.0, "u"));
    assertThat(indexes.size()).isEqualTo(8);
  }

  @Test
  void aNamespaceNameWithZeroBytesAndTagLettersStillRoutesByItsTag() {
    String ns = "a\0U\0\1V";
    store.put(Keys.unit(ns, "s", "u"), V);
    store.put(Keys.available(ns, "s", 0, "u"), V);
    assertThat(Keys.isIndex(Keys.unit(ns, "s", "u"))).isFalse();
    assertThat(Keys.isIndex(Keys.available(ns, "s", 0, "u"))).isTrue();
    assertThat(records.size()).isEqualTo(1);
    assertThat(indexes.size()).isEqualTo(1);
  }

  @Test
  void routingStaysRightWhenNamespacesAlternateAndOneNameStartsWithAnother() {
    for (String ns : new String[] {"ns", "ns2", "n", "ns", "n\0s"}) {
      store.put(Keys.unit(ns, "s", "u"), V);
      store.put(Keys.available(ns, "s", 0, "u"), V);
      store.put(Keys.namespace(ns), V);
      store.put(Keys.attemptDeadlineBlock(1, ns, 0), V);
    }
    assertThat(records.size()).isEqualTo(8); // 4 distinct namespaces × (unit, registry entry)
    assertThat(indexes.size()).isEqualTo(8);
    assertThat(records.get(Keys.unit("ns2", "s", "u"))).isEqualTo(V);
    assertThat(indexes.get(Keys.available("n\0s", "s", 0, "u"))).isEqualTo(V);
  }

  @Test
  void aRangeWithinOneGroupReadsOneStoreAndAWiderOneMergesBothInKeyOrder() {
    store.put(Keys.unit("ns", "s", "b"), V);
    store.put(Keys.unit("ns", "s", "a"), V);
    store.put(Keys.available("ns", "s", 2.0, "a"), V);
    store.put(Keys.attempt("ns", 1), V);
    store.put(Keys.unit("other", "s", "x"), V);

    assertThat(names(store.prefix(Keys.units("ns", "s")))).containsExactly(
        hex(Keys.unit("ns", "s", "a")), hex(Keys.unit("ns", "s", "b")));
    List<String> all = names(store.prefix(Keys.namespaceData("ns")));
    List<String> expected = new ArrayList<>(List.of(hex(Keys.attempt("ns", 1)), hex(Keys.unit("ns", "s", "a")),
        hex(Keys.unit("ns", "s", "b")), hex(Keys.available("ns", "s", 2.0, "a"))));
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
