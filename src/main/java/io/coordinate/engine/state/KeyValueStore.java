package io.coordinate.engine.state;

/**
 * An ordered byte-keyed store: the one storage abstraction of the engine. Keys order as unsigned bytes (as
 * RocksDB orders them), so the composite keys of {@link Keys} give ordered range scans. Implemented over a
 * Kafka Streams RocksDB store in production and over a {@code TreeMap} in engine tests.
 */
public interface KeyValueStore extends ReadableKeyValueStore {

  void put(byte[] key, byte[] value);

  void delete(byte[] key);
}
