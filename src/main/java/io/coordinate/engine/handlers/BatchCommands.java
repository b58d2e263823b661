package io.coordinate.engine.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.protocol.CommandRejection;
import io.coordinate.protocol.CommandType;
import io.coordinate.protocol.Json;
import java.util.List;

/**
 * {@code finish_attempts}: many {@code finish_attempt}s in one command. Each item is applied exactly as the
 * single command would be; an item that is not allowed (an attempt no longer pending, say) is reported in
 * {@code errors} and changes nothing, while the other items still apply.
 */
public final class BatchCommands {

    /** Items one batch may carry. */
    public static final int MAX_ITEMS = 10_000;

    private BatchCommands() {}

    public static void register(HandlerRegistry registry) {
        registry.register(CommandType.FINISH_ATTEMPTS, BatchCommands::finishAttempts);
    }

    static JsonNode finishAttempts(CommandContext ctx) {
        List<JsonNode> items = ctx.command().requiredArray("attempts");
        if (items.size() > MAX_ITEMS) {
            throw new CommandRejection(
                    io.coordinate.protocol.ErrorCode.TOO_LARGE,
                    items.size() + " attempts in one command; at most " + MAX_ITEMS);
        }
        for (JsonNode item : items) {
            if (!item.isObject() || !item.path("attempt_id").isTextual()) {
                throw CommandRejection.badCommand("each item of \"attempts\" needs an \"attempt_id\" string");
            }
            if (item.has("data")
                    && !item.get("data").isObject()
                    && !item.get("data").isNull()) {
                throw CommandRejection.badCommand("\"data\" must be an object");
            }
        }
        int finished = 0;
        ArrayNode errors = Json.MAPPER.createArrayNode();
        for (JsonNode item : items) {
            JsonNode data = item.get("data");
            String attemptId = item.get("attempt_id").textValue();
            try {
                // as a finish_attempt of the item's attempt_id and data would, without making one per item
                AttemptCommands.applyFinish(ctx, attemptId, data == null || data.isNull() ? null : data);
                finished++;
            } catch (CommandRejection e) {
                ObjectNode error = errors.addObject();
                error.put("attempt_id", attemptId);
                error.put("code", e.code().code());
                error.put("message", e.getMessage());
            }
        }
        ObjectNode result = Json.object();
        result.put("finished", finished);
        result.set("errors", errors);
        return result;
    }
}
