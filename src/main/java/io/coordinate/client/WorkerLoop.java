package io.coordinate.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.client.HeldAttempts.Held;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The thread that makes a {@link Worker}'s decisions: when to check in, ask for work, renew leases, report outcomes
 * and stop; and the pool of handlers that run its attempts.
 *
 * <p>Everything the worker decides happens on this one thread, fed by a queue of events (assignments, handlers that
 * ended, leases lost, cancellations, progress reported, the stop), so its state needs no locks. Attempts go to the handler pool's queue as they come,
 * and a free handler takes the next one itself: with short handlers, a hand-off through the decision thread per
 * attempt cost more than the handlers.
 */
final class WorkerLoop {

    private static final Logger LOG = LoggerFactory.getLogger(Worker.class); // the worker's log, as before the split
    private static final long PROGRESS_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

    private sealed interface Event {}

    private record Assigned(Assignment assignment) implements Event {}

    private record Ended(String attemptId, Map<String, ?> result, Throwable error, long ranNanos) implements Event {}

    /** The app refused a renewal: the lease was lost, or the unit cancelled (code {@code cancelled}). */
    private record LeaseLost(String attemptId, String code) implements Event {}

    /** A record of the assignment stream that names cancelled attempts. */
    private record CancelNotice(List<String> attemptIds) implements Event {}

    private record ProgressReported(String attemptId) implements Event {}

    private record Stop(Duration timeout) implements Event {}

    private final CoordinateClient client;
    private final String name;
    private final Worker.Handler handler;
    private final Duration lease;
    private final Duration heartbeatInterval;
    private final Map<String, ?> environment;
    private final WorkRequests requests;
    private final AttemptHolding holding;
    private final AttemptReports reports;
    private final LinkedBlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private final ExecutorService handlers;
    private final Thread thread;
    private final CompletableFuture<Void> stopped = new CompletableFuture<>();

    // This thread's state.
    private final HeldAttempts owned;
    private final ProgressThrottle progress = new ProgressThrottle(PROGRESS_INTERVAL_NANOS);
    private final java.util.function.Consumer<Attempt> progressListener =
            reported -> events.add(new ProgressReported(reported.attemptId()));
    private long nextHeartbeatAt;
    private boolean stopping;
    private long stopDeadline;

