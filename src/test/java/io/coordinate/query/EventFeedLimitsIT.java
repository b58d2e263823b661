package io.coordinate.query;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.ThreadMXBean;
import io.coordinate.broker.EmbeddedKafkaBroker;
import io.coordinate.cli.SseParser;
import io.coordinate.client.NamespacePartitioner;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.TopicNames;
import io.coordinate.streams.topics.TopicBootstrapper;
import io.coordinate.streams.topics.TopicDefinitions;
import io.coordinate.testing.FixedLocator;
import io.coordinate.testing.Poll;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The event feed's bounds on a real broker: a client that reads nothing costs a bounded amount and loses its stream
 * after the write timeout, then resumes where it stopped; one address gets its share of the streams, the instance
 * its total.
 */
class EventFeedLimitsIT {

    private static final TopicNames TOPICS = new TopicNames("limits-");
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    static Path dir;

    private static EmbeddedKafkaBroker broker;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = EmbeddedKafkaBroker.start(dir, 0);
        TopicBootstrapper.ensureTopics(broker.bootstrapServers(), TOPICS.prefix(), TopicDefinitions.fromClasspath());
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    private static QueryServer server(EventRoutes.Limits limits) {
        FeedRoutes feeds = new FeedRoutes(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()), TOPICS, limits, null);
        return new QueryServer(
                        new FixedLocator(new EngineFixture().store),
                        new FakeGateway(),
                        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT))
                .withFeeds(feeds)
                .start(0);
    }

    /**
     * Batches of 100 KB that lz4 packs hundreds to a fetch, as the app's events of long names: a stream that took
     * every record of a fetch at once held them all while its client read nothing. Now it takes one record at a time,
     * as its client takes the last: the records it has taken are those the connection's buffers hold, and one more.
     */
    @Test
    void aClientThatReadsNothingCostsABoundedAmountLosesItsStreamAndResumesWhereItStopped() throws Exception {
        String ns = "slow-reader";
        int records = 600;
        int valueBytes = 100_000;
        List<Long> offsets = produce(ns, records, valueBytes);
        try (QueryServer server = server(new EventRoutes.Limits(1, 1, Duration.ofMillis(200), Duration.ofSeconds(2)))) {
            try (RawStream stalled = RawStream.open("127.0.0.1", server.port(), ns, "?from=earliest", null, 4096)) {
                assertThat(stalled.status).isEqualTo(200);
                Thread feed =
                        Poll.until("the feed's thread", WAIT, EventFeedLimitsIT::feedThread, thread -> thread != null);
                // The client reads nothing: the thread fills the connection's buffers, then waits in a write.
                Poll.until(
                        "the feed blocked in a write",
                        WAIT,
                        () -> Arrays.toString(feed.getStackTrace()),
                        stack -> feed.getState() == Thread.State.WAITING && stack.contains("HttpOutput"));
                assertThat(allocated(feed))
                        .as("bytes the stalled stream's thread allocated")
                        .isLessThan(20L * 1024 * 1024);

                // The write timeout ends the stream; reading now, the client finds its end after the last whole
                // message.
                Poll.until("the stalled stream closed", WAIT, feed::isAlive, alive -> !alive);
                List<SseParser.Message> received = stalled.readToEnd(WAIT);
                assertThat(received).isNotEmpty().hasSizeLessThan(records);
                for (int i = 0; i < received.size(); i++) {
                    assertThat(received.get(i).id()).isEqualTo(offsets.get(i).toString());
                }
                String lastId = received.get(received.size() - 1).id();

                // Its slot comes back (one stream in all), and Last-Event-ID goes on after the last batch it got.
                SseParser.Message next = Poll.until(
                        "the stream resumed",
                        WAIT,
                        () -> {
                            try (RawStream resumed =
                                    RawStream.open("127.0.0.1", server.port(), ns, "?from=earliest", lastId, 0)) {
                                return resumed.status == 200 ? resumed.next() : null;
                            }
                        },
                        message -> message != null);
                assertThat(next.id()).isEqualTo(offsets.get(received.size()).toString());
            }
        }
    }

    @Test
    void eachAddressHasItsShareOfTheStreamsAndTheInstanceItsTotal() throws Exception {
        try (QueryServer server = server(new EventRoutes.Limits(3, 2, Duration.ofMillis(200), Duration.ofSeconds(30)));
                RawStream first = RawStream.open("127.0.0.1", server.port(), "caps", "", null, 0);
                RawStream second = RawStream.open("127.0.0.1", server.port(), "caps", "", null, 0)) {
            assertThat(List.of(first.status, second.status)).containsExactly(200, 200);
            try (RawStream third = RawStream.open("127.0.0.1", server.port(), "caps", "", null, 0)) {
                assertThat(third.status).isEqualTo(429);
                assertThat(third.headers.get("retry-after")).isEqualTo("1");
                assertThat(Json.parse(third.body()))
                        .isEqualTo(
                                Responses.error(
                                        "too_many_streams",
                                        "this client (127.0.0.1) has 2 event streams open on this instance, the most one address may have"));
            }
            // Another client is not locked out by the first one's streams...
            try (RawStream other = RawStream.open("127.0.0.2", server.port(), "caps", "", null, 0)) {
                assertThat(other.status).isEqualTo(200);
                // ... until the instance serves its total.
                try (RawStream full = RawStream.open("127.0.0.3", server.port(), "caps", "", null, 0)) {
                    assertThat(full.status).isEqualTo(503);
                    assertThat(full.headers.get("retry-after")).isEqualTo("1");
                    assertThat(Json.parse(full.body()))
                            .isEqualTo(Responses.error(
                                    "too_many_streams", "this instance serves at most 3 event streams at once"));
                }
            }
            // A client that has gone gives its slot back (the next heartbeat finds out).
            Poll.until(
                    "a slot for a third address",
                    WAIT,
                    () -> {
                        try (RawStream again = RawStream.open("127.0.0.3", server.port(), "caps", "", null, 0)) {
                            return again.status;
                        }
                    },
                    status -> status == 200);
        }
    }

    /** Sends {@code n} batches of the namespace, compressed as the app sends its events; answers their offsets. */
    private static List<Long> produce(String ns, int n, int valueBytes) throws Exception {
        Map<String, Object> config = Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                broker.bootstrapServers(),
                ProducerConfig.COMPRESSION_TYPE_CONFIG,
                "lz4",
                ProducerConfig.BATCH_SIZE_CONFIG,
                128 * 1024,
                ProducerConfig.LINGER_MS_CONFIG,
                50);
        List<Long> offsets = new ArrayList<>();
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
            int partition = NamespacePartitioner.partition(
                    ns.getBytes(StandardCharsets.UTF_8),
                    producer.partitionsFor(TOPICS.events()).size());
            List<java.util.concurrent.Future<org.apache.kafka.clients.producer.RecordMetadata>> sent =
                    new ArrayList<>();
            for (int i = 0; i < n; i++) {
                String value = "{\"n\":" + i + ",\"pad\":\"" + "x".repeat(valueBytes) + "\"}";
                sent.add(producer.send(new ProducerRecord<>(TOPICS.events(), partition, ns, value)));
            }
            for (var future : sent) {
                offsets.add(future.get().offset());
            }
        }
        return offsets;
    }

    /** The thread of the one open feed ({@code event-feed-<partition>}). */
    private static Thread feedThread() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("event-feed-"))
                .findFirst()
                .orElse(null);
    }

    private static long allocated(Thread thread) {
        return ((ThreadMXBean) ManagementFactory.getThreadMXBean()).getThreadAllocatedBytes(thread.getId());
    }

    /**
     * A client on a raw socket, from a local address of its choice (a second client on this machine), that reads
     * only when told to: the status and headers at open, then nothing until {@link #readToEnd} or {@link #next}.
     */
    private static final class RawStream implements AutoCloseable {

        private final Socket socket;
        private final BufferedReader in;
        final int status;
        final Map<String, String> headers = new LinkedHashMap<>();
        private final SseParser parser = new SseParser();

        private RawStream(Socket socket, BufferedReader in, int status) {
            this.socket = socket;
            this.in = in;
            this.status = status;
        }

        /** @param receiveBuffer the socket's receive buffer, small for a client that reads nothing; 0: the default */
        static RawStream open(
                String localAddress, int port, String ns, String query, String lastEventId, int receiveBuffer) {
            try {
                return connect(localAddress, port, ns, query, lastEventId, receiveBuffer);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private static RawStream connect(
                String localAddress, int port, String ns, String query, String lastEventId, int receiveBuffer)
                throws IOException {
            Socket socket = new Socket();
            if (receiveBuffer > 0) {
                socket.setReceiveBufferSize(receiveBuffer);
            }
            socket.bind(new InetSocketAddress(localAddress, 0));
            socket.connect(new InetSocketAddress("127.0.0.1", port));
            socket.setSoTimeout((int) WAIT.toMillis());
            String request = "GET /api/namespaces/" + ns + "/events" + query + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Accept: text/event-stream\r\n"
                    + (lastEventId == null ? "" : "Last-Event-ID: " + lastEventId + "\r\n")
                    + "\r\n";
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            // Only the status line and the headers: a stalled client's bytes stay in the socket.
            BufferedReader in =
                    new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8), 256);
            String statusLine = in.readLine();
            RawStream stream =
                    new RawStream(socket, in, Integer.parseInt(statusLine.split(" ")[1]));
            for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
                int colon = line.indexOf(':');
                stream.headers.put(
                        line.substring(0, colon).strip().toLowerCase(),
                        line.substring(colon + 1).strip());
            }
            return stream;
        }

        /** The body of an error answer. */
        String body() throws IOException {
            char[] body = new char[Integer.parseInt(headers.get("content-length"))];
            int read = 0;
            while (read < body.length) {
                read += in.read(body, read, body.length - read);
            }
            return new String(body);
        }

        /** The next message. */
        SseParser.Message next() {
            try {
                return nextMessage();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private SseParser.Message nextMessage() throws IOException {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                SseParser.Message message = parser.line(line);
                if (message != null) {
                    return message;
                }
            }
            throw new AssertionError("the stream ended");
        }

        /** Every whole message up to the end of the stream, which must come within {@code timeout}. */
        List<SseParser.Message> readToEnd(Duration timeout) throws IOException {
            socket.setSoTimeout((int) timeout.toMillis());
            List<SseParser.Message> messages = new ArrayList<>();
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                SseParser.Message message = parser.line(line);
                if (message != null && message.event().equals("batch")) {
                    messages.add(message);
                }
            }
            return messages;
        }

        @Override
        public void close() {
            try {
                socket.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
