package io.coordinate.query;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.TopicNames;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link CommandGateway} over Kafka: writes the command to {@code coordinate.commands} (key = namespace)
 * with this instance's {@code reply_to} ({@code http-gateway-<uuid>}) and a fresh {@code request_id}, and
 * completes the call when the reply with that {@code request_id} arrives on {@code coordinate.replies}.
 *
 * <p>The reply consumer is assigned every partition of the replies topic (no group, nothing committed) and
 * reads committed records only: the app writes replies in transactions, and an aborted one must not answer.
 * Its start position is fixed at the end <em>before</em> the first command can be sent, so no reply is
 * missed. One daemon thread polls; {@link #close()} stops it and fails the calls still waiting.
 */
public final class KafkaCommandGateway implements CommandGateway {

  private static final Logger LOG = LoggerFactory.getLogger(KafkaCommandGateway.class);
  private static final Duration POLL = Duration.ofMillis(200);

  private final TopicNames topics;
  private final String replyTo = "http-gateway-" + UUID.randomUUID();
  private final Map<String, CompletableFuture<ObjectNode>> waiting = new ConcurrentHashMap<>();
  private final KafkaProducer<String, byte[]> producer;
  private final KafkaConsumer<String, byte[]> consumer;
  private final Thread poller;
  private volatile boolean running = true;

  public KafkaCommandGateway(String bootstrapServers, TopicNames topics) {
    this(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers), topics);
  }

  /**
   * @param clientProperties what every client of the app starts from: bootstrap servers and the TLS and SASL
   *     settings ({@code io.coordinate.app.KafkaClientSettings.base})
   */
  public KafkaCommandGateway(Map<String, Object> clientProperties, TopicNames topics) {
    this.topics = topics;
    this.producer = new KafkaProducer<>(producerConfig(clientProperties));
    this.consumer = new KafkaConsumer<>(consumerConfig(clientProperties));
    try {
      List<TopicPartition> partitions = new ArrayList<>();
      for (PartitionInfo info : consumer.partitionsFor(topics.replies())) {
        partitions.add(new TopicPartition(info.topic(), info.partition()));
      }
      if (partitions.isEmpty()) {
        throw new IllegalStateException("topic " + topics.replies() + " has no partitions (does it exist?)");
      }
      consumer.assign(partitions);
      consumer.seekToEnd(partitions);
      partitions.forEach(consumer::position); // seekToEnd is lazy: resolve it now, before anything is sent
    } catch (RuntimeException e) {
      consumer.close();
      producer.close();
      throw e;
    }
    this.poller = new Thread(this::pollReplies, "command-gateway-replies");
    poller.setDaemon(true);
    poller.start();
  }

  /** The {@code reply_to} this gateway's commands carry. */
  public String replyTo() {
    return replyTo;
  }

  @Override
  public CompletableFuture<ObjectNode> submit(String namespace, ObjectNode command, Duration timeout) {
    if (!running) {
      return CompletableFuture.failedFuture(new IllegalStateException("gateway closed"));
    }
    String requestId = UUID.randomUUID().toString();
    ObjectNode body = command.deepCopy();
    body.put("namespace", namespace);
    body.put("reply_to", replyTo);
    body.put("request_id", requestId);
    CompletableFuture<ObjectNode> reply = new CompletableFuture<>();
    waiting.put(requestId, reply);
    // orTimeout fails with TimeoutException; either way the entry is dropped so the map cannot grow.
    reply.orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).whenComplete((r, e) -> waiting.remove(requestId));
    try {
      producer.send(new ProducerRecord<>(topics.commands(), namespace, Json.bytes(body)), (metadata, error) -> {
        if (error != null) {
          reply.completeExceptionally(error);
        }
      });
    } catch (RuntimeException e) { // e.g. a full buffer or a closed producer: fail now, not at the timeout
      reply.completeExceptionally(e);
    }
    return reply;
  }

  private void pollReplies() {
    try {
      while (running) {
        for (ConsumerRecord<String, byte[]> record : consumer.poll(POLL)) {
          if (replyTo.equals(record.key())) {
            complete(record.value());
          }
        }
      }
    } catch (WakeupException e) {
      // close() woke us up
    } catch (RuntimeException e) {
      LOG.error("reply consumer stopped; pending commands will time out", e);
    } finally {
      consumer.close();
    }
  }

  private void complete(byte[] value) {
    try {
      JsonNode reply = Json.parse(value);
      CompletableFuture<ObjectNode> waiter = reply.isObject() ? waiting.remove(reply.path("request_id").asText()) : null;
      if (waiter != null) {
        waiter.complete((ObjectNode) reply);
      }
    } catch (IOException e) {
      LOG.warn("ignoring a reply that is not JSON: {}", e.getMessage());
    }
  }

  @Override
  public void close() {
    if (!running) {
      return;
    }
    running = false;
    consumer.wakeup();
    try {
      poller.join(TimeUnit.SECONDS.toMillis(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    producer.close(Duration.ofSeconds(10));
    IllegalStateException closed = new IllegalStateException("gateway closed");
    waiting.values().forEach(waiter -> waiter.completeExceptionally(closed));
    waiting.clear();
  }

  private static Properties producerConfig(Map<String, Object> clientProperties) {
    Properties props = new Properties();
    props.putAll(clientProperties);
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    props.put(ProducerConfig.LINGER_MS_CONFIG, 0); // one request waits on each record: do not hold it back
    return props;
  }

  private static Properties consumerConfig(Map<String, Object> clientProperties) {
    Properties props = new Properties();
    props.putAll(clientProperties);
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
    props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    return props;
  }
}
