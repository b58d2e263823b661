package io.coordinate.client;

import java.io.PrintWriter;
import java.io.StringWriter;
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
 * failures with their traceback, attempts given back. It keeps the commands not answered yet, for the worker's last
 * wait.
 *
 * <p>Used by the worker's own thread only, but for the counts.
 */
final class AttemptReports {

    private static final Logger LOG = LoggerFactory.getLogger(Worker.class); // the worker's log, as before the split
    private static final int MAX_TRACEBACK_CHARS = 16_384;

    private final CoordinateClient client;
    private final String worker;
    private final int finishBatch;
    private final long finishLingerNanos;
    private final List<CoordinateClient.Finish> finishes = new ArrayList<>();
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
     * A handler ended: what it returned finishes the attempt, a {@link RetryLaterException} gives the unit back for
     * later, an interruption gives it back at once, any other exception fails it.
     */
    void ended(Attempt attempt, Map<String, ?> result, Throwable error) {
        String attemptId = attempt.attemptId();
        if (error == null) {
            if (finishes.isEmpty()) {
                finishesSince = System.nanoTime();
            }
            finishes.add(new CoordinateClient.Finish(attemptId, result));
        } else if (error instanceof RetryLaterException retry) {
            retried.incrementAndGet();
            track(
                    client.retryAttempt(
                            attemptId, Map.of("traceback", String.valueOf(retry.getMessage())), retry.delay()),
                    attemptId,
                    "retry");
        } else if (interrupted(error)) {
            // Stopping the worker or its JVM is no fault of the unit: another worker runs it again.
            giveBack(attempt, "the handler was interrupted: " + error);
        } else {
            failed.incrementAndGet();
            Map<String, ?> data =
                    error instanceof FailAttemptException fail ? fail.data() : Map.of("traceback", traceback(error));
            track(client.failAttempt(attemptId, data), attemptId, "fail");
        }
    }

    /** Gives the attempt back at once, for another worker to run. */
    void giveBack(Attempt attempt, String why) {
        retried.incrementAndGet();
        track(
                client.retryAttempt(attempt.attemptId(), Map.of("traceback", why), Duration.ZERO),
                attempt.attemptId(),
                "give back");
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
        finishes.clear();
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

    private void track(CompletableFuture<?> reply, String attemptId, String what) {
        lastCommands.add(reply);
        reply.whenComplete((r, e) -> {
            if (e != null) {
                LOG.warn("worker {}: {} of attempt {}: {}", worker, what, attemptId, e.toString());
            }
        });
        pruneLastCommands();
    }

    private void pruneLastCommands() {
        lastCommands.removeIf(CompletableFuture::isDone);
    }

    /**
     * Whether a handler ended because its thread was interrupted: an {@link InterruptedException} or an interrupted
     * channel anywhere in the causes (a read timeout, also an {@code InterruptedIOException}, is a real failure).
     */
    static boolean interrupted(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof InterruptedException
                    || cause instanceof java.nio.channels.ClosedByInterruptException
                    || cause.getClass() == java.io.InterruptedIOException.class) {
                return true;
            }
        }
        return false;
    }

    static String traceback(Throwable error) {
        StringWriter text = new StringWriter();
        error.printStackTrace(new PrintWriter(text));
        String trace = text.toString();
        return trace.length() <= MAX_TRACEBACK_CHARS ? trace : trace.substring(0, MAX_TRACEBACK_CHARS);
    }
}
