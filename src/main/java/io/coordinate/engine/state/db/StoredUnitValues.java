package io.coordinate.engine.state.db;

import io.coordinate.storage.ByteKey;
import io.coordinate.engine.state.codec.AttemptKeys;
import io.coordinate.storage.ReadableKeyValueStore;
import java.util.HashMap;
import java.util.Map;

/**
 * A query's unit values: the reader has no engine's map of started units, so it reads a namespace's started-units
 * entries once (one per 64 attempts started and not ended), bounded by the attempts out
 * ({@link StartedUnits#MAX_STARTED}).
 */
final class StoredUnitValues implements UnitValues {

  private final ReadableKeyValueStore store;
  private final Map<String, Map<ByteKey, StartedEntry>> startedByNamespace = new HashMap<>();

  StoredUnitValues(ReadableKeyValueStore store) {
    this.store = store;
  }

  private record StartedEntry(long seq, byte[] delta) {}

  @Override
  public byte[] valueOf(String ns, byte[] unitKey, byte[] recorded) {
    byte[] record = recorded != null ? recorded : store.get(unitKey);
    if (record == null) {
      return null;
    }
    Map<ByteKey, StartedEntry> entries = startedByNamespace.computeIfAbsent(ns, this::readStartedUnits);
    StartedEntry started = entries.isEmpty() ? null : entries.get(new ByteKey(unitKey));
    return started == null ? record : StartedUnits.value(record, started.seq(), started.delta());
  }

  private Map<ByteKey, StartedEntry> readStartedUnits(String ns) {
    Map<ByteKey, StartedEntry> found = new HashMap<>();
    StartedUnits.forEach(store, ns,
        (unitKey, seq, delta) -> found.put(new ByteKey(unitKey), new StartedEntry(seq, delta)));
    return found;
  }

  @Override
  public byte[] attemptUnitKey(String ns, long seq) {
    return AttemptBlocks.unitKeyIn(store.get(AttemptKeys.attemptUnitsBlock(ns, AttemptBlocks.block(seq))), seq);
  }

  @Override
  public void notStarted(byte[] unitKey) {}
}
