package io.coordinate.client;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * When a {@link Worker} asks for work and for how much. It may hold as many attempts as its {@link AttemptHolding}
 * says (handlers plus a queue); each request reserves the slots it asked for until its answer comes, so several may
 * be in flight, and its round trip goes to the holding. It asks once half the capacity is free, once a free handler
 * has waited {@link #LINGER_NANOS}, or when it holds nothing: handlers that end one by one would otherwise each cost a
 * request. After an empty answer it waits ({@link Backoff}) before asking again; after an answer a rate limit held
 * short, as long as the answer says (at most the backoff's maximum).
 *
 * <p>Pure and single-threaded: times are {@link System#nanoTime()} values passed in, so a test drives it with any
 * clock.
 */
final class RequestPacer {

    /** How long a free handler waits for others before the worker asks for work for it alone. */
    static final long LINGER_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    private final AttemptHolding holding;
    private final Backoff backoff;
    private final long answerTimeoutNanos;
    private final Map<String, Outstanding> outstanding = new LinkedHashMap<>();
    private int reserved;
    private long freeSince = -1;
    private long nextRequestAt;

    /** A request not answered yet; one sent again ({@code repeated}) gives no round trip to measure. */
    private record Outstanding(int count, long sentAt, long deadline, boolean repeated) {}

    /**
     * @param holding            how many attempts the worker may hold: running, queued and asked for
     * @param answerTimeoutNanos how long a request waits for its answer before it is sent again
     * @param now                the start: the first request may go at once
     */
    RequestPacer(AttemptHolding holding, Backoff backoff, long answerTimeoutNanos, long now) {
        this.holding = holding;
        this.backoff = backoff;
        this.answerTimeoutNanos = answerTimeoutNanos;
        this.nextRequestAt = now;
    }

    /**
     * How many attempts to ask for now (0: none), given the {@code held} attempts (running or queued). Tracks how long
     * a handler has been free with room to ask for, so call it whenever the worker acts.
     */
    int toAsk(int held, long now) {
        int free = free(held);
        if (free <= 0 || !handlerFree(held)) {
            freeSince = -1;
        } else if (freeSince < 0) {
            freeSince = now;
        }
        if (free <= 0 || now < nextRequestAt) {
            return 0;
        }
        return eager(held, free) || (freeSince >= 0 && now - freeSince >= LINGER_NANOS) ? free : 0;
    }

    /** Whether it asks without waiting for the linger: it holds nothing, or half its capacity is free. */
    private boolean eager(int held, int free) {
        return (held == 0 && reserved == 0) || free >= (holding.capacity() + 1) / 2;
    }

    /** Whether a handler has nothing to run: queued attempts go to free handlers as they come. */
    private boolean handlerFree(int held) {
        return held < holding.concurrency();
    }

    /** A request for {@code count} attempts went out: its slots are reserved until it is answered. */
    void asked(String requestId, int count, long now) {
        outstanding.put(requestId, new Outstanding(count, now, now + answerTimeoutNanos, false));
        reserved += count;
        freeSince = -1;
    }

    /**
     * An answer came. Returns false when it answers no request of this worker's still outstanding (an earlier
     * worker's, or one answered already). An empty answer backs off; work lets the next request go at once.
     */
    boolean answered(String requestId, boolean empty, long now) {
        return answered(requestId, empty, -1, now);
    }

    /**
     * An answer came that a rate limit held short (docs/reference.md#rate-limits) when {@code retryAfterNanos >= 0}:
     * the next request waits that long, never longer than the backoff's maximum, instead of backing off.
     */
    boolean answered(String requestId, boolean empty, long retryAfterNanos, long now) {
        Outstanding request = requestId == null ? null : outstanding.remove(requestId);
        if (request == null) {
            return false;
        }
        reserved -= request.count();
        if (!request.repeated()) {
            holding.answeredAfter(now - request.sentAt());
        }
        if (retryAfterNanos >= 0) {
            if (!empty) {
                backoff.reset();
            }
            nextRequestAt = now + Math.min(retryAfterNanos, backoff.maxNanos());
        } else if (empty) {
            nextRequestAt = now + backoff.nextNanos();
        } else {
            backoff.reset();
            nextRequestAt = now;
        }
        return true;
    }

    /**
     * The requests unanswered past their timeout, to be sent again as they were (same {@code request_id}): their slots
     * stay reserved, and their next deadline is one timeout from now.
     */
    List<String> overdue(long now) {
        List<String> overdue = new ArrayList<>();
        for (Map.Entry<String, Outstanding> entry : outstanding.entrySet()) {
            if (now >= entry.getValue().deadline()) {
                Outstanding request = entry.getValue();
                entry.setValue(new Outstanding(request.count(), request.sentAt(), now + answerTimeoutNanos, true));
                overdue.add(entry.getKey());
            }
        }
        return overdue;
    }

    /** The slots neither held nor asked for. */
    int free(int held) {
        return holding.capacity() - held - reserved;
    }

    boolean awaitsAnswers() {
        return !outstanding.isEmpty();
    }

    /** The earliest time at which, nothing else happening, {@link #toAsk} or {@link #overdue} could change. */
    long nextWakeUp(int held, long now) {
        long wake = Long.MAX_VALUE;
        int free = free(held);
        if (free > 0 && eager(held, free)) {
            wake = Math.max(nextRequestAt, now);
        } else if (free > 0 && handlerFree(held)) {
            wake = Math.max(nextRequestAt, freeSince < 0 ? now : freeSince + LINGER_NANOS);
        }
        for (Outstanding request : outstanding.values()) {
            wake = Math.min(wake, request.deadline());
        }
        return wake;
    }
}
