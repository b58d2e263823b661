package io.coordinate.streams;

import io.coordinate.engine.state.db.SplitStore;
import io.coordinate.query.NamespaceLocator;
import io.coordinate.storage.ReadableKeyValueStore;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.QueryableStoreType;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Finds a namespace's store through Kafka Streams metadata: the partition of the namespace (the record key
 * of its commands) and the instance that hosts that partition's active task.
 */
public final class StreamsNamespaceLocator implements NamespaceLocator {

    private final KafkaStreams streams;
    private final HostInfo self;
    private final Supplier<String> failure;
    private final Supplier<String> stopped;
    private final Supplier<String> restoring;

    /**
     * @param failure why the stream thread serves nothing although RUNNING, or null (see {@link #failure()})
     * @param stopped why no stream thread runs at all, or null (see {@link #stopped()})
     * @param restoring the restores under way, or null (see {@link RestoreLog#restoring()})
     */
    public StreamsNamespaceLocator(
            KafkaStreams streams,
            HostInfo self,
            Supplier<String> failure,
            Supplier<String> stopped,
            Supplier<String> restoring) {
        this.failure = failure;
        this.stopped = stopped;
        this.restoring = restoring;
        this.streams = streams;
        this.self = self;
    }

    @Override
    public Location locate(String namespace) {
        if (streams.state() != KafkaStreams.State.RUNNING) {
            return new Unavailable("streams is " + streams.state());
        }
        // Commands are keyed by the namespace's UTF-8 bytes (the topology reads raw bytes), so look it up the
        // same way to land on the same partition.
        KeyQueryMetadata metadata = streams.queryMetadataForKey(
                StoreNames.STATE,
                namespace.getBytes(StandardCharsets.UTF_8),
                Serdes.ByteArray().serializer());
        if (metadata == null || metadata.equals(KeyQueryMetadata.NOT_AVAILABLE)) {
            return new Unavailable("no metadata for the namespace yet");
        }
        HostInfo host = metadata.activeHost();
        if (!host.equals(self)) {
            return new Remote(host.host() + ":" + host.port());
        }
        try {
            return new Local(new SplitStore(
                    StreamsStore.readOnly(store(StoreQueryParameters.fromNameAndType(StoreNames.STATE, BYTES)
                            .withPartition(metadata.partition()))),
                    StreamsStore.readOnly(store(StoreQueryParameters.fromNameAndType(StoreNames.INDEXES, BYTES)
                            .withPartition(metadata.partition())))));
        } catch (InvalidStateStoreException e) {
            return new Unavailable(e.getMessage());
        }
    }

    @Override
    public List<ReadableKeyValueStore> localStores() {
        if (streams.state() != KafkaStreams.State.RUNNING) {
            return List.of();
        }
        try {
            return List.of(new SplitStore(
                    StreamsStore.readOnly(store(StoreQueryParameters.fromNameAndType(StoreNames.STATE, BYTES))),
                    StreamsStore.readOnly(store(StoreQueryParameters.fromNameAndType(StoreNames.INDEXES, BYTES)))));
        } catch (InvalidStateStoreException e) {
            return List.of();
        }
    }

    private static final QueryableStoreType<ReadOnlyKeyValueStore<Bytes, byte[]>> BYTES =
            QueryableStoreTypes.keyValueStore();

    private ReadOnlyKeyValueStore<Bytes, byte[]> store(
            StoreQueryParameters<ReadOnlyKeyValueStore<Bytes, byte[]>> parameters) {
        return streams.store(parameters);
    }

    @Override
    public List<String> otherInstances() {
        List<String> hosts = new ArrayList<>();
        for (StreamsMetadata metadata : streams.metadataForAllStreamsClients()) {
            HostInfo host = metadata.hostInfo();
            if (!host.equals(self)) {
                hosts.add(host.host() + ":" + host.port());
            }
        }
        return hosts;
    }

    @Override
    public String failure() {
        return failure.get();
    }

    @Override
    public String stopped() {
        return stopped.get();
    }

    @Override
    public boolean isRunning() {
        return streams.state() == KafkaStreams.State.RUNNING;
    }

    @Override
    public String state() {
        return streams.state().name();
    }

    @Override
    public String restoring() {
        return restoring.get();
    }
}
