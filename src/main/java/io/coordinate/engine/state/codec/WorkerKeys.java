package io.coordinate.engine.state.codec;

/** The keys of the workers module: {@link KeyFamily#WORKER} and {@link KeyFamily#WORKER_CHILD}. */
public final class WorkerKeys {

    private WorkerKeys() {}

    public static byte[] worker(String ns, String worker) {
        return KeyPrefixes.namespace(ns, KeyFamily.WORKER).string(worker).toBytes();
    }

    public static byte[] allWorkers(String ns) {
        return KeyPrefixes.namespace(ns, KeyFamily.WORKER).toBytes();
    }

    public static byte[] workerChild(String ns, String parent, String child) {
        return KeyPrefixes.namespace(ns, KeyFamily.WORKER_CHILD)
                .string(parent)
                .string(child)
                .toBytes();
    }

    public static byte[] workerChildren(String ns, String parent) {
        return KeyPrefixes.namespace(ns, KeyFamily.WORKER_CHILD).string(parent).toBytes();
    }
}
