package io.coordinate.engine.state.db;

/**
 * Where a unit's stored value ({@link io.coordinate.engine.state.codec.UnitValue}) is found: its record, or, while
 * an attempt a request started holds it, the record with what its started-units entry adds ({@link StartedUnits}).
 * The engine knows the started units from memory ({@link EngineUnitValues}); a query scans their entries
 * ({@link StoredUnitValues}).
 */
interface UnitValues {

  /** The unit's stored value, or null. */
  default byte[] value(String ns, byte[] unitKey) {
    return valueOf(ns, unitKey, null);
  }

  /** The same, {@code recorded} being the unit's record if read already (else null). */
  byte[] valueOf(String ns, byte[] unitKey, byte[] recorded);

  /** The key of the unit whose value holds the attempt, or null (its entry in the attempt's block). */
  byte[] attemptUnitKey(String ns, long seq);

  /** Told that a unit is not started (the available index listed it): its reads then skip the lookup. */
  void notStarted(byte[] unitKey);
}
