package io.coordinate.fault;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.TopicNames;
import io.coordinate.testing.EventLedger;
import io.coordinate.testing.EventLedger.UnitKey;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Work for the app and workers that do it, over Kafka only: a namespace with a plain spec, a job tree (parents
 * with children and heirs, docs/children-and-heirs.md) and a replicated spec (quorum 2, docs/replication.md), and
 * {@link #WORKERS} workers on distinct hosts that keep asking for attempts with a short lease and finish every
 * attempt they get at once (a replica with the unit's name as its result, so that replicas agree). Commands are
 * only ever sent once (an idempotent producer): whatever the app does with them across crashes is what the
 * {@link EventLedger} checks.
 */
final class Workload implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Workload.class);
    static final String PLAIN = "plain";
    static final String TREE = "tree";
    static final String KIDS = "kids";
    static final String REPLICATED = "boinc";
    private static final String HEIR = "-heir";
    /**
     * Workers, each on a host of its own. A host never gets a second replica of a unit, and each fault can cost a
     * replicated unit the replicas in flight (two, its quorum): with 3 hosts, two kills left some units with no host
     * to run on. Ten hosts cover the four faults of a test.
     */
    static final int WORKERS = 10;
    /** The lease of every attempt, in seconds: short, so that attempts lost in a crash come back soon. */
    static final double LEASE_SECONDS = 3;

    private static final int REQUEST_COUNT = 25;
    /** A worker asks again after this long without an answer (its request may wait for a restart). */
    private static final long REQUEST_RETRY_MS = 3_000;

    private final String namespace;
    private final TopicNames topics = TopicNames.unprefixed();
    private final KafkaProducer<String, String> producer;
    private final KafkaConsumer<byte[], byte[]> assignments;
    private final Set<UnitKey> expected = ConcurrentHashMap.newKeySet();
    private final Map<String, Long> lastRequest = new ConcurrentHashMap<>();
    private final AtomicLong finishesSent = new AtomicLong();
    private final AtomicLong requestsSent = new AtomicLong();
    private final AtomicLong assignmentsReceived = new AtomicLong();
    private final Thread worker;
    private volatile boolean stopped;
    private volatile RuntimeException failure;

    Workload(String bootstrapServers, String namespace) {
        this.namespace = namespace;
        this.producer = new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrapServers,
                        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                        true,
                        ProducerConfig.ACKS_CONFIG,
                        "all",
                        ProducerConfig.LINGER_MS_CONFIG,
                        5,
                        ProducerConfig.MAX_REQUEST_SIZE_CONFIG,
                        2 * 1024 * 1024,
                        // A broker restart can take a while under load: the producer keeps its records and retries.
                        ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
                        300_000),
                new StringSerializer(),
                new StringSerializer());
        this.assignments = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrapServers,
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        false),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        List<TopicPartition> partitions = assignments.partitionsFor(topics.assignments()).stream()
                .map(p -> new TopicPartition(topics.assignments(), p.partition()))
                .toList();
        assignments.assign(partitions);
        assignments.seekToEnd(partitions);
        partitions.forEach(assignments::position); // pin the start before the first request goes out
        this.worker = new Thread(this::work, "fault-workers-" + namespace);
        this.worker.setDaemon(true);
    }

    /** Defines the specs and the workers (on hosts h1..h10), then starts working. */
    Workload start() {
        define();
        worker.start();
        return this;
    }

    /** Defines the specs and the workers, for work that another worker does. */
    Workload define() {
        send(Json.object()
                .put("command", "set_work_spec")
                .set("work_spec", Json.object().put("name", PLAIN)));
        send(Json.object()
                .put("command", "set_work_spec")
                .set("work_spec", Json.object().put("name", TREE)));
        send(Json.object()
                .put("command", "set_work_spec")
                .set("work_spec", Json.object().put("name", KIDS)));
        send(Json.object()
                .put("command", "set_work_spec")
                // Each kill can leave a replica unanswered past its lease: enough room for those in the error budget,
                // so that
                // a unit fails only for a reason of its own, not for the faults the suite injects.
                .set(
                        "work_spec",
                        Json.object()
                                .put("name", REPLICATED)
                                .put("min_quorum", 2)
                                .put("max_error_results", 20)
                                .put("max_total_results", 40)));
        for (int w = 1; w <= WORKERS; w++) {
            send(Json.object()
                    .put("command", "worker_heartbeat")
                    .put("worker", workerName(w))
                    .put("parent", "h" + w));
        }
        return this;
    }

    /** {@code count} units {@code prefix0..} in one {@code add_work_units} of {@code spec}. */
    void addUnits(String spec, String prefix, int count) {
        ArrayNode units = Json.MAPPER.createArrayNode();
        for (int i = 0; i < count; i++) {
            String name = prefix + i;
            units.add(Json.object().put("name", name));
            expected.add(new UnitKey(namespace, spec, name));
        }
        send(Json.object()
                .put("command", "add_work_units")
                .put("work_spec_name", spec)
                .set("work_units", units));
    }

    /**
     * {@code count} job trees: a parent with three children (in another spec) and an heir each. The worker that runs
     * a parent adds its children during the attempt, as a job adds its steps (docs/children-and-heirs.md): children
     * parked under an attempt that a fault expires are discarded with it, and the next attempt adds them again.
     */
    void addTrees(String prefix, int count) {
        for (int i = 0; i < count; i++) {
            String parent = prefix + i;
            add(TREE, List.of(Json.object().put("name", parent)));
            for (String kid : kids(parent)) {
                expected.add(new UnitKey(namespace, KIDS, kid));
            }
            add(TREE, List.of(Json.object().put("name", parent + HEIR).set("predecessor", ref(TREE, parent))));
        }
    }

    private static List<String> kids(String parent) {
        return List.of(parent + "-kid0", parent + "-kid1", parent + "-kid2");
    }

    /** What the worker does in a parent's attempt before it finishes it: it adds the parent's children. */
    private void addKids(String parent) {
        ArrayNode units = Json.MAPPER.createArrayNode();
        kids(parent).forEach(kid -> units.add(Json.object().put("name", kid).set("parent", ref(TREE, parent))));
        send(Json.object()
                .put("command", "add_work_units")
                .put("work_spec_name", KIDS)
                .set("work_units", units));
    }

    private void add(String spec, List<ObjectNode> units) {
        ArrayNode array = Json.MAPPER.createArrayNode();
        units.forEach(u -> {
            array.add(u);
            expected.add(new UnitKey(namespace, spec, u.get("name").asText()));
        });
        send(Json.object()
                .put("command", "add_work_units")
                .put("work_spec_name", spec)
                .set("work_units", array));
    }

    private static ObjectNode ref(String spec, String unit) {
        return Json.object().put("work_spec_name", spec).put("work_unit_name", unit);
    }

    /** Every unit added so far. */
    Set<UnitKey> expected() {
        return Set.copyOf(expected);
    }

    long finishesSent() {
        return finishesSent.get();
    }

    long requestsSent() {
        return requestsSent.get();
    }

    long assignmentsReceived() {
        return assignmentsReceived.get();
    }

    /** Fails the test's thread with what stopped the workers, if anything did. */
    void check() {
        if (failure != null) {
            throw failure;
        }
    }

    private void work() {
        try {
            while (!stopped) {
                long now = System.currentTimeMillis();
                for (int w = 1; w <= WORKERS; w++) {
                    String name = workerName(w);
                    if (now - lastRequest.getOrDefault(name, 0L) > REQUEST_RETRY_MS) {
                        request(name);
                    }
                }
                for (ConsumerRecord<byte[], byte[]> record : assignments.poll(Duration.ofMillis(100))) {
                    JsonNode assignment = Json.parse(new String(record.value(), StandardCharsets.UTF_8));
                    if (!namespace.equals(assignment.path("namespace").asText())) {
                        continue;
                    }
                    String name = assignment.path("worker").asText();
                    assignmentsReceived.incrementAndGet();
                    for (JsonNode attempt : assignment.path("attempts")) {
                        String unit = attempt.path("work_unit_name").asText();
                        if (attempt.path("work_spec_name").asText().equals(TREE) && !unit.endsWith(HEIR)) {
                            addKids(unit); // sent before the finish, on the same partition: applied first
                        }
                        ObjectNode data = Json.object()
                                .set(
                                        "result",
                                        Json.object()
                                                .put(
                                                        "unit",
                                                        attempt.path("work_unit_name")
                                                                .asText()));
                        send(Json.object()
                                .put("command", "finish_attempt")
                                .put("attempt_id", attempt.path("attempt_id").asText())
                                .set("data", data));
                        finishesSent.incrementAndGet();
                    }
                    // Answered: ask again at once; an empty answer waits for the retry period.
                    if (!assignment.path("attempts").isEmpty()) {
                        request(name);
                    }
                }
            }
        } catch (RuntimeException e) {
            if (!stopped) {
                LOG.error("workers stopped", e);
                failure = e;
            }
        }
    }

    private void request(String name) {
        lastRequest.put(name, System.currentTimeMillis());
        requestsSent.incrementAndGet();
        send(Json.object()
                .put("command", "request_attempts")
                .put("worker", name)
                .put("count", REQUEST_COUNT)
                .put("lifetime", LEASE_SECONDS));
    }

    private static String workerName(int w) {
        return "w" + w;
    }

    private void send(ObjectNode command) {
        command.put("namespace", namespace);
        producer.send(new ProducerRecord<>(topics.commands(), namespace, command.toString()), (metadata, e) -> {
            if (e != null && !stopped) {
                LOG.error("a command was not sent", e);
                failure = new IllegalStateException("a command was not sent: " + command.path("command"), e);
            }
        });
    }

    @Override
    public void close() {
        stopped = true;
        try {
            worker.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producer.close(Duration.ofSeconds(5));
        assignments.close();
    }
}
