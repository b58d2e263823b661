package io.coordinate.clients;

import io.coordinate.client.Attempt;
import io.coordinate.client.FailAttemptException;
import io.coordinate.client.RetryLaterException;
import io.coordinate.client.Worker;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The conformance suite's scripted handler for the Java {@link Worker} (clients/conformance/README.md): run r of a
 * unit in this worker plays step {@code script[min(r, len-1)]} of the unit's data. Sleeping and hanging wait
 * interruptibly, so that a cancellation or the worker's stop ends them, as the other languages' runners do.
 */
final class ScriptedHandler implements Worker.Handler {

    private static final Map<String, Object> DEFAULT_RESULT = Map.of("ok", true);

    private final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();

    @Override
    public Map<String, ?> handle(Attempt attempt) throws Exception {
        int run = runs.computeIfAbsent(
                        attempt.workSpecName() + "/" + attempt.workUnitName(), unit -> new AtomicInteger())
                .getAndIncrement();
        Map<?, ?> step = step(attempt.data().get("script"), run);
        if (step.get("sleep_ms") instanceof Number sleep) {
            Thread.sleep(sleep.longValue());
        }
        if (step.get("progress") instanceof List<?> progress) {
            attempt.progress(((Number) progress.get(0)).doubleValue(), (String) progress.get(1));
        }
        String message = step.get("message") instanceof String text ? text : "scripted failure";
        Object outcome = step.get("outcome");
        switch (outcome == null ? "finish" : outcome.toString()) {
            case "finish" -> {
                return step.get("result") instanceof Map<?, ?> result ? stringKeys(result) : DEFAULT_RESULT;
            }
            case "fail" -> throw new IllegalStateException(message);
            case "fail_permanent" ->
                throw new FailAttemptException(
                        message,
                        step.get("result") instanceof Map<?, ?> result
                                ? stringKeys(result)
                                : Map.of("traceback", message));
            case "retry_later" ->
                throw new RetryLaterException(message, Duration.ofMillis(((Number) step.get("delay_ms")).longValue()));
            case "hang" -> {
                CountDownLatch cancelled = new CountDownLatch(1);
                attempt.onCancel(cancelled::countDown);
                cancelled.await(); // the worker interrupts it when it stops
                return null; // dropped: the attempt was cancelled
            }
            default -> throw new IllegalArgumentException("unknown outcome in step " + step);
        }
    }

    /** The step of run {@code run}: the last one once the script is played out; none is a plain finish. */
    private static Map<?, ?> step(Object script, int run) {
        if (!(script instanceof List<?> steps) || steps.isEmpty()) {
            return Map.of();
        }
        return (Map<?, ?>) steps.get(Math.min(run, steps.size() - 1));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, ?> stringKeys(Map<?, ?> map) {
        return (Map<String, ?>) map;
    }
}
