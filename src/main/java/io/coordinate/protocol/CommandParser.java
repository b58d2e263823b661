package io.coordinate.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;

/** Turns a record (key, value bytes) into a {@link Command}, or rejects it with the reason. */
public final class CommandParser {

  private CommandParser() {}

  /**
   * Parses a record of {@code coordinate.commands}.
   *
   * @throws CommandRejection with {@code malformed_json}, {@code bad_command}, {@code too_large} (a {@code data}
   *     object over {@link DataLimit}), {@code unknown_command} or {@code namespace_mismatch}
   */
  public static Command parse(String key, byte[] value) {
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
    Command command = fromJson(key, (ObjectNode) node);
    DataLimit.check(node, value.length);
    return command;
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
    if (key == null || !key.equals(namespace.textValue())) {
      throw new CommandRejection(
          ErrorCode.NAMESPACE_MISMATCH,
          "namespace \"" + namespace.textValue() + "\" differs from the record key \"" + key + "\"");
    }
    return new Command(type, namespace.textValue(), textOrNull(body, "request_id"), textOrNull(body, "reply_to"),
        body);
  }

  /** Best effort: the {@code reply_to} of a record that may not be a valid command. */
  public static String readableReplyTo(byte[] value) {
    try {
      JsonNode node = Json.parse(value);
      return textOrNull(node, "reply_to");
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** Best effort: the {@code request_id} of a record that may not be a valid command. */
  public static String readableRequestId(byte[] value) {
    try {
      return textOrNull(Json.parse(value), "request_id");
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
