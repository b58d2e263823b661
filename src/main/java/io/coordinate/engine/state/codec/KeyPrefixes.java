package io.coordinate.engine.state.codec;

import java.util.Objects;

/**
 * The starts of keys that the modules' key classes build on: {@code 10 [ns] tag} and {@code 10 [ns] tag [spec]}. A
 * command's keys nearly all share their namespace and spec, so the last prefix of each is kept encoded. The stream
 * thread and the HTTP API's threads build keys at once, so what is kept is kept per thread, never shared.
 */
final class KeyPrefixes {

    private KeyPrefixes() {}

    /** A top-level family's key: its tag, then the parts the caller adds. */
    static KeyWriter top(KeyFamily family) {
        return new KeyWriter().tag(family.tag());
    }

    /** {@code 10 [ns]}: every key of the namespace's data starts so. */
    static KeyWriter namespace(String ns) {
        return namespace(MEMO.get(), ns);
    }

    /** {@code 10 [ns] tag}: a namespace family's key, before its parts. */
    static KeyWriter namespace(String ns, KeyFamily family) {
        return namespace(ns).tag(family.tag());
    }

    /** {@code 10 [ns] tag [spec]}: the start of a spec's units, available units, counts and attempt lists. */
    static KeyWriter spec(String ns, KeyFamily family, String spec) {
        Memo memo = MEMO.get();
        int slot = family.ordinal();
        Prefix last = memo.spec[slot];
        if (last == null || !last.matches(ns, spec)) {
            last = new Prefix(
                    ns, spec, namespace(memo, ns).tag(family.tag()).string(spec).toBytes());
            memo.spec[slot] = last;
        }
        return new KeyWriter(last.bytes);
    }

    private static KeyWriter namespace(Memo memo, String ns) {
        Prefix last = memo.namespace;
        if (last == null || !last.matches(ns, null)) {
            last = new Prefix(
                    ns,
                    null,
                    new KeyWriter().tag(KeySpace.NAMESPACE_DATA).string(ns).toBytes());
            memo.namespace = last;
        }
        return new KeyWriter(last.bytes);
    }

    /** An encoded key prefix and the names it encodes. */
    private record Prefix(String ns, String spec, byte[] bytes) {
        boolean matches(String ns, String spec) {
            return this.ns.equals(ns) && Objects.equals(this.spec, spec);
        }
    }

    /** The last prefixes one thread encoded: each thread keeps its own, so none sees another's. */
    private static final class Memo {
        Prefix namespace;
        final Prefix[] spec = new Prefix[KeyFamily.values().length];
    }

    // Encoding the names again for every key of a command cost the engine a visible share of its time per unit.
    private static final ThreadLocal<Memo> MEMO = ThreadLocal.withInitial(Memo::new);
}
