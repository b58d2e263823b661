package io.coordinate.query;

import io.coordinate.client.NamespacePartitioner;
import io.coordinate.feeds.TopicReader;
import io.coordinate.protocol.Json;
import io.javalin.http.sse.SseClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One open event feed: a consumer of the namespace's partition of {@code coordinate.events}, and the thread that
 * sends its batches to one SSE client ({@link EventRoutes}). The consumer is opened and positioned before the
 * answer starts, so a failure there is still an HTTP error; it is closed when the client goes or the server stops.
 */
final class EventStream {

  private static final Logger LOG = LoggerFactory.getLogger(EventStream.class);
  private static final Duration POLL = Duration.ofMillis(250);
  /** How long opening and positioning the consumer may take before the request is answered 503. */
  static final Duration OPEN_TIMEOUT = Duration.ofSeconds(10);

  /** Where a stream starts: the end ({@code now}), the oldest record kept, or an offset. */
  record From(String kind, long offset) {
    static final From NOW = new From("now", -1);
    static final From EARLIEST = new From("earliest", -1);

    static From offset(long offset) {
      return new From("offset", offset);
    }
  }

  private final String namespace;
  private final byte[] key;
  private final KafkaConsumer<byte[], byte[]> consumer;
  private final TopicPartition partition;
  private final long endAtOpen;
  private final Duration heartbeat;
  private final Runnable onEnd;
  private final AtomicBoolean ended = new AtomicBoolean();
  private volatile boolean running = true;
  private SseClient client;

  private EventStream(String namespace, KafkaConsumer<byte[], byte[]> consumer, TopicPartition partition,
      long endAtOpen, Duration heartbeat, Runnable onEnd) {
    this.namespace = namespace;
    this.key = namespace.getBytes(StandardCharsets.UTF_8);
    this.consumer = consumer;
    this.partition = partition;
    this.endAtOpen = endAtOpen;
    this.heartbeat = heartbeat;
    this.onEnd = onEnd;
  }

  /**
   * Opens a consumer on the partition that holds {@code namespace}'s events and seeks to {@code from}: an offset
   * before the oldest one kept starts at the oldest, one past the end at the end. {@code onEnd} runs once, when the
   * stream ends, or here when opening fails (then the exception is thrown).
   */
  static EventStream open(Map<String, Object> clientProperties, String topic, String namespace, From from,
      Duration heartbeat, Runnable onEnd) {
    KafkaConsumer<byte[], byte[]> consumer = null;
    try {
      consumer = TopicReader.open(clientProperties, "coordinate-event-feed", OPEN_TIMEOUT);
      int partitions = TopicReader.partitions(consumer, topic).size();
      // The app's sink writes a namespace's batches with the namespace as key, through Kafka's default partitioner.
      TopicPartition partition = new TopicPartition(topic,
          NamespacePartitioner.partition(namespace.getBytes(StandardCharsets.UTF_8), partitions));
      consumer.assign(List.of(partition));
      long first = consumer.beginningOffsets(List.of(partition)).get(partition);
      long end = consumer.endOffsets(List.of(partition)).get(partition);
      long position = switch (from.kind()) {
        case "now" -> end;
        case "earliest" -> first;
        default -> Math.max(first, Math.min(end, from.offset()));
      };
      consumer.seek(partition, position);
      return new EventStream(namespace, consumer, partition, end, heartbeat, onEnd);
    } catch (RuntimeException e) {
      if (consumer != null) {
        consumer.close(Duration.ZERO);
      }
      onEnd.run();
      throw e;
    }
  }

  /** Starts sending to the client, on a thread of its own (a stream lasts as long as the client stays). */
  void start(SseClient sseClient) {
    this.client = sseClient;
    client.onClose(() -> running = false);
    client.keepAlive();
    Thread thread = new Thread(this::run, "event-feed-" + partition.partition());
    thread.setDaemon(true);
    thread.start();
  }

  /** Ends the stream from another thread (the server stops). A stream that never started ends at once. */
  void close() {
    running = false;
    if (client == null) {
      end();
    } else {
      consumer.wakeup();
    }
  }

  private void run() {
    try {
      boolean caughtUp = false;
      long lastWrite = System.nanoTime();
      while (running && !client.terminated()) {
        if (!caughtUp && consumer.position(partition) >= endAtOpen) {
          // Every batch before the end seen at open has been sent: a reader that wants no more stops here.
          client.sendEvent("caught_up", Json.text(Json.object().put("end_offset", endAtOpen)));
          caughtUp = true;
          lastWrite = System.nanoTime();
        }
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
          if (Arrays.equals(record.key(), key) && record.value() != null) {
            client.sendEvent("batch", new String(record.value(), StandardCharsets.UTF_8),
                Long.toString(record.offset()));
            lastWrite = System.nanoTime();
          }
        }
        if (System.nanoTime() - lastWrite >= heartbeat.toNanos()) {
          // A comment: EventSource ignores it; proxies see traffic, and a client that has gone is noticed here.
          client.sendComment("keep-alive");
          lastWrite = System.nanoTime();
        }
      }
    } catch (WakeupException e) {
      // close(): the server stops
    } catch (RuntimeException e) {
      LOG.warn("the event feed of namespace \"{}\" failed; closing it", namespace, e);
    } finally {
      end();
      client.close();
    }
  }

  private void end() {
    if (ended.compareAndSet(false, true)) {
      consumer.close(Duration.ZERO);
      onEnd.run();
    }
  }
}
