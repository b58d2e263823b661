package io.coordinate.query;

import io.coordinate.storage.ReadableKeyValueStore;
import java.util.List;

/**
 * Where a namespace's state is: in a store of this instance, at another instance (forward the request
 * there), or nowhere readable right now (a rebalance is under way: answer 503 with Retry-After). Implemented
 * over Kafka Streams metadata by {@code io.coordinate.streams.StreamsNamespaceLocator}; tests use a fixed one.
 */
public interface NamespaceLocator {

    Location locate(String namespace);

    /** Every store of this instance (a namespace listing reads them all). */
    List<ReadableKeyValueStore> localStores();

    /** The other instances' HTTP addresses, {@code host:port}, for fan-out of namespace listings. */
    List<String> otherInstances();

    /** True when the streams app is RUNNING (for {@code GET /health}). */
    boolean isRunning();

    /**
     * The Kafka Streams client's state by name: CREATED, REBALANCING, RUNNING, PENDING_SHUTDOWN, NOT_RUNNING,
     * PENDING_ERROR or ERROR (for the probes, {@code GET /health/live} and {@code /health/ready}).
     */
    default String state() {
        return isRunning() ? "RUNNING" : "NOT_RUNNING";
    }

    /** What this instance restores while it is not RUNNING (changelog restores under way), or null. */
    default String restoring() {
        return null;
    }

    /** Why the instance serves nothing although RUNNING (a stream thread in a failure loop), or null. */
    default String failure() {
        return null;
    }

    /**
     * Why no stream thread runs although Kafka Streams says RUNNING or REBALANCING (the failed one could not be
     * replaced), or null: nothing is processed, and only a restart of the process helps.
     */
    default String stopped() {
        return null;
    }

    /** The answer of {@link #locate}. */
    sealed interface Location {}

    /** The namespace is in this instance's store. */
    record Local(ReadableKeyValueStore store) implements Location {}

    /** The namespace belongs to the instance at {@code host:port}. */
    record Remote(String hostAndPort) implements Location {}

    /** Not readable now; ask again shortly. */
    record Unavailable(String reason) implements Location {}
}
