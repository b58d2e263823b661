package io.coordinate.engine.state.codec;

/** The keys of the namespaces module: the registry ({@link KeyFamily#NAMESPACES}) and each namespace's data. */
public final class NamespaceKeys {

    private NamespaceKeys() {}

    public static byte[] namespace(String ns) {
        return KeyPrefixes.top(KeyFamily.NAMESPACES).string(ns).toBytes();
    }

    public static byte[] allNamespaces() {
        return new byte[] {KeyFamily.NAMESPACES.tag()};
    }

    public static String namespaceName(byte[] key) {
        return new KeyReader(key, 1).string();
    }

    /** Every key of one namespace's data. */
    public static byte[] namespaceData(String ns) {
        return KeyPrefixes.namespace(ns).toBytes();
    }

    /** The namespace of a {@code 10 [ns] ...} key. */
    public static String dataNamespace(byte[] key) {
        return new KeyReader(key, 1).string();
    }
}
