package io.coordinate.client;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Thrown by a {@link Worker.Handler} to fail the attempt with data of its own (a {@code traceback} it composed, such
 * as a command's error output) rather than the exception's stack trace.
 */
public class FailAttemptException extends Exception {

    private final Map<String, ?> data;

    public FailAttemptException(String message, Map<String, ?> data) {
        super(message);
        this.data = Collections.unmodifiableMap(new LinkedHashMap<>(data)); // in the caller's order
    }

    /** The data to fail the attempt with. */
    public Map<String, ?> data() {
        return data;
    }
}
