package io.coordinate.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.broker.EmbeddedKafkaBroker;
import io.coordinate.cli.SseParser;
import io.coordinate.client.NamespacePartitioner;
import io.coordinate.config.HttpSettings;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.TopicNames;
import io.coordinate.streams.topics.TopicBootstrapper;
import io.coordinate.streams.topics.TopicDefinitions;
import io.coordinate.testing.FixedLocator;
import io.coordinate.testing.Poll;
import io.coordinate.testing.SseStream;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gateway on a real broker, with a stand-in for the app that answers each command on the replies topic
 * the way the app does: in a transaction, keyed by {@code reply_to}. Before each real answer it writes two
 * that must be ignored: one for another client (other key) and one in an aborted transaction. The event feed's
 * reading of {@code coordinate.events} is checked on the same broker and prefixed topics.
 */
class KafkaCommandGatewayIT {

    private static final TopicNames TOPICS = new TopicNames("gw-");
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    static Path dir;

    private static EmbeddedKafkaBroker broker;
    private static Thread app;
    private static volatile boolean running = true;

    @BeforeAll
    static void startBrokerAndApp() throws Exception {
        broker = EmbeddedKafkaBroker.start(dir, 0);
        TopicBootstrapper.ensureTopics(broker.bootstrapServers(), TOPICS.prefix(), TopicDefinitions.fromClasspath());
        app = new Thread(KafkaCommandGatewayIT::answerCommands, "fake-app");
        app.setDaemon(true);
        app.start();
    }

    @AfterAll
    static void stop() throws Exception {
        running = false;
        app.join(10_000);
        broker.close();
    }

