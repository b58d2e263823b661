package io.coordinate.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.function.Predicate;

/** Picks out of the commands a client sent (read back from the commands topic) those a test checks. */
public final class SentCommands {

    private SentCommands() {}

    /** The commands named {@code name} of the attempt, as JSON text without what the client adds to every command. */
    public static List<String> ofAttempt(List<JsonNode> commands, String name, String attemptId) {
        return commands.stream()
                .filter(command -> command.path("command").asText().equals(name)
                        && command.path("attempt_id").asText().equals(attemptId))
                .map(command -> {
                    ObjectNode copy = command.deepCopy();
                    copy.remove(List.of("namespace", "request_id", "reply_to", "correlation_id"));
                    return copy.toString();
                })
                .toList();
    }

    /** Whether a command named {@code name} is among them. */
    public static Predicate<List<JsonNode>> has(String name) {
        return commands -> commands.stream()
                .anyMatch(command -> command.path("command").asText().equals(name));
    }
}
