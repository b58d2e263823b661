package io.coordinate.client;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.Map;

/** What a {@link Worker} reports of a handler that threw: a failure, or the unit given back. */
sealed interface HandlerOutcome {

    int MAX_TRACEBACK_CHARS = 16_384;

    /** {@code fail_attempt} with {@code data}, {@code retryable} or permanent. */
    record Fail(Map<String, ?> data, boolean retryable) implements HandlerOutcome {}

    /** {@code retry_attempt} with {@code data} and {@code delay}; a {@code release} is the worker's stop. */
    record GiveBack(Map<String, ?> data, Duration delay, boolean release) implements HandlerOutcome {}

    /**
     * The outcome of {@code error}. Once the worker is stopping, whatever a handler throws gives the unit back as a
     * release: a stop (its interruption, a command killed by it, a spawn it broke) is no fault of the unit. Before,
     * a {@link RetryLaterException} gives it back after its delay, an interruption (of the handler's JVM or pool) at
     * once, a {@link FailAttemptException} fails it with its data as it says, and any other exception fails it as
     * retryable with its stack trace.
     */
    static HandlerOutcome of(Throwable error, boolean stopping) {
        if (error instanceof RetryLaterException retry) {
            return new GiveBack(traceback(String.valueOf(retry.getMessage())), retry.delay(), stopping);
        }
        if (stopping) {
            return new GiveBack(traceback("the worker stopped: " + error), Duration.ZERO, true);
        }
        if (interrupted(error)) {
            return new GiveBack(traceback("the handler was interrupted: " + error), Duration.ZERO, false);
        }
        if (error instanceof FailAttemptException fail) {
            return new Fail(fail.data(), fail.retryable());
        }
        return new Fail(traceback(stackTrace(error)), true);
    }

    private static Map<String, String> traceback(String text) {
        return Map.of("traceback", text);
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

    static String stackTrace(Throwable error) {
        StringWriter text = new StringWriter();
        error.printStackTrace(new PrintWriter(text));
        String trace = text.toString();
        return trace.length() <= MAX_TRACEBACK_CHARS ? trace : trace.substring(0, MAX_TRACEBACK_CHARS);
    }
}
