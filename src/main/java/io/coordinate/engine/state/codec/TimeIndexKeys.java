package io.coordinate.engine.state.codec;

/**
 * The keys of the time indexes that the time step reads from the front, each ordered by its time first: delayed
 * units ({@link KeyFamily#DELAYED_UNITS}), pending attempts' deadlines ({@link KeyFamily#ATTEMPT_DEADLINES}) and
 * units to purge ({@link KeyFamily#PURGES}). The kept answers' expiries are {@link AnswerKeys}'.
 */
public final class TimeIndexKeys {

    private TimeIndexKeys() {}

    public static byte[] delayedUnit(long notBefore, String ns, String spec, String unit) {
        return unitAt(KeyFamily.DELAYED_UNITS, notBefore, ns, spec, unit);
    }

    /** The delayed-unit keys due at or before {@code time} start at this key's space and end here. */
    public static byte[] delayedUnitsBefore(long exclusiveTime) {
        return before(KeyFamily.DELAYED_UNITS, exclusiveTime);
    }

    public static byte[] delayedUnitsStart() {
        return new byte[] {KeyFamily.DELAYED_UNITS.tag()};
    }

    public static DelayedUnitKey parseDelayedUnit(byte[] key) {
        KeyReader reader = new KeyReader(key, 1);
        return new DelayedUnitKey(reader.int64(), reader.string(), reader.string(), reader.string());
    }

    /** The deadline entry of a block of attempts that expire at {@code expiration}. */
    public static byte[] attemptDeadlineBlock(long expiration, String ns, long block) {
        return KeyPrefixes.top(KeyFamily.ATTEMPT_DEADLINES)
                .int64(expiration)
                .string(ns)
                .int64(block)
                .toBytes();
    }

    public static byte[] attemptDeadlinesBefore(long exclusiveTime) {
        return before(KeyFamily.ATTEMPT_DEADLINES, exclusiveTime);
    }

    public static byte[] attemptDeadlinesStart() {
        return new byte[] {KeyFamily.ATTEMPT_DEADLINES.tag()};
    }

    public static AttemptDeadlineBlockKey parseAttemptDeadlineBlock(byte[] key) {
        KeyReader reader = new KeyReader(key, 1);
        return new AttemptDeadlineBlockKey(reader.int64(), reader.string(), reader.int64());
    }

    /** A finished or failed unit to purge at {@code purgeAt} (a spec's {@code retention}). */
    public static byte[] purge(long purgeAt, String ns, String spec, String unit) {
        return unitAt(KeyFamily.PURGES, purgeAt, ns, spec, unit);
    }

    public static byte[] purgesBefore(long exclusiveTime) {
        return before(KeyFamily.PURGES, exclusiveTime);
    }

    public static byte[] purgesStart() {
        return new byte[] {KeyFamily.PURGES.tag()};
    }

    public static PurgeKey parsePurge(byte[] key) {
        KeyReader reader = new KeyReader(key, 1);
        return new PurgeKey(reader.int64(), reader.string(), reader.string(), reader.string());
    }

    /** A scheduled spec whose next fire is at {@code fireTime}. */
    public static byte[] scheduleFire(long fireTime, String ns, String spec) {
        return KeyPrefixes.top(KeyFamily.SCHEDULE_FIRES)
                .int64(fireTime)
                .string(ns)
                .string(spec)
                .toBytes();
    }

    public static byte[] scheduleFiresStart() {
        return new byte[] {KeyFamily.SCHEDULE_FIRES.tag()};
    }

    public static ScheduleFireKey parseScheduleFire(byte[] key) {
        KeyReader reader = new KeyReader(key, 1);
        return new ScheduleFireKey(reader.int64(), reader.string(), reader.string());
    }

    /** {@code tag [time][ns][spec][unit]}: a unit due at {@code time}. */
    private static byte[] unitAt(KeyFamily family, long time, String ns, String spec, String unit) {
        return KeyPrefixes.top(family)
                .int64(time)
                .string(ns)
                .string(spec)
                .string(unit)
                .toBytes();
    }

    /** The end of the family's entries due before {@code exclusiveTime}, which start at its tag. */
    private static byte[] before(KeyFamily family, long exclusiveTime) {
        return KeyPrefixes.top(family).int64(exclusiveTime).toBytes();
    }

    /** A parsed {@link #delayedUnit} key. */
    public record DelayedUnitKey(long notBefore, String namespace, String spec, String unit) {}

    /** A pending attempt due at {@code expiration}, one of those an {@link #attemptDeadlineBlock} entry lists. */
    public record AttemptDeadlineKey(long expiration, String namespace, long attemptSeq) {}

    /** A parsed {@link #attemptDeadlineBlock} key. */
    public record AttemptDeadlineBlockKey(long expiration, String namespace, long block) {}

    /** A parsed {@link #scheduleFire} key. */
    public record ScheduleFireKey(long fireTime, String namespace, String spec) {}

    /** A parsed {@link #purge} key. */
    public record PurgeKey(long purgeAt, String namespace, String spec, String unit) {}
}
