package io.coordinate.engine.state.db;

import io.coordinate.storage.BatchWrites;
import io.coordinate.storage.KeyValueIterator;
import io.coordinate.storage.KeyValueStore;
import io.coordinate.storage.WriteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A task's records and indexes as one store ({@link SplitStore}) whose every batch of writes moves both state
 * versions on ({@link IndexRebuild}): the records' version and the version the indexes were derived at travel
 * inside the batch, one more than the batch before. A batch reaches each store whole (one RocksDB write batch
 * each), so the two stores can differ in version only when one of them holds writes the other has not, which is
 * what {@link IndexRebuild#inStep} detects. Carried inside the batch rather than written after it, the versions
 * cost no batch of their own: apart, they would be a second RocksDB write per store, and one more
 * changelog record.
 *
 * <p>A command's writes come in one batch ({@link WriteBuffer#commit}); an empty batch (an idle time step, a
 * rejected command) writes nothing, versions included.
 */
public final class VersionedStore implements BatchWrites {

    private final SplitStore store;
    private long version;

    public VersionedStore(KeyValueStore records, KeyValueStore indexes) {
        this.store = new SplitStore(records, indexes);
        this.version = IndexRebuild.stateVersion(records);
    }

    /** The version of the last batch written (as stored in both stores); for tests, the engine never asks. */
    public long version() {
        return version;
    }

    @Override
    public byte[] get(byte[] key) {
        return store.get(key);
    }

    @Override
    public KeyValueIterator range(byte[] from, byte[] to) {
        return store.range(from, to);
    }

    @Override
    public void known(byte[] key, byte[] value) {
        store.known(key, value);
    }

    /** The writes and the next versions, one batch. */
    @Override
    public void putAll(List<KeyValueIterator.Entry> writes) {
        if (writes.isEmpty()) {
            return;
        }
        long next = version + 1;
        store.putAll(withVersions(writes, IndexRebuild.versionWrites(next)));
        version = next;
    }

    /** {@code writes} and then {@code versions}: no store below needs a batch in key order. */
    static List<KeyValueIterator.Entry> withVersions(
            List<KeyValueIterator.Entry> writes, List<KeyValueIterator.Entry> versions) {
        List<KeyValueIterator.Entry> batch = new ArrayList<>(writes.size() + versions.size());
        batch.addAll(writes);
        batch.addAll(versions);
        return batch;
    }
}
