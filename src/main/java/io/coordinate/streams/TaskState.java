package io.coordinate.streams;

import io.coordinate.engine.state.db.IndexRebuild;
import io.coordinate.engine.state.db.VersionedStore;
import io.coordinate.storage.KeyValueStore;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.state.internals.WrappedStateStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * A task's state as the engine sees it: the changelogged records' store and the local indexes' store as one
 * {@link VersionedStore}. Opening it rebuilds the indexes when they are not those of the records (see
 * {@link IndexRebuild}); every command's writes move both versions on together.
 */
final class TaskState {

    private static final Logger LOG = LoggerFactory.getLogger(TaskState.class);

    private TaskState() {}

    /** The task's state, its indexes rebuilt first if they are not those of its records. */
    static KeyValueStore open(ProcessorContext<?, ?> context) {
        org.apache.kafka.streams.state.KeyValueStore<Bytes, byte[]> recordsStore =
                context.getStateStore(StoreNames.STATE);
        org.apache.kafka.streams.state.KeyValueStore<Bytes, byte[]> indexesStore =
                context.getStateStore(StoreNames.INDEXES);
        StreamsStore records = StreamsStore.writable(recordsStore);
        StreamsStore indexes = StreamsStore.writable(indexesStore);
        if (!IndexRebuild.inStep(records, indexes)) {
            long started = System.nanoTime();
            long estimate = recordsStore.approximateNumEntries();
            if (IndexRebuild.stateVersion(records) > 0) {
                LOG.info("task {}: rebuilding the indexes from about {} records", context.taskId(), estimate);
            }
            // The rebuild runs outside any transaction, on a store without changelog: written straight to RocksDB
            // rather than held in memory until the next commit. The index version comes last, so a crash in between
            // leaves the versions apart and the next start rebuilds again.
            CommittedStore indexesFiles = committed(indexesStore);
            indexesFiles.writeThrough(true);
            IndexRebuild.Result result;
            try {
                result = IndexRebuild.rebuild(
                        records,
                        indexes,
                        new RebuildLog(context.taskId().toString(), estimate, System::nanoTime, LOG::info));
            } finally {
                indexesFiles.writeThrough(false);
            }
            boolean fresh = result.equals(new IndexRebuild.Result(0, 0, 0, 0, 0));
            LOG.atLevel(fresh ? Level.DEBUG : Level.INFO)
                    .log(
                            "task {}: rebuilt the indexes from {} units, {} attempts"
                                    + " and {} workers in {} ms (dropped {} stale index entries, moved {} out of the changelogged store)",
                            context.taskId(),
                            result.units(),
                            result.attempts(),
                            result.workers(),
                            (System.nanoTime() - started) / 1_000_000,
                            result.droppedIndexEntries(),
                            result.migratedEntries());
        }
        return new VersionedStore(records, indexes);
    }

    /**
     * Writes both stores' last committed batch to their files once the commit is over (see {@link CommittedStore}),
     * the indexes first: should the process die between the two, the records' changelog brings the records up to the
     * indexes again when the task restores.
     */
    static Runnable settler(ProcessorContext<?, ?> context) {
        CommittedStore records = committed(context.getStateStore(StoreNames.STATE));
        CommittedStore indexes = committed(context.getStateStore(StoreNames.INDEXES));
        return () -> {
            indexes.settleIfCommitted();
            records.settleIfCommitted();
        };
    }

    /** The {@link CommittedStore} under Kafka Streams' wrappers (metering, logging, the processor's read-write view). */
    private static CommittedStore committed(StateStore store) {
        StateStore inner = store;
        while (inner instanceof WrappedStateStore<?, ?, ?> wrapped) {
            inner = wrapped.wrapped();
        }
        if (inner instanceof CommittedStore committed) {
            return committed;
        }
        throw new IllegalStateException("the store " + store.name() + " is not a CommittedStore: " + inner.getClass());
    }
}
