package io.coordinate.streams;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs each store restore from its changelog: the offsets it starts and ends at, its progress at least every ten
 * seconds ({@link ProgressLog}: records done of the offsets to go, and the rate), and how long it took, so an
 * operator sees why an instance is not serving yet and when it will. {@link #restoring()} says the same to the
 * readiness probe.
 */
public final class RestoreLog implements StateRestoreListener {

    private static final Logger LOG = LoggerFactory.getLogger(RestoreLog.class);

    private final LongSupplier nanoClock;
    private final Consumer<String> out;
    private final Map<TopicPartition, Restore> restores = new ConcurrentHashMap<>();

    /** One store partition being restored. The offsets to go bound its records (transaction markers use some). */
    private static final class Restore {
        final String store;
        final long offsets;
        final ProgressLog progress;
        volatile long restored;

        Restore(String store, long offsets, ProgressLog progress) {
            this.store = store;
            this.offsets = offsets;
            this.progress = progress;
        }
    }

    public RestoreLog() {
        this(System::nanoTime, LOG::info);
    }

    /** @param out where the lines go (the log, or a test's list) */
    RestoreLog(LongSupplier nanoClock, Consumer<String> out) {
        this.nanoClock = nanoClock;
        this.out = out;
    }

    @Override
    public void onRestoreStart(TopicPartition partition, String storeName, long startingOffset, long endingOffset) {
        restores.put(partition, new Restore(storeName, endingOffset - startingOffset, new ProgressLog(nanoClock)));
        out.accept(
                "restoring " + storeName + " from " + partition + " offsets " + startingOffset + " to " + endingOffset);
    }

    @Override
    public void onBatchRestored(TopicPartition partition, String storeName, long batchEndOffset, long numRestored) {
        Restore restore = restores.get(partition);
        if (restore == null) {
            return;
        }
        synchronized (restore) {
            restore.restored += numRestored;
            if (restore.progress.due()) {
                out.accept("restoring " + storeName + " from " + partition + ": "
                        + ProgressLog.doneOf(restore.restored, restore.offsets, "records") + ", "
                        + restore.progress.perSecond(restore.restored) + " records/s");
            }
        }
    }

    @Override
    public void onRestoreEnd(TopicPartition partition, String storeName, long totalRestored) {
        Restore restore = restores.remove(partition);
        out.accept("restored " + storeName + " from " + partition + ": " + totalRestored + " records in "
                + (restore == null ? 0 : restore.progress.elapsedMillis()) + " ms");
    }

    @Override
    public void onRestoreSuspended(TopicPartition partition, String storeName, long totalRestored) {
        restores.remove(partition);
        out.accept("stopped restoring " + storeName + " from " + partition + " after " + totalRestored
                + " records (the task moved)");
    }

    /** The restores under way, for the readiness probe: how many store partitions and how far, or null for none. */
    public String restoring() {
        long done = 0;
        long offsets = 0;
        int partitions = 0;
        for (Restore restore : restores.values()) {
            done += restore.restored;
            offsets += restore.offsets;
            partitions++;
        }
        return partitions == 0
                ? null
                : "restoring " + partitions + " store partition" + (partitions == 1 ? "" : "s")
                        + " from the changelog: " + ProgressLog.doneOf(done, offsets, "records");
    }
}
