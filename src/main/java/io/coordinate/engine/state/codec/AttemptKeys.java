package io.coordinate.engine.state.codec;

/**
 * The keys of the attempts module: the attempt numbers ({@link KeyFamily#SEQUENCES}), the attempts not held by
 * their unit ({@link KeyFamily#ATTEMPT}), a unit's list of them ({@link KeyFamily#UNIT_ATTEMPTS}), and the indexes
 * kept per block of 64 attempts: their units ({@link KeyFamily#ATTEMPT_UNITS}; {@link KeyFamily#STARTED_UNITS} of older layouts) and
 * a worker's ({@link KeyFamily#WORKER_ACTIVE}, {@link KeyFamily#WORKER_ATTEMPTS}). Their deadlines are
 * {@link TimeIndexKeys}'.
 */
public final class AttemptKeys {

    private AttemptKeys() {}

    public static byte[] sequence(String ns) {
        return KeyPrefixes.top(KeyFamily.SEQUENCES).string(ns).toBytes();
    }

    public static byte[] attempt(String ns, long attemptSeq) {
        return KeyPrefixes.namespace(ns, KeyFamily.ATTEMPT).int64(attemptSeq).toBytes();
    }

    public static byte[] unitAttempt(String ns, String spec, String unit, long attemptSeq) {
        return KeyPrefixes.spec(ns, KeyFamily.UNIT_ATTEMPTS, spec)
                .string(unit)
                .int64(attemptSeq)
                .toBytes();
    }

    public static byte[] unitAttempts(String ns, String spec, String unit) {
        return KeyPrefixes.spec(ns, KeyFamily.UNIT_ATTEMPTS, spec).string(unit).toBytes();
    }

    /** Index entry: which units' values hold the attempts of a block (see {@link UnitValue}). */
    public static byte[] attemptUnitsBlock(String ns, long block) {
        return KeyPrefixes.namespace(ns, KeyFamily.ATTEMPT_UNITS).int64(block).toBytes();
    }

    /** A namespace's started-units entries, which stores of index layout 3 and before hold (a rebuild folds them). */
    public static byte[] startedUnitsBlocks(String ns) {
        return KeyPrefixes.namespace(ns, KeyFamily.STARTED_UNITS).toBytes();
    }

    public static byte[] workerActiveBlock(String ns, String worker, long block) {
        return KeyPrefixes.namespace(ns, KeyFamily.WORKER_ACTIVE)
                .string(worker)
                .int64(block)
                .toBytes();
    }

    public static byte[] workerActiveAttempts(String ns, String worker) {
        return KeyPrefixes.namespace(ns, KeyFamily.WORKER_ACTIVE).string(worker).toBytes();
    }

    public static byte[] workerAttemptBlock(String ns, String worker, long block) {
        return KeyPrefixes.namespace(ns, KeyFamily.WORKER_ATTEMPTS)
                .string(worker)
                .int64(block)
                .toBytes();
    }

    public static byte[] workerAttempts(String ns, String worker) {
        return KeyPrefixes.namespace(ns, KeyFamily.WORKER_ATTEMPTS)
                .string(worker)
                .toBytes();
    }
}
