package io.coordinate.testing;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.TopicNames;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * What the app promised, as its outputs show it: reads {@code coordinate.events} and {@code coordinate.results}
 * (read_committed, from the beginning) and keeps, per unit of the watched namespaces, its status, how often it was
 * finished, its attempts and their leases. Any breach found on the way is kept as a violation:
 * <ul>
 *   <li>an attempt id handed out twice (a command applied twice);</li>
 *   <li>a unit added twice without being deleted in between;</li>
 *   <li>a unit finished twice, or two attempts of a unit finished (replicated specs aside);</li>
 *   <li>an attempt started while another attempt of the same unit held a valid lease (replicated specs aside);</li>
 *   <li>a replicated unit assimilated (a {@code coordinate.results} record) more than once.</li>
 * </ul>
 * Not thread-safe: one test thread polls it.
 */
public final class EventLedger implements AutoCloseable {

    /** A unit of a namespace: {@code spec/unit}. */
    public record UnitKey(String namespace, String spec, String unit) {}

    public static final class Unit {
        public String status;
        public int added;
        public int finishedTransitions;
        public int attemptsFinished;
        public int assimilated;
        final Map<String, Long> liveLeases = new HashMap<>(); // attempt id -> expiration, epoch ms
    }

    private final Set<String> namespaces;
    private final Set<String> replicatedSpecs;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final TopicNames topics = TopicNames.unprefixed();
    private final Map<UnitKey, Unit> units = new HashMap<>();
    private final Map<String, Set<String>> attemptIds = new HashMap<>();
    private final List<String> violations = new ArrayList<>();
    private final Map<String, Long> batchesByNamespace = new HashMap<>();
    private long batches;

    public EventLedger(String bootstrapServers, Set<String> namespaces, Set<String> replicatedSpecs) {
        this(
                namespaces,
                replicatedSpecs,
                new KafkaConsumer<>(
                        Map.of(
                                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                                bootstrapServers,
                                ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                                "read_committed",
                                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                                false,
                                ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
                                2000),
                        new ByteArrayDeserializer(),
                        new ByteArrayDeserializer()));
        List<TopicPartition> partitions = new ArrayList<>();
        for (String topic : List.of(topics.events(), topics.results())) {
            consumer.partitionsFor(topic).forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
    }

    /** A ledger fed by {@link #accept} only (the ledger's own test). */
    public EventLedger(Set<String> namespaces, Set<String> replicatedSpecs) {
        this(namespaces, replicatedSpecs, null);
    }

    private EventLedger(Set<String> namespaces, Set<String> replicatedSpecs, KafkaConsumer<byte[], byte[]> consumer) {
        this.namespaces = namespaces;
        this.replicatedSpecs = replicatedSpecs;
        this.consumer = consumer;
    }

    /** Reads what has been committed since the last poll (a short poll; call it in a wait loop). */
    public void poll() {
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
            String key = record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
            if (namespaces.contains(key)) {
                accept(record.topic(), key, Json.parse(new String(record.value(), StandardCharsets.UTF_8)));
            }
        }
    }

    /** One record of coordinate.events or coordinate.results of a watched namespace. */
    public void accept(String topic, String key, JsonNode value) {
        if (topic.equals(topics.results())) {
            Unit unit = unit(new UnitKey(
                    key,
                    value.path("work_spec_name").asText(),
                    value.path("work_unit_name").asText()));
            if (++unit.assimilated > 1) {
                violations.add("assimilated twice: " + value);
            }
        } else {
            batches++;
            batchesByNamespace.merge(key, 1L, Long::sum);
            apply(key, value);
        }
    }

