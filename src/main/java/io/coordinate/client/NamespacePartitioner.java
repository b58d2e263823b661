package io.coordinate.client;

import org.apache.kafka.common.utils.Utils;

/**
 * The partition of a key: what Kafka's default partitioner (and so every Java producer, the Streams sinks and
 * interactive-query metadata) computes for its bytes. The app, its feeds and this library all find a namespace's
 * (or a worker's) partition here.
 */
public final class NamespacePartitioner {

    private NamespacePartitioner() {}

    public static int partition(byte[] key, int partitions) {
        return Utils.toPositive(Utils.murmur2(key)) % partitions;
    }
}
