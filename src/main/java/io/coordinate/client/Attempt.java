package io.coordinate.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An attempt handed to a worker: the unit to work, its data, and the lease (docs/reference.md "Assignment"). While a
 * {@link Worker} runs it, the handler can report {@link #progress} and learn of a cancellation ({@link #isCancelled},
 * {@link #onCancel}); an attempt made otherwise (by {@code new}, or from {@link CoordinateClient#requestAttempts})
 * sends no progress and is never cancelled.
 */
public final class Attempt {

    private static final Logger LOG = LoggerFactory.getLogger(Worker.class);

    private final String attemptId;
    private final String workSpecName;
    private final String workUnitName;
    private final Map<String, Object> data;
    private final Instant startTime;
    private final Instant expirationTime;

    private volatile boolean cancelled;
    /** Guarded by this; made at the first callback, as most attempts have none. */
    private List<Runnable> cancelCallbacks;
    /** The latest progress not taken by the worker yet. */
    private final AtomicReference<AttemptProgress> progress = new AtomicReference<>();
    /** Whom to tell of a new progress (null: nobody, outside a worker). */
    private volatile Consumer<Attempt> progressListener;

    public Attempt(
            String attemptId,
            String workSpecName,
            String workUnitName,
            Map<String, Object> data,
            Instant startTime,
            Instant expirationTime) {
        this.attemptId = attemptId;
        this.workSpecName = workSpecName;
        this.workUnitName = workUnitName;
        this.data = data;
        this.startTime = startTime;
        this.expirationTime = expirationTime;
    }

    /** @param times texts parsed already, and where to keep those parsed now */
    static Attempt from(JsonNode json, Map<String, Instant> times) {
        return new Attempt(
                json.path("attempt_id").asText(),
                json.path("work_spec_name").asText(),
                json.path("work_unit_name").asText(),
                JsonValues.map(json.get("data")),
                time(json, "start_time", times),
                time(json, "expiration_time", times));
    }

    private static Instant time(JsonNode json, String field, Map<String, Instant> times) {
        String text = JsonValues.text(json, field);
        return text == null ? null : times.computeIfAbsent(text, Instant::parse);
    }

    public String attemptId() {
        return attemptId;
    }

    public String workSpecName() {
        return workSpecName;
    }

    public String workUnitName() {
        return workUnitName;
    }

    public Map<String, Object> data() {
        return data;
    }

    public Instant startTime() {
        return startTime;
    }

    public Instant expirationTime() {
        return expirationTime;
    }

    /**
     * Reports how far the handler has come: {@code fraction} from 0 to 1, {@code message} (may be null) cut at 1000
     * characters. The worker sends it with a lease renewal, at most one per second per attempt: a value reported
     * sooner waits for its second, and only the latest one waiting is sent.
     *
     * @throws IllegalArgumentException for a fraction outside 0 to 1
     */
    public void progress(double fraction, String message) {
        progress(new AttemptProgress(fraction, message));
    }

    /** As {@link #progress(double, String)}, where the fraction or the message may be null. */
    public void progress(AttemptProgress latest) {
        AttemptProgress waiting = progress.getAndSet(Objects.requireNonNull(latest, "progress"));
        Consumer<Attempt> listener = progressListener;
        if (waiting == null && listener != null) { // else the worker has heard of one not taken yet: it takes this
            listener.accept(this);
        }
    }

    /**
     * Whether the unit was cancelled while this attempt ran: the handler should stop, and what it returns or throws
     * is dropped. Its thread is interrupted too.
     */
    public boolean isCancelled() {
        return cancelled;
    }

    /**
     * Runs {@code callback} when the attempt is cancelled, on the worker's own thread, so it must be quick (close a
     * connection, signal a process); at once if it is cancelled already.
     */
    public void onCancel(Runnable callback) {
        synchronized (this) {
            if (!cancelled) {
                if (cancelCallbacks == null) {
                    cancelCallbacks = new ArrayList<>();
                }
                cancelCallbacks.add(callback);
                return;
            }
        }
        runQuietly(callback);
    }

    /** Marks it cancelled and runs its callbacks, each once; false if it was cancelled already. */
    boolean cancel() {
        List<Runnable> callbacks;
        synchronized (this) {
            if (cancelled) {
                return false;
            }
            cancelled = true;
            callbacks = cancelCallbacks == null ? List.of() : cancelCallbacks;
            cancelCallbacks = null;
        }
        callbacks.forEach(this::runQuietly); // outside the lock: a callback may call back into the attempt
        return true;
    }

    /** {@code listener} hears of each progress reported from now on. */
    void listenToProgress(Consumer<Attempt> listener) {
        this.progressListener = listener;
    }

    /** The latest progress reported and not taken yet (null: none); taking it leaves none. */
    AttemptProgress takeProgress() {
        return progress.getAndSet(null);
    }

    private void runQuietly(Runnable callback) {
        try {
            callback.run();
        } catch (RuntimeException e) {
            LOG.warn("a cancellation callback of attempt {} failed", attemptId, e);
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Attempt that
                && Objects.equals(attemptId, that.attemptId)
                && Objects.equals(workSpecName, that.workSpecName)
                && Objects.equals(workUnitName, that.workUnitName)
                && Objects.equals(data, that.data)
                && Objects.equals(startTime, that.startTime)
                && Objects.equals(expirationTime, that.expirationTime);
    }

    @Override
    public int hashCode() {
        return Objects.hash(attemptId, workSpecName, workUnitName, data, startTime, expirationTime);
    }

    @Override
    public String toString() {
        return "Attempt[attemptId=" + attemptId + ", workSpecName=" + workSpecName + ", workUnitName=" + workUnitName
                + ", data=" + data + ", startTime=" + startTime + ", expirationTime=" + expirationTime + "]";
    }
}
