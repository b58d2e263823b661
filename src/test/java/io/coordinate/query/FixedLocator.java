package io.coordinate.query;

import io.coordinate.storage.ReadableKeyValueStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A {@link NamespaceLocator} set by the test: named namespaces where told, every other one at {@code fallback}. */
final class FixedLocator implements NamespaceLocator {

  final Map<String, Location> locations = new HashMap<>();
  final List<ReadableKeyValueStore> stores = new ArrayList<>();
  final List<String> others = new ArrayList<>();
  volatile Location fallback;
  volatile boolean running = true;
  volatile String failure;

  FixedLocator(ReadableKeyValueStore store) {
    stores.add(store);
    fallback = new Local(store);
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
    return running;
  }

  @Override
  public String failure() {
    return failure;
  }
}
