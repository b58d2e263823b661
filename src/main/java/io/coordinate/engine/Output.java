package io.coordinate.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.protocol.CommandRejection;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.Times;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Collects the records of one command; events are batched into one record per namespace. */
final class Output {

  private final long now;
  private final List<OutRecord> replies = new ArrayList<>();
  private final List<OutRecord> assignments = new ArrayList<>();
  private final List<OutRecord> chained = new ArrayList<>();
  private final List<OutRecord> results = new ArrayList<>();
  private final Map<String, ArrayNode> eventsByNamespace = new LinkedHashMap<>();

  Output(long now) {
    this.now = now;
  }

  void reply(String replyTo, JsonNode value) {
    replies.add(new OutRecord(replyTo, value));
  }

  void assignment(String worker, JsonNode value) {
    assignments.add(new OutRecord(worker, value));
  }

  void chained(String ns, JsonNode command) {
    chained.add(new OutRecord(ns, command));
  }

  void result(String ns, JsonNode value) {
    results.add(new OutRecord(ns, value));
  }

  /** Starts an event of this type; the caller fills in its fields. */
  ObjectNode event(String ns, String type) {
    ObjectNode event = Json.object();
    event.put("type", type);
    eventsByNamespace.computeIfAbsent(ns, k -> Json.MAPPER.createArrayNode()).add(event);
    return event;
  }

  EngineResult toResult(CommandRejection rejection) {
    List<OutRecord> events = new ArrayList<>(eventsByNamespace.size());
    eventsByNamespace.forEach(
        (ns, list) -> {
          ObjectNode batch = Json.object();
          batch.put("namespace", ns);
          batch.put("time", Times.format(now));
          batch.set("events", list);
          events.add(new OutRecord(ns, batch));
        });
    return new EngineResult(List.copyOf(replies), List.copyOf(assignments), events, List.copyOf(chained),
        List.copyOf(results), rejection);
  }

  /** Keeps replies only: what a rejected command still produces. */
  void dropAllButReplies() {
    assignments.clear();
    chained.clear();
    results.clear();
    eventsByNamespace.clear();
  }
}
