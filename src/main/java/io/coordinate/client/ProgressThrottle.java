package io.coordinate.client;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * When a {@link Worker} sends the progress its handlers report: at most one per attempt per interval. A report within
 * the interval of the last one sent waits for the interval's end, and whatever the handler reported last is sent then.
 *
 * <p>Used by the worker's own thread only.
 */
final class ProgressThrottle {

    private final long intervalNanos;
    private final Map<String, Long> lastSent = new HashMap<>();
    /** The attempts whose progress waits, with when it is due. */
    private final Map<String, Long> waiting = new LinkedHashMap<>();

    ProgressThrottle(long intervalNanos) {
        this.intervalNanos = intervalNanos;
    }

    /** A handler reported progress: true to send it now, else it waits until {@link #due}. */
    boolean reported(String attemptId, long now) {
        if (waiting.containsKey(attemptId)) {
            return false;
        }
        Long last = lastSent.get(attemptId);
        if (last == null || now - last >= intervalNanos) {
            lastSent.put(attemptId, now);
            return true;
        }
        waiting.put(attemptId, last + intervalNanos);
        return false;
    }

    /** The attempts whose waiting progress is to be sent now. */
    List<String> due(long now) {
        List<String> due = new ArrayList<>();
        for (Iterator<Map.Entry<String, Long>> it = waiting.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, Long> entry = it.next();
            if (entry.getValue() <= now) {
                it.remove();
                lastSent.put(entry.getKey(), now);
                due.add(entry.getKey());
            }
        }
        return due;
    }

    /** When the next waiting progress is due ({@link Long#MAX_VALUE}: none). */
    long nextDue() {
        long next = Long.MAX_VALUE;
        for (long due : waiting.values()) {
            next = Math.min(next, due);
        }
        return next;
    }

    /** The attempt is no longer held: nothing more is sent for it. */
    void forget(String attemptId) {
        lastSent.remove(attemptId);
        waiting.remove(attemptId);
    }
}
