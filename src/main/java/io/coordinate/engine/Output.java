package io.coordinate.engine;

import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.protocol.CommandRejection;
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
  private final Map<String, EventBatch> eventsByNamespace = new LinkedHashMap<>();
  /** The batch of the last event's namespace: a command's events are nearly always all in one. */
  private EventBatch lastBatch;
  private String lastNs;

  Output(long now) {
    this.now = now;
  }

  void reply(String replyTo, JsonNode value) {
    replies.add(new OutRecord(replyTo, value));
  }

  OutRecord assignment(String worker, byte[] json) {
    OutRecord record = OutRecord.ofJson(worker, json);
    assignments.add(record);
    return record;
  }

  void chained(String ns, JsonNode command) {
    chained.add(new OutRecord(ns, command));
  }

  void result(String ns, JsonNode value) {
    results.add(new OutRecord(ns, value));
  }

  /** Starts an event of this type in the namespace's batch; the caller writes its fields next. */
  EventBatch event(String ns, SerializableString type) {
    if (lastBatch == null || !ns.equals(lastNs)) {
      lastBatch = eventsByNamespace.computeIfAbsent(ns, k -> new EventBatch(k, now));
      lastNs = ns;
    }
    return lastBatch.event(type);
  }

  EngineResult toResult(CommandRejection rejection) {
    List<OutRecord> events = new ArrayList<>(eventsByNamespace.size());
    eventsByNamespace.forEach((ns, batch) -> events.add(OutRecord.ofJson(ns, batch.toJson())));
    return new EngineResult(List.copyOf(replies), List.copyOf(assignments), events, List.copyOf(chained),
        List.copyOf(results), rejection);
  }

  /** Keeps replies only: what a rejected command still produces. */
  void dropAllButReplies() {
    assignments.clear();
    chained.clear();
    results.clear();
    eventsByNamespace.clear();
    lastBatch = null;
  }
}