    @Test
    void correlatesEachReplyWithItsCommand() throws Exception {
        try (KafkaCommandGateway gateway = new KafkaCommandGateway(broker.bootstrapServers(), TOPICS)) {
            assertThat(gateway.replyTo()).startsWith("http-gateway-");
            List<CompletableFuture<ObjectNode>> replies = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                ObjectNode command = Json.object().put("command", "echo").put("i", i);
                replies.add(gateway.submit("ns-" + i, command, Duration.ofSeconds(30)));
            }
            for (int i = 0; i < 5; i++) {
                ObjectNode reply = replies.get(i).get(30, TimeUnit.SECONDS);
                assertThat(reply.get("ok").asBoolean()).isTrue();
                JsonNode echoed = reply.at("/result/command");
                assertThat(echoed.get("i").asInt()).isEqualTo(i);
                assertThat(echoed.get("namespace").asText()).isEqualTo("ns-" + i);
                assertThat(echoed.get("reply_to").asText()).isEqualTo(gateway.replyTo());
                assertThat(echoed.get("request_id").asText())
                        .isEqualTo(reply.get("request_id").asText());
                assertThat(reply.at("/result/key").asText()).isEqualTo("ns-" + i);
            }
        }
    }

    @Test
    void aCommandsOwnRequestIdIsSentAsItIsAndEachCallGetsItsOwnReply() throws Exception {
        try (KafkaCommandGateway gateway = new KafkaCommandGateway(broker.bootstrapServers(), TOPICS)) {
            List<CompletableFuture<ObjectNode>> replies = new ArrayList<>();
            for (int i = 0; i < 4; i++) { // one key, in two namespaces, twice in each
                ObjectNode command =
                        Json.object().put("command", "echo").put("i", i).put("request_id", "key-1");
                replies.add(gateway.submit("ns-" + (i % 2), command, Duration.ofSeconds(30)));
            }
            for (int i = 0; i < 4; i++) {
                ObjectNode reply = replies.get(i).get(30, TimeUnit.SECONDS);
                JsonNode echoed = reply.at("/result/command");
                assertThat(echoed.get("i").asInt()).isEqualTo(i);
                assertThat(echoed.get("request_id").asText()).isEqualTo("key-1");
                assertThat(reply.get("request_id").asText()).isEqualTo("key-1");
                assertThat(reply.get("correlation_id").asText())
                        .isEqualTo(echoed.get("correlation_id").asText());
            }
        }
    }

    @Test
    void noReplyInTimeFailsWithTimeoutException() {
        try (KafkaCommandGateway gateway = new KafkaCommandGateway(broker.bootstrapServers(), TOPICS)) {
            CompletableFuture<ObjectNode> reply =
                    gateway.submit("ns", Json.object().put("command", "silent"), Duration.ofMillis(500));
            assertThatThrownBy(() -> reply.get(30, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(TimeoutException.class);
        }
    }

    @Test
    void closeFailsTheCallsStillWaiting() {
        CompletableFuture<ObjectNode> reply;
        try (KafkaCommandGateway gateway = new KafkaCommandGateway(broker.bootstrapServers(), TOPICS)) {
            reply = gateway.submit("ns", Json.object().put("command", "silent"), Duration.ofMinutes(5));
        }
        assertThat(reply).isCompletedExceptionally();
    }

    /**
     * The event feed of {@link FeedRoutes} over the same broker and prefixed topics: a namespace's committed batches of
     * its partition only (not another key's, not an aborted transaction's), heartbeats, and a cap on open streams
     * whose slot comes back once a client has gone.
     */
    @Test
    void theEventFeedSendsOneNamespacesCommittedBatchesAndCapsItsStreams() throws Exception {
        String ns = "feed-ns";
        String topic = TOPICS.events();
        List<Long> offsets = new ArrayList<>();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        broker.bootstrapServers(),
                        ProducerConfig.TRANSACTIONAL_ID_CONFIG,
                        "feed-writer"),
                new StringSerializer(),
                new StringSerializer())) {
            int partition = NamespacePartitioner.partition(
                    ns.getBytes(StandardCharsets.UTF_8),
                    producer.partitionsFor(topic).size());
            producer.initTransactions();
            producer.beginTransaction();
            offsets.add(producer.send(new ProducerRecord<>(topic, partition, ns, "{\"n\":1}"))
                    .get()
                    .offset());
            producer.send(new ProducerRecord<>(topic, partition, "other-ns", "{\"other\":1}"))
                    .get();
            producer.commitTransaction();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, partition, ns, "{\"aborted\":1}"))
                    .get();
            producer.abortTransaction();
            producer.beginTransaction();
            offsets.add(producer.send(new ProducerRecord<>(topic, partition, ns, "{\"n\":2}"))
                    .get()
                    .offset());
            producer.commitTransaction();
        }
        FeedRoutes feeds = new FeedRoutes(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                TOPICS,
                new EventRoutes.Limits(1, 1, Duration.ofMillis(200), Duration.ofSeconds(30)),
                null);
        try (QueryServer server = new QueryServer(
                        new FixedLocator(new EngineFixture().store),
                        new FakeGateway(),
                        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT))
                .withFeeds(feeds)
                .start(0)) {
            Http http = new Http(server.port());
            URI uri = http.uri("/api/namespaces/" + ns + "/events?from=earliest");
            try (SseStream stream = SseStream.open(uri, null)) {
                assertThat(stream.status()).isEqualTo(200);
                assertThat(stream.next(WAIT))
                        .isEqualTo(new SseParser.Message("batch", offsets.get(0).toString(), "{\"n\":1}"));
                assertThat(stream.next(WAIT))
                        .isEqualTo(new SseParser.Message("batch", offsets.get(1).toString(), "{\"n\":2}"));
                // The end seen at open is past the second batch's commit marker.
                assertThat(stream.next(WAIT))
                        .isEqualTo(new SseParser.Message(
                                "caught_up", null, "{\"end_offset\":" + (offsets.get(1) + 2) + "}"));
                Poll.until("a heartbeat comment", WAIT, stream::comments, comments -> comments > 0);

                HttpResponse<String> second =
                        http.send(HttpRequest.newBuilder(uri).header("Accept", "text/event-stream"));
                QueryTestSupport.assertError(
                        second,
                        429,
                        "too_many_streams",
                        "this client (127.0.0.1) has 1 event streams open on this instance, the most one address may have");
                assertThat(second.headers().firstValue("Retry-After")).hasValue("1");
            }
            // The client has gone: the next heartbeat finds out, closes the consumer and frees the slot.
            Poll.until(
                    "a stream opens again",
                    WAIT,
                    () -> {
                        try (SseStream again = SseStream.open(uri, null)) {
                            return again.status();
                        }
                    },
                    status -> status == 200);
        }
    }

    /**
     * The idle timeout closes connections between requests, never an event stream waiting for its next batch: here the
     * stream stays silent three times as long as the timeout before its keep-alive, and still gets the next batch.
     */
    @Test
    void anEventStreamOutlivesTheIdleTimeout() throws Exception {
        String ns = "idle-ns";
        FeedRoutes feeds = new FeedRoutes(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                TOPICS,
                new EventRoutes.Limits(2, 2, Duration.ofSeconds(3), Duration.ofSeconds(30)),
                null);
        try (QueryServer server = new QueryServer(
                                new FixedLocator(new EngineFixture().store),
                                new FakeGateway(),
                                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT))
                        .withFeeds(feeds)
                        .withHttpSettings(new HttpSettings(8, Duration.ofSeconds(1), List.of(), List.of()))
                        .start(0);
                SseStream stream =
                        SseStream.open(new Http(server.port()).uri("/api/namespaces/" + ns + "/events"), null)) {
            assertThat(stream.status()).isEqualTo(200);
            assertThat(stream.next(WAIT).event()).isEqualTo("caught_up");
            Poll.until("a keep-alive, after three idle timeouts", WAIT, stream::comments, comments -> comments > 0);
            long offset;
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                    Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                    new StringSerializer(),
                    new StringSerializer())) {
                int partition = NamespacePartitioner.partition(
                        ns.getBytes(StandardCharsets.UTF_8),
                        producer.partitionsFor(TOPICS.events()).size());
                offset = producer.send(new ProducerRecord<>(TOPICS.events(), partition, ns, "{\"late\":1}"))
                        .get()
                        .offset();
            }
            assertThat(stream.next(WAIT))
                    .isEqualTo(new SseParser.Message("batch", Long.toString(offset), "{\"late\":1}"));
        }
    }

    /**
     * The stand-in app: echoes every command but "silent" back to its {@code reply_to}, with its {@code request_id} and
     * any {@code correlation_id}.
     */
    private static void answerCommands() {
        Map<String, Object> consumerConfig = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, "fake-app",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        Map<String, Object> producerConfig = Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                broker.bootstrapServers(),
                ProducerConfig.TRANSACTIONAL_ID_CONFIG,
                "fake-app");
        try (KafkaConsumer<String, byte[]> consumer =
                        new KafkaConsumer<>(consumerConfig, new StringDeserializer(), new ByteArrayDeserializer());
                KafkaProducer<String, byte[]> producer =
                        new KafkaProducer<>(producerConfig, new StringSerializer(), new ByteArraySerializer())) {
            producer.initTransactions();
            consumer.subscribe(List.of(TOPICS.commands()));
            while (running) {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                    ObjectNode command = (ObjectNode) Json.parse(record.value());
                    if (command.path("command").asText().equals("silent")) {
                        continue;
                    }
                    String replyTo = command.get("reply_to").asText();
                    String requestId = command.get("request_id").asText();
                    ObjectNode wrong =
                            Json.object().put("request_id", requestId).put("ok", false);
                    producer.beginTransaction();
                    producer.send(new ProducerRecord<>(TOPICS.replies(), replyTo, Json.bytes(wrong)));
                    producer.abortTransaction();
                    ObjectNode reply = Json.object().put("request_id", requestId);
                    if (command.has("correlation_id")) {
                        reply.set("correlation_id", command.get("correlation_id"));
                    }
                    reply.put("ok", true);
                    reply.putObject("result").put("key", record.key()).set("command", command);
                    producer.beginTransaction();
                    producer.send(new ProducerRecord<>(TOPICS.replies(), "someone-else", Json.bytes(wrong)));
                    producer.send(new ProducerRecord<>(TOPICS.replies(), replyTo, Json.bytes(reply)));
                    producer.commitTransaction();
                }
            }
        } catch (Exception e) {
            if (running) {
                throw new IllegalStateException("fake app failed", e);
            }
        }
    }
}
