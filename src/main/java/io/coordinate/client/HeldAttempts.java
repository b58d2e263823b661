package io.coordinate.client;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeSet;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The attempts a {@link Worker} holds, queued in its handler pool or running, kept in the order their lease renewals
 * fall due. A lease counts from its request's send (its start at the app is later), so an attempt whose answer was
 * slow falls due sooner than it came; a renewal moves it back. Finding what is due then stops at the first attempt
 * that is not, however many are held.
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
        /** Changed only through {@link HeldAttempts}, which orders by it. */
        long renewAt;
        /** Breaks ties of {@link #renewAt}: the order they were set in. */
        private long order;

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

    private final Map<String, Held> byId = new HashMap<>();
    private final NavigableSet<Held> byRenewal =
            new TreeSet<>(Comparator.<Held>comparingLong(h -> h.renewAt).thenComparingLong(h -> h.order));
    private long orders;
    private final long renewAfterNanos;

    /** @param renewAfterNanos how long after its lease began, or after its last renewal, an attempt's lease is renewed */
    HeldAttempts(long renewAfterNanos) {
        this.renewAfterNanos = renewAfterNanos;
    }

    /** @param leaseFrom when its lease began at the latest: when the request that got it was sent */
    Held add(Attempt attempt, long leaseFrom) {
        Held held = new Held(attempt, leaseFrom + renewAfterNanos);
        held.order = orders++;
        byId.put(attempt.attemptId(), held);
        byRenewal.add(held);
        return held;
    }

    boolean contains(String attemptId) {
        return byId.containsKey(attemptId);
    }

    Held get(String attemptId) {
        return byId.get(attemptId);
    }

    Held remove(String attemptId) {
        Held held = byId.remove(attemptId);
        if (held != null) {
            byRenewal.remove(held);
        }
        return held;
    }

    int size() {
        return byId.size();
    }

    boolean isEmpty() {
        return byId.isEmpty();
    }

    /** A copy in the order renewals fall due, so the caller may remove while it goes through them. */
    List<Held> all() {
        return new ArrayList<>(byRenewal);
    }

    /** The attempts whose renewal is due at {@code now}, each moved to the end with its next renewal set. */
    List<Held> dueForRenewal(long now) {
        List<Held> due = new ArrayList<>();
        for (Held held : byRenewal) {
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
        byRenewal.remove(held);
        held.renewAt = now + renewAfterNanos;
        held.order = orders++;
        byRenewal.add(held);
    }

    /** When the next renewal falls due ({@link Long#MAX_VALUE}: none). */
    long nextRenewal() {
        for (Held held : byRenewal) {
            if (!held.lost) {
                return held.renewAt; // the first is the next due
            }
        }
        return Long.MAX_VALUE;
    }
}
