package io.coordinate.client;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.protocol.Json;

/**
 * How far a handler has come with its attempt, sent in a {@code renew_attempt}'s {@code progress}: a fraction from 0 to
 * 1 and a message, each optional (null). A message longer than {@link #MAX_MESSAGE_CHARS} is cut there, since the app
 * refuses longer ones.
 */
public record AttemptProgress(Double fraction, String message) {

    public static final int MAX_MESSAGE_CHARS = 1000;

    public AttemptProgress {
        if (fraction != null && !(fraction >= 0 && fraction <= 1)) {
            throw new IllegalArgumentException("a progress fraction is from 0 to 1: " + fraction);
        }
        if (message != null && message.length() > MAX_MESSAGE_CHARS) {
            message = message.substring(0, MAX_MESSAGE_CHARS);
        }
    }

    /** As the {@code progress} field of {@code renew_attempt}. */
    ObjectNode json() {
        ObjectNode json = Json.object();
        if (fraction != null) {
            json.put("fraction", fraction);
        }
        if (message != null) {
            json.put("message", message);
        }
        return json;
    }
}
