package io.coordinate.streams;

import io.coordinate.engine.state.IndexRebuild;
import io.coordinate.engine.state.KeyValueStore;
import io.coordinate.engine.state.SplitStore;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * A task's state as the engine sees it: the changelogged records' store and the local indexes' store as one
 * {@link SplitStore}. Opening it rebuilds the indexes when they are not those of the records (see
 * {@link IndexRebuild}); every command applied moves both versions on together.
 */
final class TaskState {

  private static final Logger LOG = LoggerFactory.getLogger(TaskState.class);

  private final StreamsStore records;
  private final StreamsStore indexes;
  private final SplitStore store;
  private long version;
  /** {@link #writes()} after the last version step. */
  private long writesSeen;

  private TaskState(StreamsStore records, StreamsStore indexes) {
    this.records = records;
    this.indexes = indexes;
    this.store = new SplitStore(records, indexes);
    this.version = IndexRebuild.stateVersion(records);
  }

  static TaskState open(ProcessorContext<?, ?> context) {
    org.apache.kafka.streams.state.KeyValueStore<Bytes, byte[]> records = context.getStateStore(StoreNames.STATE);
    org.apache.kafka.streams.state.KeyValueStore<Bytes, byte[]> indexes = context.getStateStore(StoreNames.INDEXES);
    TaskState state = new TaskState(StreamsStore.writable(records), StreamsStore.writable(indexes));
    if (!IndexRebuild.inStep(state.records, state.indexes)) {
      long started = System.nanoTime();
      IndexRebuild.Result result = IndexRebuild.rebuild(state.records, state.indexes);
      boolean fresh = result.equals(new IndexRebuild.Result(0, 0, 0, 0, 0));
      LOG.atLevel(fresh ? Level.DEBUG : Level.INFO).log("task {}: rebuilt the indexes from {} units, {} attempts"
          + " and {} workers in {} ms (dropped {} stale index entries, moved {} out of the changelogged store)",
          context.taskId(), result.units(), result.attempts(), result.workers(), (System.nanoTime() - started) / 1_000_000,
          result.droppedIndexEntries(), result.migratedEntries());
    }
    state.writesSeen = state.writes(); // the rebuild's own writes are not a command's
    return state;
  }

  KeyValueStore store() {
    return store;
  }

  /**
   * After each command or time step: when it wrote anything, both versions move on, so the indexes stay those of
   * the records. A step that wrote nothing (an idle punctuation, a rejected command) leaves them, and so sends
   * nothing to Kafka.
   */
  void applied() {
    if (writes() != writesSeen) {
      version = IndexRebuild.step(records, indexes, version);
      writesSeen = writes();
    }
  }

  private long writes() {
    return records.writes() + indexes.writes();
  }
}
