package io.coordinate.client;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Worker}'s {@code request_attempts}: how many to ask for and when ({@link RequestPacer}), their ids, sending
 * again those whose answer is late, and dropping the copies of answers to a request sent more than once.
 *
 * <p>Used by the worker's own thread only, but for {@link #sent()}.
 */
final class WorkRequests {

    private static final Logger LOG = LoggerFactory.getLogger(Worker.class); // the worker's log, as before the split
    /** How many requests sent more than once it remembers as answered, to drop the later answers' copies. */
    private static final int ANSWERED_REPEATS_KEPT = 1024;

    private final CoordinateClient client;
    private final String worker;
    private final List<String> workSpecs;
    private final Duration lease;
    private final RequestPacer pacer;
    /** Unique to this worker object: a worker of the same name started again must not repeat its ids. */
    private final String idPrefix;

    private long sequence;
    private final AtomicInteger sent = new AtomicInteger();
    private final Map<String, SentRequest> unanswered = new HashMap<>();
    private final Set<String> answeredRepeats = Collections.newSetFromMap(new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > ANSWERED_REPEATS_KEPT;
        }
    });

    /** A {@code request_attempts} not answered yet: sent again as it is when its answer is late. */
    private static final class SentRequest {
        final ObjectNode command;
        /** When it was first sent: the leases of its attempts start later than that, whichever copy the app took. */
        final long firstSentAt;

        boolean repeated;

        SentRequest(ObjectNode command, long firstSentAt) {
            this.command = command;
            this.firstSentAt = firstSentAt;
        }
    }

    /**
     * @param workSpecs the specs to ask for, or none for any
     * @param lease the lease each request asks for
     */
    WorkRequests(CoordinateClient client, String worker, List<String> workSpecs, Duration lease, RequestPacer pacer) {
        this.client = client;
        this.worker = worker;
        this.workSpecs = workSpecs;
        this.lease = lease;
        this.pacer = pacer;
        this.idPrefix = worker + "-" + UUID.randomUUID().toString().substring(0, 8) + "-";
    }

    /** {@code request_attempts} commands sent so far, copies of late ones included. */
    int sent() {
        return sent.get();
    }

    /** How many attempts to ask for now, holding {@code held} (see {@link RequestPacer#toAsk}). */
    int toAsk(int held, long now) {
        return pacer.toAsk(held, now);
    }

    boolean awaitsAnswers() {
        return pacer.awaitsAnswers();
    }

    /** The earliest time at which, nothing else happening, there is a request to send. */
    long nextWakeUp(int held, long now) {
        return pacer.nextWakeUp(held, now);
    }

    void ask(int count, long now) {
        String requestId = idPrefix + (++sequence);
        AttemptRequest.Builder request =
                AttemptRequest.forWorker(worker).count(count).lifetime(lease).requestId(requestId);
        if (!workSpecs.isEmpty()) {
            request.workSpecs(workSpecs);
        }
        ObjectNode command = request.build().json();
        pacer.asked(requestId, count, now);
        unanswered.put(requestId, new SentRequest(command, now));
        send(command);
    }

    /** Sends again, as they were, the requests whose answer is overdue. */
    void resendOverdue(long now) {
        for (String requestId : pacer.overdue(now)) {
            LOG.warn(
                    "worker {}: no assignment for request {} in {}; sending it again",
                    worker,
                    requestId,
                    client.timeout());
            SentRequest request = unanswered.get(requestId);
            request.repeated = true;
            send(request.command);
        }
    }

    /**
     * Takes an answer. Returns when the leases of its attempts count from: the request's first send, or {@code now}
     * for an answer to no request of this worker's. Empty for the copy of an answer taken already (the answer to
     * another copy of a request sent again), whose attempts the worker must not take twice.
     */
    OptionalLong answered(Assignment assignment, long now) {
        String requestId = assignment.requestId();
        if (requestId != null && answeredRepeats.contains(requestId)) {
            return OptionalLong.empty();
        }
        SentRequest request = requestId == null ? null : unanswered.remove(requestId);
        if (request != null && request.repeated) {
            answeredRepeats.add(requestId);
        }
        Long retryAfter = assignment.retryAfterMillis();
        pacer.answered(
                requestId,
                assignment.attempts().isEmpty(),
                retryAfter == null ? -1 : TimeUnit.MILLISECONDS.toNanos(Math.max(0, retryAfter)),
                now);
        return OptionalLong.of(request == null ? now : request.firstSentAt);
    }

    /** Sends a request; one that does not reach the app is sent again once its answer is overdue. */
    private void send(ObjectNode command) {
        sent.incrementAndGet();
        client.connection().send(client.namespace(), command).whenComplete((ok, e) -> {
            if (e != null) {
                LOG.warn("worker {}: could not send request_attempts: {}", worker, e.toString());
            }
        });
    }
}
