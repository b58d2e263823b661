package io.coordinate.engine.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.protocol.CommandRejection;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.Times;
import java.util.UUID;
import java.util.random.RandomGenerator;

/** One unit object of {@code add_work_units} (PROTOCOL "Unit object"), validated. */
record NewUnit(String name, JsonNode data, double priority, Long notBefore) {

  static NewUnit parse(JsonNode item, long now, RandomGenerator random) {
    if (!item.isObject()) {
      throw CommandRejection.badCommand("each work unit must be an object");
    }
    String name;
    JsonNode nameNode = item.get("name");
    if (nameNode == null || nameNode.isNull()) {
      name = new UUID(random.nextLong() & ~0xF000L | 0x4000L, random.nextLong() & 0x3FFFFFFFFFFFFFFFL
          | 0x8000000000000000L).toString();
    } else if (nameNode.isTextual()) {
      name = nameNode.textValue();
    } else {
      throw CommandRejection.badCommand("work unit \"name\" must be a string");
    }
    JsonNode data = item.get("data");
    if (data == null || data.isNull()) {
      data = Json.object();
    } else if (!data.isObject()) {
      throw CommandRejection.badCommand("work unit \"data\" must be an object");
    }
    double priority = WorkSpecDefinition.number(item, "priority", 0);
    Long notBefore = null;
    JsonNode time = item.hasNonNull("not_before") ? item.get("not_before") : item.get("run_at");
    if (time != null && !time.isNull()) {
      if (!time.isTextual()) {
        throw CommandRejection.badCommand("\"not_before\" must be an RFC 3339 time");
      }
      try {
        notBefore = Times.parse(time.textValue());
      } catch (IllegalArgumentException e) {
        throw CommandRejection.badCommand(e.getMessage());
      }
    }
    if (item.hasNonNull("delay")) {
      notBefore = now + Times.secondsToMillis(WorkSpecDefinition.number(item, "delay", 0));
    }
    if (item.hasNonNull("parent") || item.hasNonNull("predecessor")) {
      throw CommandRejection.badCommand("\"parent\" and \"predecessor\" are not supported yet");
    }
    return new NewUnit(name, data, priority, notBefore);
  }
}
