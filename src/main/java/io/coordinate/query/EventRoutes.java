package io.coordinate.query;

import io.coordinate.feeds.TopicReader;
import io.javalin.http.Context;
import io.javalin.http.sse.SseClient;
import io.javalin.http.sse.SseHandler;
import io.javalin.router.JavalinDefaultRouting;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.KafkaException;

/**
 * {@code GET /api/namespaces/{ns}/events}: the namespace's event batches ({@code coordinate.events}) as
 * Server-Sent Events, read by any instance with a consumer of its own. Each batch record is one message: {@code id:}
 * its offset, {@code event: batch}, {@code data:} the batch JSON as on the topic. Once every batch before the end
 * seen at open has been sent, one {@code event: caught_up} with {@code data: {"end_offset": N}} (no id). A comment
 * line every 15 s keeps proxies from closing an idle stream.
 *
 * <p>{@code ?from=now} (the default: only what comes next), {@code earliest} (the oldest batch kept) or an offset
 * (that batch on); a {@code Last-Event-ID} header (an EventSource reconnecting) wins and resumes after that offset.
 * The request needs {@code Accept: text/event-stream} (406 {@code not_acceptable} without); 400 {@code bad_request}
 * for another {@code from}; 429 {@code too_many_streams} beyond {@link Limits#streamsPerClient()} streams from one
 * address, 503 {@code too_many_streams} beyond {@link Limits#streams()} on this instance ({@link StreamSlots}), 503
 * {@code unavailable} when Kafka cannot be read. A namespace that does not exist gets a stream all the same: its
 * first events show when it is written.
 *
 * <p>Each stream reads Kafka only as fast as its client takes the bytes ({@link EventStream}), and a client that
 * takes nothing for {@link Limits#writeTimeout()} loses its stream: it resumes with {@code Last-Event-ID}.
 */
final class EventRoutes implements AutoCloseable {

    static final String PATH = "/api/namespaces/{ns}/events";
    static final String EVENT_STREAM = "text/event-stream";
    private static final String STREAM_ATTRIBUTE = "coordinate.event-stream";

    /**
     * How many streams, and how long a client may leave one unread.
     *
     * @param streams          open streams on this instance: each holds a consumer (a connection to a broker), a thread
     *                         and up to a fetch and a record ({@link EventStream})
     * @param streamsPerClient open streams from one remote address
     * @param heartbeat        the longest a stream stays silent: a comment then
     * @param writeTimeout     the longest a write may make no progress before the stream is closed; longer than the
     *                         heartbeat, so that only a client that stopped reading meets it
     */
    record Limits(int streams, int streamsPerClient, Duration heartbeat, Duration writeTimeout) {
        static final Limits DEFAULT = new Limits(32, 8, Duration.ofSeconds(15), Duration.ofSeconds(30));

        Limits {
            if (writeTimeout.compareTo(heartbeat.multipliedBy(2)) < 0) {
                throw new IllegalArgumentException("the write timeout must be at least twice the heartbeat");
            }
        }
    }

    private final Map<String, Object> clientProperties;
    private final String topic;
    private final Limits limits;
    private final StreamSlots slots;
    private final Set<EventStream> open = ConcurrentHashMap.newKeySet();
    private final SseHandler sse = new SseHandler(this::start);

    EventRoutes(Map<String, Object> clientProperties, String topic, Limits limits) {
        this.clientProperties = Map.copyOf(clientProperties);
        this.topic = topic;
        this.limits = limits;
        this.slots = new StreamSlots(limits.streams(), limits.streamsPerClient());
    }

    void register(JavalinDefaultRouting routes) {
        routes.get(PATH, this::open);
    }

    private void open(Context ctx) throws Exception {
        if (!EVENT_STREAM.equals(ctx.header("Accept"))) {
            throw new QueryError(
                    406,
                    "not_acceptable",
                    "this route is a stream of Server-Sent Events: send the header " + "\"Accept: " + EVENT_STREAM
                            + "\"",
                    false);
        }
        EventStream.From from = from(ctx);
        // The peer's own address, never a header a client could set (X-Forwarded-For).
        Runnable release = slots.acquire(ctx.req().getRemoteAddr());
        EventStream[] opened = new EventStream[1];
        Runnable onEnd = () -> {
            if (opened[0] != null) {
                open.remove(opened[0]);
            }
            release.run();
        };
        try {
            opened[0] = EventStream.open(clientProperties, topic, ctx.pathParam("ns"), from, limits, onEnd);
        } catch (TopicReader.NoSuchTopicException | KafkaException e) {
            throw QueryError.unavailable("cannot read " + topic + ": " + e.getMessage());
        }
        open.add(opened[0]);
        ctx.attribute(STREAM_ATTRIBUTE, opened[0]);
        try {
            sse.handle(ctx);
        } catch (Exception | Error e) {
            opened[0].close();
            throw e;
        }
    }

    private void start(SseClient client) {
        EventStream stream = client.ctx().attribute(STREAM_ATTRIBUTE);
        stream.start(client);
    }

    /** Where to start: after {@code Last-Event-ID}, else {@code from}. */
    private static EventStream.From from(Context ctx) {
        String lastEventId = ctx.header("Last-Event-ID");
        if (lastEventId != null && !lastEventId.isBlank()) {
            return EventStream.From.offset(
                    offset("the header Last-Event-ID must be an offset", lastEventId.strip()) + 1);
        }
        String from = ctx.queryParam("from");
        if (from == null || from.isEmpty() || from.equals("now")) {
            return EventStream.From.NOW;
        }
        return from.equals("earliest")
                ? EventStream.From.EARLIEST
                : EventStream.From.offset(offset("\"from\" must be now, earliest or an offset", from));
    }

    private static long offset(String rule, String text) {
        try {
            long offset = Long.parseLong(text);
            if (offset >= 0 && offset < Long.MAX_VALUE) {
                return offset;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw QueryError.badRequest("bad_request", rule + " (a whole number >= 0), got \"" + text + "\"");
    }

    /** Ends every open stream (the server stops). */
    @Override
    public void close() {
        open.forEach(EventStream::close);
    }
}
