package io.coordinate.testing;

import io.coordinate.query.NamespaceLocator;
import io.coordinate.storage.ReadableKeyValueStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link NamespaceLocator} set by the test: named namespaces where told, every other one at {@code fallback}; the
 * Kafka Streams state as told ({@code state}, or RUNNING / NOT_RUNNING from {@code running} while it is null).
 */
public final class FixedLocator implements NamespaceLocator {

    public final Map<String, Location> locations = new HashMap<>();
    public final List<ReadableKeyValueStore> stores = new ArrayList<>();
    public final List<String> others = new ArrayList<>();
    public volatile Location fallback;
    public volatile boolean running = true;
    public volatile String state;
    public volatile String restoring;
    public volatile String failure;
    public volatile String stopped;

    /** Every namespace in {@code store}. */
    public FixedLocator(ReadableKeyValueStore store) {
        stores.add(store);
        fallback = new Local(store);
    }

    /** No namespace readable here: for the routes that read none (the probes). */
    public FixedLocator() {
        fallback = new Unavailable("no namespaces here");
    }

    @Override
    public Location locate(String namespace) {
        return locations.getOrDefault(namespace, fallback);
    }

    @Override
    public List<ReadableKeyValueStore> localStores() {
        return stores;
    }

    @Override
    public List<String> otherInstances() {
        return others;
    }

    @Override
    public boolean isRunning() {
        return state == null ? running : state.equals("RUNNING");
    }

    @Override
    public String state() {
        return state == null ? NamespaceLocator.super.state() : state;
    }

    @Override
    public String restoring() {
        return restoring;
    }

    @Override
    public String failure() {
        return failure;
    }

    @Override
    public String stopped() {
        return stopped;
    }
}