    private void apply(String namespace, JsonNode batch) {
        long time = Instant.parse(batch.path("time").asText()).toEpochMilli();
        for (JsonNode event : batch.path("events")) {
            String type = event.path("type").asText();
            String spec = event.path("work_spec_name").asText(null);
            String name = event.path("work_unit_name").asText(null);
            if (spec == null || name == null) {
                continue; // worker and spec events
            }
            UnitKey key = new UnitKey(namespace, spec, name);
            Unit unit = unit(key);
            boolean replicated = replicatedSpecs.contains(spec);
            switch (type) {
                case "unit_added" -> {
                    if (++unit.added > 1) {
                        violations.add("added twice: " + key + " at "
                                + batch.path("time").asText());
                    }
                    unit.status = event.path("status").asText();
                }
                case "unit_deleted" -> {
                    unit.added = 0;
                    unit.status = "deleted";
                }
                case "unit_status_changed", "unit_updated" -> {
                    String status = event.path("status").asText();
                    if ("finished".equals(status)
                            && !"finished".equals(unit.status)
                            && ++unit.finishedTransitions > 1) {
                        violations.add("finished twice: " + key + " at "
                                + batch.path("time").asText());
                    }
                    unit.status = status;
                }
                case "attempt_started" -> {
                    String attempt = event.path("attempt_id").asText();
                    if (!attemptIds
                            .computeIfAbsent(namespace, n -> new HashSet<>())
                            .add(attempt)) {
                        violations.add("attempt id " + attempt + " handed out twice (" + key + ")");
                    }
                    if (!replicated) {
                        unit.liveLeases.forEach((other, expiration) -> {
                            if (expiration > time) {
                                violations.add("attempt " + attempt + " of " + key + " started at "
                                        + batch.path("time").asText() + " while attempt " + other
                                        + " held its lease until " + Instant.ofEpochMilli(expiration));
                            }
                        });
                    }
                    unit.liveLeases.put(attempt, expiration(event));
                }
                case "attempt_renewed" ->
                    unit.liveLeases.put(event.path("attempt_id").asText(), expiration(event));
                case "attempt_finished", "attempt_failed", "attempt_retried", "attempt_expired" -> {
                    unit.liveLeases.remove(event.path("attempt_id").asText());
                    if (type.equals("attempt_finished") && ++unit.attemptsFinished > 1 && !replicated) {
                        violations.add("second attempt finished: " + key + " ("
                                + event.path("attempt_id").asText() + ")");
                    }
                }
                default -> {}
            }
        }
    }

    private static long expiration(JsonNode event) {
        JsonNode expiration = event.get("expiration_time");
        return expiration == null || expiration.isNull()
                ? Long.MAX_VALUE
                : Instant.parse(expiration.asText()).toEpochMilli();
    }

    private Unit unit(UnitKey key) {
        return units.computeIfAbsent(key, k -> new Unit());
    }

    /** Polls until {@code done} holds for the ledger, or fails after {@code timeout} with what it saw. */
    public void awaitUntil(String what, Duration timeout, Predicate<EventLedger> done) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.test(this)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting for " + what + "; " + summary());
            }
            poll();
        }
    }

    /** The units of {@code expected} that have not (yet) finished. */
    public List<UnitKey> unfinished(Set<UnitKey> expected) {
        return expected.stream()
                .filter(k -> {
                    Unit unit = units.get(k);
                    return unit == null || !"finished".equals(unit.status);
                })
                .toList();
    }

    public long finishedCount() {
        return units.values().stream().filter(u -> "finished".equals(u.status)).count();
    }

    public Unit unitOf(UnitKey key) {
        return units.get(key);
    }

    public long batches() {
        return batches;
    }

    /** How many event batches of {@code namespace} have been read. */
    public long batches(String namespace) {
        return batchesByNamespace.getOrDefault(namespace, 0L);
    }

    public List<String> violations() {
        return violations;
    }

    public String summary() {
        Map<String, Integer> byStatus = new HashMap<>();
        units.values().forEach(u -> byStatus.merge(String.valueOf(u.status), 1, Integer::sum));
        return "units by status " + byStatus + ", " + batches + " event batches, violations "
                + violations.subList(0, Math.min(10, violations.size()));
    }

    @Override
    public void close() {
        if (consumer != null) {
            consumer.close();
        }
    }
}
