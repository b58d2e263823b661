package io.coordinate.streams;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.internals.RecordCollector;

/** The changelog offsets a {@link CommittedStore} settles with and reports to Kafka Streams. */
final class ChangelogOffsets {

    /** Kafka Streams' committed offset for "none, restore from the start" (its {@code OFFSET_UNKNOWN}). */
    static final long NONE = -4L;

    private ChangelogOffsets() {}

    /** The last changelog offset the task's producer had acknowledged, or null when it sent nothing to it. */
    static Long acknowledged(StateStoreContext context, TopicPartition changelog) {
        if (changelog == null || !(context instanceof RecordCollector.Supplier supplier)) {
            return null;
        }
        RecordCollector collector = supplier.recordCollector();
        return collector == null ? null : collector.offsets().get(changelog);
    }

    /** The offset up to which the files hold the changelog, {@link #NONE}, or null when they cannot be trusted. */
    static Long committed(CommittedDb db) {
        Long offset = db.offset();
        if (offset != null) {
            return offset;
        }
        // A store that holds nothing holds nothing uncommitted either: restored from the changelog's start, not
        // wiped as a store without an offset would be under exactly-once (its files make the task's directory
        // non-empty). A partition that never had a command is such a store.
        return db.isEmpty() ? NONE : null;
    }
}
