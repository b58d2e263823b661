package io.coordinate.engine.state.codec;

/**
 * The keys of the time indexes that the time step reads from the front, each ordered by its time first: delayed
 * units ({@link KeyFamily#DELAYED_UNITS}), pending attempts' deadlines ({@link KeyFamily#ATTEMPT_DEADLINES}) and
 * units to purge ({@link KeyFamily#PURGES}). The kept answers' expiries are {@link AnswerKeys}'.
 */
public final class TimeIndexKeys {

  private TimeIndexKeys() {}

  public static byte[] delayedUnit(long notBefore, String ns, String spec, String unit) {
    return KeyPrefixes.top(KeyFamily.DELAYED_UNITS).int64(notBefore).string(ns).string(spec).string(unit).toBytes();
  }

  /** The delayed-unit keys due at or before {@code time} start at this key's space and end here. */
  public static byte[] delayedUnitsBefore(long exclusiveTime) {
    return KeyPrefixes.top(KeyFamily.DELAYED_UNITS).int64(exclusiveTime).toBytes();
  }

  public static byte[] delayedUnitsStart() {
    return new byte[] {KeyFamily.DELAYED_UNITS.tag()};
  }

  public static DelayedUnitKey parseDelayedUnit(byte[] key) {
    KeyReader reader = new KeyReader(key, 1);
    long time = reader.int64();
    return new DelayedUnitKey(time, reader.string(), reader.string(), reader.string());
  }

  /** The deadline entry of a block of attempts that expire at {@code expiration}. */
  public static byte[] attemptDeadlineBlock(long expiration, String ns, long block) {
    return KeyPrefixes.top(KeyFamily.ATTEMPT_DEADLINES).int64(expiration).string(ns).int64(block).toBytes();
  }

  public static byte[] attemptDeadlinesBefore(long exclusiveTime) {
    return KeyPrefixes.top(KeyFamily.ATTEMPT_DEADLINES).int64(exclusiveTime).toBytes();
  }

  public static byte[] attemptDeadlinesStart() {
    return new byte[] {KeyFamily.ATTEMPT_DEADLINES.tag()};
  }

  public static AttemptDeadlineBlockKey parseAttemptDeadlineBlock(byte[] key) {
    KeyReader reader = new KeyReader(key, 1);
    long time = reader.int64();
    return new AttemptDeadlineBlockKey(time, reader.string(), reader.int64());
  }

  /** A finished or failed unit to purge at {@code purgeAt} (a spec's {@code retention}). */
  public static byte[] purge(long purgeAt, String ns, String spec, String unit) {
    return KeyPrefixes.top(KeyFamily.PURGES).int64(purgeAt).string(ns).string(spec).string(unit).toBytes();
  }

  public static byte[] purgesBefore(long exclusiveTime) {
    return KeyPrefixes.top(KeyFamily.PURGES).int64(exclusiveTime).toBytes();
  }

  public static byte[] purgesStart() {
    return new byte[] {KeyFamily.PURGES.tag()};
  }

  public static PurgeKey parsePurge(byte[] key) {
    KeyReader reader = new KeyReader(key, 1);
    long time = reader.int64();
    return new PurgeKey(time, reader.string(), reader.string(), reader.string());
  }

  /** A parsed {@link #delayedUnit} key. */
  public record DelayedUnitKey(long notBefore, String namespace, String spec, String unit) {}

  /** A pending attempt due at {@code expiration}, one of those an {@link #attemptDeadlineBlock} entry lists. */
  public record AttemptDeadlineKey(long expiration, String namespace, long attemptSeq) {}

  /** A parsed {@link #attemptDeadlineBlock} key. */
  public record AttemptDeadlineBlockKey(long expiration, String namespace, long block) {}

  /** A parsed {@link #purge} key. */
  public record PurgeKey(long purgeAt, String namespace, String spec, String unit) {}
}
