package io.coordinate.client;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Thrown by a {@link Worker.Handler} to fail the attempt with data of its own (a {@code traceback} it composed, such
 * as a command's error output) rather than the exception's stack trace. The failure is permanent (the unit is
 * failed) unless made {@code retryable}, as any other exception of a handler is.
 */
public class FailAttemptException extends Exception {

    private final Map<String, ?> data;
    private final boolean retryable;

    /** A permanent failure: the unit fails whatever the spec's {@code retry} policy. */
    public FailAttemptException(String message, Map<String, ?> data) {
        this(message, data, false);
    }

    /** A failure that the spec's {@code retry} policy retries when {@code retryable}. */
    public FailAttemptException(String message, Map<String, ?> data, boolean retryable) {
        super(message);
        this.data = Collections.unmodifiableMap(new LinkedHashMap<>(data)); // in the caller's order
        this.retryable = retryable;
    }

    /** The data to fail the attempt with. */
    public Map<String, ?> data() {
        return data;
    }

    /** Whether the attempt fails as {@code retryable}. */
    public boolean retryable() {
        return retryable;
    }
}
