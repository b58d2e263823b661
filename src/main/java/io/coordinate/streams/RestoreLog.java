package io.coordinate.streams;

import java.util.concurrent.ConcurrentHashMap;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs each store restore from its changelog: the offsets it starts and ends at and how long it took, so an
 * operator sees why an instance is not serving yet, and a restart's log shows what state it came back with.
 */
public final class RestoreLog implements StateRestoreListener {

  private static final Logger LOG = LoggerFactory.getLogger(RestoreLog.class);

  private final Map<TopicPartition, Long> started = new ConcurrentHashMap<>();

  @Override
  public void onRestoreStart(TopicPartition partition, String storeName, long startingOffset, long endingOffset) {
    started.put(partition, System.nanoTime());
    LOG.info("restoring {} from {} offsets {} to {}", storeName, partition, startingOffset, endingOffset);
  }

  @Override
  public void onBatchRestored(TopicPartition partition, String storeName, long batchEndOffset, long numRestored) {}

  @Override
  public void onRestoreEnd(TopicPartition partition, String storeName, long totalRestored) {
    Long start = started.remove(partition);
    LOG.info("restored {} from {}: {} records in {} ms", storeName, partition, totalRestored,
        start == null ? 0 : (System.nanoTime() - start) / 1_000_000);
  }

  @Override
  public void onRestoreSuspended(TopicPartition partition, String storeName, long totalRestored) {
    started.remove(partition);
    LOG.info("stopped restoring {} from {} after {} records (the task moved)", storeName, partition, totalRestored);
  }
}
