package io.coordinate.client;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a {@link Worker} tells the app of its attempts' ends: finishes batched into {@code finish_attempts},
 * failures with their traceback, attempts given back (released when the worker stops). It keeps the commands not
 * answered yet, for the worker's last wait.
 *
 * <p>Used by the worker's own thread only, but for the counts.
 */
final class AttemptReports {

    private static final Logger LOG = LoggerFactory.getLogger(Worker.class); // the worker's log, as before the split
    /** The error code of a command on an attempt whose unit was cancelled. */
    static final String CANCELLED = "cancelled";

    private final CoordinateClient client;
    private final String worker;
    private final int finishBatch;
    private final long finishLingerNanos;
    private final List<CoordinateClient.Finish> finishes = new ArrayList<>();
    /** The attempts of {@link #finishes}, in their order: one the app answers {@code cancelled} is marked so. */
    private List<Attempt> finishing = new ArrayList<>();

    private long finishesSince;
    private final List<CompletableFuture<?>> lastCommands = new ArrayList<>();
    private final AtomicLong finished = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong retried = new AtomicLong();

    /** Finishes go out in batches of up to {@code finishBatch}, held at most {@code finishLingerNanos}. */
    AttemptReports(CoordinateClient client, String worker, int finishBatch, long finishLingerNanos) {
        this.client = client;
        this.worker = worker;
        this.finishBatch = finishBatch;
        this.finishLingerNanos = finishLingerNanos;
    }

    /** Units finished (by the app's count: items of {@code finish_attempts} that it applied). */
    long finished() {
        return finished.get();
    }

    /** Attempts failed because the handler threw. */
    long failed() {
        return failed.get();
    }

    /** Attempts given back. */
    long retried() {
        return retried.get();
    }

    /**
     * A handler ended: what it returned finishes the attempt; what it threw is reported as {@link HandlerOutcome}
     * says, a release once the worker is {@code stopping}.
     */
    void ended(Attempt attempt, Map<String, ?> result, Throwable error, boolean stopping) {
        String attemptId = attempt.attemptId();
        if (error == null) {
            if (finishes.isEmpty()) {
                finishesSince = System.nanoTime();
            }
            finishes.add(new CoordinateClient.Finish(attemptId, result));
            finishing.add(attempt);
            return;
        }
        HandlerOutcome outcome = HandlerOutcome.of(error, stopping);
        if (outcome instanceof HandlerOutcome.GiveBack back) {
            retried.incrementAndGet();
            track(client.retryAttempt(attemptId, back.data(), back.delay(), back.release()), attempt, "give back");
        } else if (outcome instanceof HandlerOutcome.Fail fail) {
            failed.incrementAndGet();
            track(client.failAttempt(attemptId, fail.data(), fail.retryable()), attempt, "fail");
        }
    }

    /** Gives the attempt back at once, uncounted, because the worker is stopping: another worker runs it. */
    void release(Attempt attempt, String why) {
        retried.incrementAndGet();
        track(
                client.retryAttempt(attempt.attemptId(), Map.of("traceback", why), Duration.ZERO, true),
                attempt,
                "release");
    }

    /** Sends the finishes batched so far when the batch is full, has waited long enough, or nothing else is held. */
    void flushIfDue(long now, boolean nothingHeld) {
        if (!finishes.isEmpty()
                && (finishes.size() >= finishBatch || nothingHeld || now - finishesSince >= finishLingerNanos)) {
            flush();
        }
    }

    /** When the finishes batched so far are due ({@link Long#MAX_VALUE}: none). */
    long nextFlush() {
        return finishes.isEmpty() ? Long.MAX_VALUE : finishesSince + finishLingerNanos;
    }

    void flush() {
        if (finishes.isEmpty()) {
            return;
        }
        List<CoordinateClient.Finish> batch = List.copyOf(finishes);
        List<Attempt> attempts = finishing;
        finishes.clear();
        finishing = new ArrayList<>();
        CompletableFuture<FinishedAttempts> reply = client.finishAttempts(batch);
        lastCommands.add(reply);
        reply.whenComplete((result, e) -> {
            if (e != null) {
                LOG.warn(
                        "worker {}: finish_attempts of {} attempts got no answer: {}",
                        worker,
                        batch.size(),
                        e.toString());
                return;
            }
            finished.addAndGet(result.finished());
            for (FinishedAttempts.Refused refused : result.errors()) {
                if (refused.code().equals(CANCELLED)) { // rare: a search is cheap enough
                    attempts.stream()
                            .filter(attempt -> attempt.attemptId().equals(refused.attemptId()))
                            .forEach(Attempt::cancel); // its handler has ended: only the callbacks are left to run
                    continue;
                }
                LOG.warn(
                        "worker {}: finishing attempt {} was refused: {} {}",
                        worker,
                        refused.attemptId(),
                        refused.code(),
                        refused.message());
            }
        });
        pruneLastCommands();
    }

    /** After the stop: reports the last finishes, deactivates, and waits for the app to have taken them. */
    void finishAndDeactivate() {
        flush();
        lastCommands.add(client.deactivateWorker(worker));
        try {
            CompletableFuture.allOf(lastCommands.toArray(CompletableFuture[]::new))
                    .get(client.timeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.warn("worker {}: not every last command was answered: {}", worker, e.toString());
        }
    }

    private void track(CompletableFuture<?> reply, Attempt attempt, String what) {
        lastCommands.add(reply);
        reply.whenComplete((r, e) -> {
            if (e == null) {
                return;
            }
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            if (cause instanceof CommandRefusedException refused
                    && refused.code().equals(CANCELLED)) {
                attempt.cancel(); // its handler has ended: only the callbacks are left to run
            } else {
                LOG.warn("worker {}: {} of attempt {}: {}", worker, what, attempt.attemptId(), e.toString());
            }
        });
        pruneLastCommands();
    }

    private void pruneLastCommands() {
        lastCommands.removeIf(CompletableFuture::isDone);
    }
}
