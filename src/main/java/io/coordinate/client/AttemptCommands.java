package io.coordinate.client;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.protocol.Json;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** The JSON of the commands on one attempt, as {@link CoordinateClient} sends them. */
final class AttemptCommands {

    private AttemptCommands() {}

    static ObjectNode of(String name, String attemptId, Map<String, ?> data) {
        ObjectNode command = Json.object().put("command", name).put("attempt_id", attemptId);
        if (data != null) {
            command.set("data", JsonValues.object(data));
        }
        return command;
    }

    static ObjectNode renew(String attemptId, Duration extend, Map<String, ?> data, AttemptProgress progress) {
        ObjectNode command = of("renew_attempt", attemptId, data).put("extend", CoordinateClient.seconds(extend));
        if (progress != null) {
            command.set("progress", progress.json());
        }
        return command;
    }

    /** {@code retryable} goes on the wire only when true: its absence is the wire's default, a permanent failure. */
    static ObjectNode fail(String attemptId, Map<String, ?> data, boolean retryable) {
        ObjectNode command = of("fail_attempt", attemptId, data);
        if (retryable) {
            command.put("retryable", true);
        }
        return command;
    }

    static ObjectNode retry(String attemptId, Map<String, ?> data, Duration delay, boolean release) {
        ObjectNode command = of("retry_attempt", attemptId, data).put("delay", CoordinateClient.seconds(delay));
        if (release) {
            command.put("release", true);
        }
        return command;
    }

    static ObjectNode finishAll(List<CoordinateClient.Finish> finishes) {
        ObjectNode command = Json.object().put("command", "finish_attempts");
        ArrayNode items = command.putArray("attempts");
        finishes.forEach(finish -> items.add(finish.json()));
        return command;
    }
}
