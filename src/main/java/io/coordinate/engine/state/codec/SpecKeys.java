package io.coordinate.engine.state.codec;

/** The keys of the specs module: {@link KeyFamily#SPEC}. */
public final class SpecKeys {

    private SpecKeys() {}

    public static byte[] spec(String ns, String spec) {
        return KeyPrefixes.spec(ns, KeyFamily.SPEC, spec).toBytes();
    }

    public static byte[] allSpecs(String ns) {
        return KeyPrefixes.namespace(ns, KeyFamily.SPEC).toBytes();
    }
}
