package io.coordinate.engine.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.engine.state.model.AttemptProgress;
import io.coordinate.protocol.CommandRejection;
import java.util.List;

/** {@code renew_attempt}'s {@code progress} (docs/reference.md#renew_attempt): what the worker says it has done. */
final class ProgressReport {

    static final int MAX_MESSAGE_CHARS = 1000;
    private static final List<String> KEYS = List.of("fraction", "message");

    private ProgressReport() {}

    /** The command's {@code progress} as of {@code now}; null when it has none. Rejects a bad one. */
    static AttemptProgress parse(JsonNode progress, long now) {
        if (progress == null || progress.isNull()) {
            return null;
        }
        if (!progress.isObject()) {
            throw CommandRejection.badCommand("\"progress\" must be an object");
        }
        JsonKeys.requireKnown(progress, "progress", KEYS);
        JsonNode fraction = progress.get("fraction");
        if (fraction != null && !fraction.isNull()) {
            if (!fraction.isNumber() || !(fraction.doubleValue() >= 0 && fraction.doubleValue() <= 1)) {
                throw CommandRejection.badCommand("\"progress.fraction\" must be a number from 0 to 1");
            }
        }
        JsonNode message = progress.get("message");
        if (message != null && !message.isNull()) {
            if (!message.isTextual() || message.textValue().length() > MAX_MESSAGE_CHARS) {
                throw CommandRejection.badCommand(
                        "\"progress.message\" must be a string of at most " + MAX_MESSAGE_CHARS + " characters");
            }
        }
        return new AttemptProgress(
                fraction == null || fraction.isNull() ? null : fraction.doubleValue(),
                message == null || message.isNull() ? null : message.textValue(),
                now);
    }
}
