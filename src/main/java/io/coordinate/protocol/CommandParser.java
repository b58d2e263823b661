package io.coordinate.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** Turns a record (key, value bytes) into a {@link Command}, or rejects it with the reason. */
public final class CommandParser {

    private CommandParser() {}

    /**
     * Parses a record of {@code coordinate.commands} as it comes from Kafka: the key must be valid UTF-8. A lenient
     * decoding would turn every invalid byte into U+FFFD, so that keys that Kafka spreads over several partitions
     * (bytes 0xff, 0xfe, ...) would all name the namespace U+FFFD, and its state would be split between tasks.
     *
     * @throws CommandRejection as {@link #parse(String, byte[])}; {@code namespace_mismatch} for a key that is
     *     not valid UTF-8
     */
    public static Command parse(byte[] key, byte[] value) {
        String text = null;
        if (key != null && ascii(key)) {
            text = new String(key, StandardCharsets.US_ASCII); // the usual key, without a decoder
        } else if (key != null) {
            try {
                text = StandardCharsets.UTF_8
                        .newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT)
                        .decode(ByteBuffer.wrap(key))
                        .toString();
            } catch (CharacterCodingException e) {
                // the value is still parsed first: a malformed one is malformed_json whatever its key
                parseValue(value);
                throw new CommandRejection(ErrorCode.NAMESPACE_MISMATCH, "the record key is not valid UTF-8");
            }
        }
        return parse(text, value);
    }

    private static boolean ascii(byte[] bytes) {
        for (byte b : bytes) {
            if (b < 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * Parses a record of {@code coordinate.commands} whose key is already text.
     *
     * @throws CommandRejection with {@code malformed_json}, {@code bad_command}, {@code too_large} (a {@code data}
     *     object over {@link DataLimit}), {@code unknown_command} or {@code namespace_mismatch}
     */
    public static Command parse(String key, byte[] value) {
        JsonNode node = parseValue(value);
        if (mayHoldSurrogates(value)) {
            requireWholeCharacters(node);
        }
        Command command = fromJson(key, (ObjectNode) node);
        DataLimit.check(node, value.length);
        return command;
    }

    /** The value as a JSON object, or the rejection of a value that is not one. */
    private static JsonNode parseValue(byte[] value) {
        if (value == null) {
            throw new CommandRejection(ErrorCode.MALFORMED_JSON, "record has no value");
        }
        JsonNode node;
        try {
            node = Json.parse(value);
        } catch (IOException e) {
            throw new CommandRejection(ErrorCode.MALFORMED_JSON, "value is not JSON: " + firstLine(e.getMessage()));
        }
        if (!node.isObject()) {
            throw new CommandRejection(ErrorCode.BAD_COMMAND, "a command must be a JSON object");
        }
        return node;
    }

    /**
     * Whether the JSON may hold a UTF-16 surrogate: as an escape ({@code \\uD800} to {@code \\uDFFF}) or encoded in
     * three bytes (0xED 0xA0..0xBF). A byte scan, so that only such rare commands pay for a walk of their tree.
     */
    private static boolean mayHoldSurrogates(byte[] value) {
        for (int i = 0; i < value.length - 2; i++) {
            byte b = value[i];
            if (b == '\\' && value[i + 1] == 'u' && (value[i + 2] == 'd' || value[i + 2] == 'D')) {
                return true;
            }
            if (b == (byte) 0xED && (value[i + 1] & 0xE0) == 0xA0) {
                return true;
            }
        }
        return false;
    }

    /**
     * Refuses a string or field name with a surrogate that is not half of a pair: no UTF-8 can write it, so each
     * output repeating it would fail the command with {@code internal_error}, and two different names would share one
     * store key.
     */
    private static void requireWholeCharacters(JsonNode node) {
        if (node.isTextual()) {
            requireWholeCharacters(node.textValue());
        } else if (node.isObject()) {
            for (java.util.Iterator<java.util.Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
                java.util.Map.Entry<String, JsonNode> field = fields.next();
                requireWholeCharacters(field.getKey());
                requireWholeCharacters(field.getValue());
            }
        } else if (node.isArray()) {
            for (JsonNode item : node) {
                requireWholeCharacters(item);
            }
        }
    }

    private static void requireWholeCharacters(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new CommandRejection(
                        ErrorCode.BAD_COMMAND,
                        String.format(
                                "a string holds an unpaired surrogate (\\u%04x), which is not a character", (int) c));
            }
        }
    }

    /** Validates the envelope of an already parsed body. */
    public static Command fromJson(String key, ObjectNode body) {
        JsonNode name = body.get("command");
        if (name == null || !name.isTextual()) {
            throw new CommandRejection(ErrorCode.BAD_COMMAND, "missing required field \"command\"");
        }
        CommandType type = CommandType.fromWireName(name.textValue());
        if (type == null) {
            throw new CommandRejection(ErrorCode.UNKNOWN_COMMAND, "unknown command \"" + name.textValue() + "\"");
        }
        JsonNode namespace = body.get("namespace");
        if (namespace == null || !namespace.isTextual()) {
            throw new CommandRejection(ErrorCode.BAD_COMMAND, "missing required field \"namespace\"");
        }
        if (namespace.textValue().isEmpty()) {
            // no HTTP route can name it, and every store key would start with an empty name
            throw new CommandRejection(ErrorCode.BAD_COMMAND, "\"namespace\" must not be empty");
        }
        if (key == null || !key.equals(namespace.textValue())) {
            throw new CommandRejection(
                    ErrorCode.NAMESPACE_MISMATCH,
                    "namespace \"" + namespace.textValue() + "\" differs from the record key \"" + key + "\"");
        }
        return new Command(
                type, namespace.textValue(), textOrNull(body, "request_id"), textOrNull(body, "reply_to"), body);
    }

    /** Where the reply to a record goes and what it echoes: read, best effort, from a record that may not be valid. */
    public record ReplyAddress(String replyTo, String requestId, String correlationId) {}

    /** The {@link ReplyAddress} of a record that may not be a valid command; null when it names no {@code reply_to}. */
    public static ReplyAddress readableReplyAddress(byte[] value) {
        try {
            JsonNode node = Json.parse(value);
            String replyTo = textOrNull(node, "reply_to");
            return replyTo == null
                    ? null
                    : new ReplyAddress(replyTo, textOrNull(node, "request_id"), textOrNull(node, "correlation_id"));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static String textOrNull(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value != null && value.isTextual() ? value.textValue() : null;
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
