package io.coordinate.engine.state.db;

import io.coordinate.storage.ReadableKeyValueStore;

/**
 * The engine's unit values: a started unit's value is the one its attempt's units entry carries (see
 * {@link DbUnitState}), or its record with its started-units entry's delta; the map of started units says which.
 */
final class EngineUnitValues implements UnitValues {

  private final ReadableKeyValueStore store;
  private final AttemptBlocks blocks;
  private final StartedUnits started;

  EngineUnitValues(ReadableKeyValueStore store, AttemptBlocks blocks, StartedUnits started) {
    this.store = store;
    this.blocks = blocks;
    this.started = started;
  }

  @Override
  public byte[] valueOf(String ns, byte[] unitKey, byte[] recorded) {
    Long seq = started.get(unitKey);
    if (seq == null) {
      return recorded != null ? recorded : store.get(unitKey);
    }
    byte[] carried = blocks.unitValue(ns, seq);
    if (carried != null) {
      return carried;
    }
    // kept in step by every write of a started unit; made from the record should an entry not carry it
    byte[] record = recorded != null ? recorded : store.get(unitKey);
    byte[] delta = blocks.startedValue(ns, seq);
    return delta == null || record == null ? record : StartedUnits.value(record, seq, delta);
  }

  /** The attempt's unit key; the unit's value, when the entry carries it, is then known without a lookup. */
  @Override
  public byte[] attemptUnitKey(String ns, long seq) {
    byte[] unitKey = blocks.unitKey(ns, seq);
    if (unitKey != null) {
      byte[] carried = blocks.unitValue(ns, seq);
      if (carried != null) {
        // pending on this attempt: started by it (its started-units slot is set) or not started at all; the
        // reads of the unit that follow then find the answer without a lookup in the map
        boolean startedByIt = blocks.startedValue(ns, seq) != null;
        started.remember(unitKey, startedByIt ? seq : null);
        if (!startedByIt) {
          store.known(unitKey, carried); // the record's value (a started unit's is read through the map)
        }
      }
    }
    return unitKey;
  }

  @Override
  public void notStarted(byte[] unitKey) {
    started.remember(unitKey, null);
  }
}
