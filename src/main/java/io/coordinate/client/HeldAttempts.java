package io.coordinate.client;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The attempts a {@link Worker} holds, queued in its handler pool or running, kept in the order their lease renewals
 * fall due: every lease has the same length, so that is the order they came in, and a renewed attempt moves to the
 * end. Finding what is due then stops at the first attempt that is not, however many are held.
 *
 * <p>Used by the worker's own thread only.
 */
final class HeldAttempts {

    /**
     * One attempt held. A handler claims it (QUEUED to RUNNING) before it runs it, and the worker's thread withdraws
     * one not claimed yet (QUEUED to WITHDRAWN) to give it back, so each is either run or given back, never both.
     */
    static final class Held {
        static final int QUEUED = 0;
        static final int RUNNING = 1;
        static final int WITHDRAWN = 2;

        final Attempt attempt;
        final AtomicInteger state = new AtomicInteger(QUEUED);
        long renewAt;
        Future<?> task;
        /** Its lease was lost, or its unit cancelled: never renewed again, and its outcome is dropped. */
        boolean lost;

        private Held(Attempt attempt, long renewAt) {
            this.attempt = attempt;
            this.renewAt = renewAt;
        }

        boolean claim() {
            return state.compareAndSet(QUEUED, RUNNING);
        }

        boolean withdraw() {
            return state.compareAndSet(QUEUED, WITHDRAWN);
        }
    }

    private final LinkedHashMap<String, Held> byId = new LinkedHashMap<>();
    private final long renewAfterNanos;

    /** @param renewAfterNanos how long after it came, or after its last renewal, an attempt's lease is renewed */
    HeldAttempts(long renewAfterNanos) {
        this.renewAfterNanos = renewAfterNanos;
    }

    Held add(Attempt attempt, long now) {
        Held held = new Held(attempt, now + renewAfterNanos);
        byId.put(attempt.attemptId(), held);
        return held;
    }

    boolean contains(String attemptId) {
        return byId.containsKey(attemptId);
    }

    Held get(String attemptId) {
        return byId.get(attemptId);
    }

    Held remove(String attemptId) {
        return byId.remove(attemptId);
    }

    int size() {
        return byId.size();
    }

    boolean isEmpty() {
        return byId.isEmpty();
    }

    /** A copy, so the caller may remove while it goes through them. */
    List<Held> all() {
        return new ArrayList<>(byId.values());
    }

    /** The attempts whose renewal is due at {@code now}, each moved to the end with its next renewal set. */
    List<Held> dueForRenewal(long now) {
        List<Held> due = new ArrayList<>();
        for (Held held : byId.values()) {
            if (held.lost) {
                continue; // never renewed again; it leaves when its handler ends
            }
            if (held.renewAt > now) {
                break;
            }
            due.add(held);
        }
        for (Held held : due) {
            renewed(held, now);
        }
        return due;
    }

    /** A renewal went out for {@code held} outside {@link #dueForRenewal} (with progress): its next one is later. */
    void renewed(Held held, long now) {
        held.renewAt = now + renewAfterNanos;
        byId.remove(held.attempt.attemptId());
        byId.put(held.attempt.attemptId(), held);
    }

    /** When the next renewal falls due ({@link Long#MAX_VALUE}: none). */
    long nextRenewal() {
        for (Held held : byId.values()) {
            if (!held.lost) {
                return held.renewAt; // the first is the next due
            }
        }
        return Long.MAX_VALUE;
    }
}