    /**
     * @param concurrency how many handlers run at once
     * @param lease the lease of each attempt, renewed at half its lifetime
     * @param environment what each heartbeat sends
     * @param holding how many attempts to hold, told each handler's run time
     */
    WorkerLoop(
            CoordinateClient client,
            String name,
            Worker.Handler handler,
            int concurrency,
            Duration lease,
            Duration heartbeatInterval,
            Map<String, ?> environment,
            WorkRequests requests,
            AttemptHolding holding,
            AttemptReports reports) {
        this.client = client;
        this.name = name;
        this.handler = handler;
        this.lease = lease;
        this.heartbeatInterval = heartbeatInterval;
        this.environment = environment;
        this.requests = requests;
        this.holding = holding;
        this.reports = reports;
        this.owned = new HeldAttempts(lease.toNanos() / 2);
        AtomicInteger threads = new AtomicInteger();
        this.handlers = Executors.newFixedThreadPool(concurrency, runnable -> {
            Thread thread = new Thread(runnable, name + "-handler-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        this.thread = new Thread(this::run, name + "-loop");
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /**
     * A record of {@code coordinate.assignments}: an answer to a request ({@code attempts}), or a notice of cancelled
     * attempts ({@code cancelled}); any other record is ignored. Any thread.
     */
    void assigned(JsonNode record) {
        List<String> cancelled = new ArrayList<>();
        record.path("cancelled").forEach(id -> cancelled.add(id.asText()));
        if (!cancelled.isEmpty()) {
            events.add(new CancelNotice(cancelled));
        }
        if (record.has("attempts")) { // parsed here, where a record that cannot be is logged and dropped
            events.add(new Assigned(Assignment.from(record)));
        }
    }

    /** Stops asking, and gives running handlers {@code timeout} to end: any thread. */
    void stop(Duration timeout) {
        events.add(new Stop(timeout));
    }

    CompletableFuture<Void> stopped() {
        return stopped;
    }

    /**
     * Interrupts the handlers still running and waits up to {@code timeout} for them to end, so that what they clean
     * up on an interrupt (a command they terminate) is done before the JVM may exit.
     */
    void shutDownHandlers(Duration timeout) {
        handlers.shutdownNow();
        try {
            handlers.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        long now = System.nanoTime();
        nextHeartbeatAt = now;
        try {
            while (true) {
                now = System.nanoTime();
                act(now);
                // An answer still on its way would hold attempts nobody gives back: wait for it, up to the deadline.
                if (stopping && owned.isEmpty() && (!requests.awaitsAnswers() || now >= stopDeadline)) {
                    break;
                }
                Event event = events.poll(Math.max(0, nextWakeUp(now) - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (event != null) {
                    handle(event, System.nanoTime());
                }
            }
            reports.finishAndDeactivate();
            stopped.complete(null);
        } catch (Throwable e) {
            LOG.error("worker {} stopped on an error", name, e);
            stopped.completeExceptionally(e);
        }
    }

    /** Everything due now: heartbeats, renewals, starting queued attempts, finishing, asking for work. */
    private void act(long now) {
        if (!stopping && now >= nextHeartbeatAt) {
            heartbeat();
            nextHeartbeatAt = now + heartbeatInterval.toNanos();
        }
        owned.dueForRenewal(now).forEach(held -> renew(held, null));
        for (String attemptId : progress.due(now)) {
            sendProgress(owned.get(attemptId), now);
        }
        if (stopping) {
            boolean pastDeadline = now >= stopDeadline;
            for (Held held : owned.all()) {
                if (held.withdraw()) { // never started: give it back now
                    forget(held);
                    if (!held.lost) {
                        reports.release(held.attempt, "the worker stopped before it started");
                    }
                } else if (pastDeadline) {
                    held.task.cancel(true);
                    forget(held);
                    if (!held.lost) {
                        reports.release(held.attempt, "the worker stopped while it ran");
                    }
                }
            }
        }
        reports.flushIfDue(now, owned.isEmpty());
        requests.resendOverdue(now);
        int count = requests.toAsk(owned.size(), now);
        if (!stopping && count > 0) {
            reports.flush(); // report what is done before asking for more
            requests.ask(count, now);
        }
    }

    private long nextWakeUp(long now) {
        long wake = now + TimeUnit.SECONDS.toNanos(1);
        if (!stopping) {
            wake = Math.min(wake, Math.min(nextHeartbeatAt, requests.nextWakeUp(owned.size(), now)));
        } else {
            wake = Math.min(wake, stopDeadline);
        }
        wake = Math.min(wake, Math.min(reports.nextFlush(), progress.nextDue()));
        return Math.min(wake, owned.nextRenewal());
    }

    private void handle(Event event, long now) {
        if (event instanceof Assigned assigned) {
            onAssignment(assigned.assignment(), now);
        } else if (event instanceof Ended ended) {
            onEnded(ended);
        } else if (event instanceof LeaseLost lost) {
            Held held = owned.get(lost.attemptId());
            if (held == null) {
                return;
            }
            if (lost.code().equals(AttemptReports.CANCELLED)) {
                cancel(held);
                return;
            }
            LOG.warn(
                    "worker {}: lost the lease of attempt {} ({}); its handler is interrupted",
                    name,
                    lost.attemptId(),
                    lost.code());
            drop(held);
        } else if (event instanceof CancelNotice notice) {
            for (String attemptId : notice.attemptIds()) {
                Held held = owned.get(attemptId);
                if (held != null) {
                    cancel(held);
                }
            }
        } else if (event instanceof ProgressReported reported) {
            Held held = owned.get(reported.attemptId());
            if (held != null && !held.lost && progress.reported(reported.attemptId(), now)) {
                sendProgress(held, now);
            }
        } else if (event instanceof Stop stop) {
            stopping = true;
            stopDeadline = now + stop.timeout().toNanos();
        }
    }

    private void onAssignment(Assignment assignment, long now) {
        OptionalLong leaseFrom = requests.answered(assignment, now);
        if (leaseFrom.isEmpty()) {
            return; // the answer to another copy of a request sent again: the first answer was taken already
        }
        for (Attempt attempt : assignment.attempts()) {
            if (owned.contains(attempt.attemptId())) {
                continue; // a repeated request's answer names the attempts it already handed out
            }
            if (stopping) {
                reports.release(attempt, "the worker stopped before it started");
                continue;
            }
            attempt.listenToProgress(progressListener);
            submit(owned.add(attempt, leaseFrom.getAsLong()));
        }
    }

    private void onEnded(Ended ended) {
        holding.handlerRan(ended.ranNanos());
        Held held = owned.get(ended.attemptId());
        if (held == null) {
            return; // given back at the stop deadline already
        }
        forget(held);
        if (held.lost) {
            return; // the app no longer takes this attempt's outcome
        }
        reports.ended(held.attempt, ended.result(), ended.error(), stopping);
    }

    /**
     * The unit of a held attempt was cancelled: the handler learns it (the attempt's mark, its callbacks, and an
     * interrupt), and nothing more is reported for it.
     */
    private void cancel(Held held) {
        if (held.attempt.cancel()) {
            LOG.info("worker {}: attempt {} was cancelled; its handler is interrupted", name, held.attempt.attemptId());
        }
        drop(held);
    }

    /** Stops renewing a held attempt and interrupts its handler, whose outcome is dropped; one still queued never runs. */
    private void drop(Held held) {
        progress.forget(held.attempt.attemptId());
        if (held.withdraw()) {
            owned.remove(held.attempt.attemptId());
        } else if (!held.lost) {
            held.lost = true;
            held.task.cancel(true);
        }
    }

    private void forget(Held held) {
        owned.remove(held.attempt.attemptId());
        progress.forget(held.attempt.attemptId());
    }

    /** Queues the attempt in the handler pool, whose next free handler runs it unless it was withdrawn first. */
    private void submit(Held held) {
        Attempt attempt = held.attempt;
        held.task = handlers.submit(() -> {
            if (!held.claim()) {
                return; // given back before a handler came to it
            }
            Map<String, ?> result = null;
            Throwable error = null;
            long started = System.nanoTime();
            try {
                result = handler.handle(attempt);
            } catch (Throwable e) {
                error = e;
            }
            events.add(new Ended(attempt.attemptId(), result, error, System.nanoTime() - started));
        });
    }

    /** A renewal with the progress its handler reported last, which extends the lease as any renewal. */
    private void sendProgress(Held held, long now) {
        AttemptProgress latest = held == null ? null : held.attempt.takeProgress();
        if (latest != null) {
            owned.renewed(held, now);
            renew(held, latest);
        }
    }

    private void renew(Held held, AttemptProgress latest) {
        String attemptId = held.attempt.attemptId();
        client.renewAttempt(attemptId, lease, null, latest).whenComplete((info, e) -> {
            Throwable cause = e == null ? null : e.getCause() != null ? e.getCause() : e;
            if (cause instanceof CommandRefusedException refused) {
                events.add(new LeaseLost(attemptId, refused.code()));
            } else if (cause != null) {
                LOG.warn("worker {}: renewing attempt {} got no answer: {}", name, attemptId, cause.toString());
            }
        });
    }

    private void heartbeat() {
        Duration expire = heartbeatInterval.multipliedBy(3);
        client.workerHeartbeat(name, null, "run", environment, expire).whenComplete((info, e) -> {
            if (e != null) {
                LOG.warn("worker {}: heartbeat got no answer: {}", name, e.toString());
            }
        });
    }
}
