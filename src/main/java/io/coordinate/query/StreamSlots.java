package io.coordinate.query;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * How many event streams an instance serves at once: at most {@code total}, and at most {@code perClient} to one
 * remote address, so that one client (a script opening streams in a loop, a stuck proxy) cannot take every slot.
 * A slot is taken before anything is read from Kafka, so a refusal costs nothing.
 */
final class StreamSlots {

    private final int total;
    private final int perClient;
    private final Map<String, Integer> byClient = new HashMap<>();
    private int open;

    StreamSlots(int total, int perClient) {
        if (total < 1 || perClient < 1 || perClient > total) {
            throw new IllegalArgumentException("need 1 <= perClient <= total, got " + perClient + " and " + total);
        }
        this.total = total;
        this.perClient = perClient;
    }

    /**
     * Takes a slot for {@code client}; the answer gives it back (once, however often it runs). 429 {@code
     * too_many_streams} when this client holds its share already: another client could still open one. 503 {@code
     * too_many_streams} when the instance is full: no fault of this client, and another instance may have room.
     */
    synchronized Runnable acquire(String client) {
        int held = byClient.getOrDefault(client, 0);
        if (held >= perClient) {
            throw new QueryError(
                    429,
                    "too_many_streams",
                    "this client (" + client + ") has " + held
                            + " event streams open on this instance, the most one address may have",
                    true);
        }
        if (open >= total) {
            throw new QueryError(
                    503, "too_many_streams", "this instance serves at most " + total + " event streams at once", true);
        }
        byClient.put(client, held + 1);
        open++;
        AtomicBoolean released = new AtomicBoolean();
        return () -> {
            if (released.compareAndSet(false, true)) {
                release(client);
            }
        };
    }

    private synchronized void release(String client) {
        open--;
        byClient.computeIfPresent(client, (key, held) -> held == 1 ? null : held - 1);
    }

    /** Open streams in all; a test's view. */
    synchronized int open() {
        return open;
    }
}
