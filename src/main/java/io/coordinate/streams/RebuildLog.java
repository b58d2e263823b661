package io.coordinate.streams;

import io.coordinate.engine.state.db.IndexRebuild;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Logs a task's index rebuild as it goes, at least every ten seconds ({@link ProgressLog}): the records read of
 * the store's estimated count, the units among them and the rate. A rebuild takes time in proportion to the units
 * stored (docs/operations.md, "Failover and restarts"), during which the task serves nothing.
 */
final class RebuildLog implements IndexRebuild.Progress {

    private final String task;
    private final long estimatedRecords;
    private final ProgressLog progress;
    private final Consumer<String> out;

    /** @param estimatedRecords RocksDB's estimate of the records' count (0: unknown) */
    RebuildLog(String task, long estimatedRecords, LongSupplier nanoClock, Consumer<String> out) {
        this.task = task;
        this.estimatedRecords = estimatedRecords;
        this.progress = new ProgressLog(nanoClock);
        this.out = out;
    }

    @Override
    public void derived(long records, long units) {
        if (progress.due()) {
            out.accept("task " + task + ": rebuilding the indexes: "
                    + ProgressLog.doneOf(records, estimatedRecords, "records") + " read, " + units + " units, "
                    + progress.perSecond(records) + " records/s");
        }
    }
}
