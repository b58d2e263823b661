package io.coordinate.testing;

import io.coordinate.cli.SseParser;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A Server-Sent Events client for tests, as a browser's EventSource reads a stream: each message (event, id, data)
 * is queued as it comes; comments are counted. {@link #close()} hangs up, as a closed browser tab does.
 */
public final class SseStream implements AutoCloseable {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private final BlockingQueue<SseParser.Message> messages = new LinkedBlockingQueue<>();
    private final AtomicInteger comments = new AtomicInteger();
    private final CompletableFuture<Integer> status = new CompletableFuture<>();
    private final CompletableFuture<HttpResponse<Void>> response;
    private volatile Flow.Subscription subscription;

    private SseStream(URI uri, String lastEventId) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri)
                .header("Accept", "text/event-stream")
                .GET();
        if (lastEventId != null) {
            request.header("Last-Event-ID", lastEventId);
        }
        // The response future completes only at the end of the body: the status is taken as the headers come.
        response = HTTP.sendAsync(request.build(), info -> {
            status.complete(info.statusCode());
            return HttpResponse.BodySubscribers.fromLineSubscriber(new Lines());
        });
        response.whenComplete((r, e) -> {
            if (e != null) {
                status.completeExceptionally(e);
            }
        });
    }

    /** Opens {@code uri}; answers once the server has answered with its status. */
    public static SseStream open(URI uri, String lastEventId) {
        SseStream stream = new SseStream(uri, lastEventId);
        stream.status();
        return stream;
    }

    /** The HTTP status of the answer. */
    public int status() {
        try {
            return status.get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("no answer to the event stream request", e);
        }
    }

    /** The next message, waiting up to {@code timeout}; fails when none comes. */
    public SseParser.Message next(Duration timeout) {
        try {
            SseParser.Message message = messages.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (message == null) {
                throw new AssertionError("no event within " + timeout);
            }
            return message;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** How many comment lines ({@code : ...}) came so far. */
    public int comments() {
        return comments.get();
    }

    @Override
    public void close() {
        Flow.Subscription current = subscription;
        if (current != null) {
            current.cancel();
        }
        response.cancel(true);
    }

    /** Queues each message of the lines as it completes, and counts the comments. */
    private final class Lines implements Flow.Subscriber<String> {
        private final SseParser parser = new SseParser();

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(String line) {
            if (SseParser.isComment(line)) {
                comments.incrementAndGet();
            }
            SseParser.Message message = parser.line(line);
            if (message != null) {
                messages.add(message);
            }
        }

        @Override
        public void onError(Throwable throwable) {}

        @Override
        public void onComplete() {}
    }
}
