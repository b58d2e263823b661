package io.coordinate.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One parsed command: its type, namespace, correlation fields and the whole JSON body. Handlers read their
 * own fields through the typed accessors, which reject a wrong or missing field with {@code bad_command}.
 */
public record Command(CommandType type, String namespace, String requestId, String replyTo, ObjectNode body) {

    public Command {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(body, "body");
    }

    /** Builds a command from a body that already carries {@code command} and {@code namespace}. */
    public static Command of(ObjectNode body) {
        return CommandParser.fromJson(body.path("namespace").asText(), body);
    }

    /**
     * The {@code requester} field: who the {@code request_id} belongs to, for keeping answers apart, when that is not
     * the {@code reply_to} (the HTTP gateway's replies go to each instance, its callers' ids belong to all of them).
     * Null when absent or not a string.
     */
    public String requester() {
        return text("requester");
    }

    /** The {@code correlation_id} field, echoed in the reply (null when absent or not a string). */
    public String correlationId() {
        return text("correlation_id");
    }

    private String text(String field) {
        JsonNode value = body.get(field);
        return value != null && value.isTextual() ? value.textValue() : null;
    }

    public boolean has(String field) {
        JsonNode value = body.get(field);
        return value != null && !value.isNull();
    }

    public JsonNode get(String field) {
        JsonNode value = body.get(field);
        return value == null || value.isNull() ? null : value;
    }

    public String requiredString(String field) {
        JsonNode value = get(field);
        if (value == null) {
            throw CommandRejection.badCommand("missing required field \"" + field + "\"");
        }
        if (!value.isTextual()) {
            throw CommandRejection.badCommand("field \"" + field + "\" must be a string");
        }
        return value.textValue();
    }

    public String optionalString(String field, String fallback) {
        return has(field) ? requiredString(field) : fallback;
    }

    /** A number within [{@code min}, {@code max}] (see {@link Limits}), or {@code fallback} when absent. */
    public double optionalNumber(String field, double fallback, double min, double max) {
        JsonNode value = get(field);
        if (value == null) {
            return fallback;
        }
        return Limits.number(value, "field \"" + field + "\"", min, max);
    }

    /**
     * A whole number within [{@code min}, {@code max}] (see {@link Limits#wholeNumber}), or {@code fallback} when
     * absent.
     */
    public long optionalWholeNumber(String field, long fallback, double min, double max) {
        JsonNode value = get(field);
        if (value == null) {
            return fallback;
        }
        return Limits.wholeNumber(value, "field \"" + field + "\"", min, max);
    }

    public ObjectNode requiredObject(String field) {
        JsonNode value = get(field);
        if (value == null) {
            throw CommandRejection.badCommand("missing required field \"" + field + "\"");
        }
        if (!value.isObject()) {
            throw CommandRejection.badCommand("field \"" + field + "\" must be an object");
        }
        return (ObjectNode) value;
    }

    /** The object, or null when absent. */
    public ObjectNode optionalObject(String field) {
        return has(field) ? requiredObject(field) : null;
    }

    public List<JsonNode> requiredArray(String field) {
        JsonNode value = get(field);
        if (value == null) {
            throw CommandRejection.badCommand("missing required field \"" + field + "\"");
        }
        if (!value.isArray()) {
            throw CommandRejection.badCommand("field \"" + field + "\" must be a list");
        }
        List<JsonNode> items = new ArrayList<>(value.size());
        value.forEach(items::add);
        return items;
    }

    /** A list of strings, or null when absent. */
    public List<String> optionalStringList(String field) {
        if (!has(field)) {
            return null;
        }
        List<String> out = new ArrayList<>();
        for (JsonNode item : requiredArray(field)) {
            if (!item.isTextual()) {
                throw CommandRejection.badCommand("field \"" + field + "\" must be a list of strings");
            }
            out.add(item.textValue());
        }
        return out;
    }
}
