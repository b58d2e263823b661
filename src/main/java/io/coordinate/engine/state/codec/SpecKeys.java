package io.coordinate.engine.state.codec;

/**
 * The keys of the specs module: {@link KeyFamily#SPEC}, {@link KeyFamily#RETRY_SLOT}, {@link KeyFamily#SCHEDULE},
 * {@link KeyFamily#RATE_LIMIT_TOKENS}, {@link KeyFamily#GROUP_RATE_LIMIT_TOKENS}.
 */
public final class SpecKeys {

    private SpecKeys() {}

    public static byte[] spec(String ns, String spec) {
        return KeyPrefixes.spec(ns, KeyFamily.SPEC, spec).toBytes();
    }

    /** Where the spec's next free retry slot is kept (its policy's {@code max_per_minute}). */
    public static byte[] retrySlot(String ns, String spec) {
        return KeyPrefixes.spec(ns, KeyFamily.RETRY_SLOT, spec).toBytes();
    }

    /** Where the spec's cron schedule and its next fire time are kept. */
    public static byte[] schedule(String ns, String spec) {
        return KeyPrefixes.spec(ns, KeyFamily.SCHEDULE, spec).toBytes();
    }

    /** The schedules of every spec of the namespace start with this prefix. */
    public static byte[] allSchedules(String ns) {
        return KeyPrefixes.namespace(ns, KeyFamily.SCHEDULE).toBytes();
    }

    /** The spec a {@link #schedule} key is of. */
    public static String scheduleSpec(byte[] key) {
        return new KeyReader(key, KeySpace.namespaceTagOffset(key) + 1).string();
    }

    /** Where the tokens of the spec's {@code rate_limit} are kept. */
    public static byte[] rateLimitTokens(String ns, String spec) {
        return KeyPrefixes.spec(ns, KeyFamily.RATE_LIMIT_TOKENS, spec).toBytes();
    }

    /** Where the tokens of one group of the spec's {@code group_rate_limit} are kept. */
    public static byte[] groupRateLimitTokens(String ns, String spec, String group) {
        return KeyPrefixes.spec(ns, KeyFamily.GROUP_RATE_LIMIT_TOKENS, spec)
                .string(group)
                .toBytes();
    }

    /** The tokens of every group of the spec start with this prefix. */
    public static byte[] allGroupRateLimitTokens(String ns, String spec) {
        return KeyPrefixes.spec(ns, KeyFamily.GROUP_RATE_LIMIT_TOKENS, spec).toBytes();
    }

    public static byte[] allSpecs(String ns) {
        return KeyPrefixes.namespace(ns, KeyFamily.SPEC).toBytes();
    }
}
