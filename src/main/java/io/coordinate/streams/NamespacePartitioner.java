package io.coordinate.streams;

import org.apache.kafka.common.utils.Utils;

/**
 * The partition of a namespace: what Kafka's default partitioner (and so every Java producer, the Streams
 * sinks and interactive-query metadata) computes for the key bytes.
 */
public final class NamespacePartitioner {

  private NamespacePartitioner() {}

  public static int partition(byte[] key, int partitions) {
    return Utils.toPositive(Utils.murmur2(key)) % partitions;
  }
}
