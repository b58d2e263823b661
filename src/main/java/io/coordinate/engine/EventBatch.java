package io.coordinate.engine;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.JsonListRecord;
import io.coordinate.protocol.RepeatedText;
import io.coordinate.protocol.Times;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * The events of one command in one namespace, written as JSON while they happen — the batch record of PROTOCOL
 * "Events": {@code {"namespace", "time", "events": [...]}}. Events are most of what a command outputs (five per
 * unit over its life), so they skip the tree: names and the values that repeat (types, statuses) come in their
 * encoded form, kept as constants by {@link EventRecorder}. {@link #event} opens an event; the fields that follow belong to it until the next one.
 */
final class EventBatch {

  private final JsonListRecord record;
  private final JsonGenerator out;
  private boolean inEvent;
  /** Per field name (the constants of {@link EventRecorder}), the last value written and its encoded form. */
  private final Map<SerializableString, RepeatedText> repeats = new IdentityHashMap<>();

  EventBatch(String ns, long now) {
    record = new JsonListRecord(512, header -> {
      header.writeFieldName(encoded("namespace"));
      header.writeString(ns);
      header.writeFieldName(encoded("time"));
      header.writeString(Times.format(now));
    }, encoded("events"));
    out = record.out();
  }

  /** Starts an event of this type; the fields written next are its own. */
  EventBatch event(SerializableString type) {
    try {
      if (inEvent) {
        out.writeEndObject();
      }
      out.writeStartObject();
      inEvent = true;
      out.writeFieldName(encoded("type"));
      out.writeString(type);
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  // Names (and the values from small fixed sets: statuses) come encoded already: the caller keeps them as
  // constants, so writing an event's fields looks nothing up.

  EventBatch string(SerializableString name, String value) {
    return field(name, out -> out.writeString(value));
  }

  /**
   * A string that repeats from one event to the next under this name (the spec, the worker, an expiration time):
   * written from its encoded form while it is the same (see {@link RepeatedText}).
   */
  EventBatch repeated(SerializableString name, String value) {
    SerializableString encoded = repeats.computeIfAbsent(name, n -> new RepeatedText()).of(value);
    return field(name, out -> {
      if (encoded == null) {
        out.writeNull();
      } else {
        out.writeString(encoded);
      }
    });
  }

  /** A value from a small fixed set (a status, say), encoded already. */
  EventBatch symbol(SerializableString name, SerializableString value) {
    return field(name, out -> out.writeString(value));
  }

  EventBatch bool(SerializableString name, boolean value) {
    return field(name, out -> out.writeBoolean(value));
  }

  EventBatch number(SerializableString name, long value) {
    return field(name, out -> out.writeNumber(value));
  }

  /** Any JSON value, as the mapper writes it. */
  EventBatch node(SerializableString name, JsonNode value) {
    return field(name, out -> Json.write(out, value));
  }

  private interface ValueWriter {
    void write(JsonGenerator out) throws IOException;
  }

  private EventBatch field(SerializableString name, ValueWriter value) {
    try {
      out.writeFieldName(name);
      value.write(out);
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every field of {@code fields}, in order, as fields of this event. */
  EventBatch fields(JsonNode fields) {
    for (Iterator<Map.Entry<String, JsonNode>> it = fields.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      node(encoded(field.getKey()), field.getValue());
    }
    return this;
  }

  /** The finished batch. */
  byte[] toJson() {
    try {
      if (inEvent) {
        out.writeEndObject();
        inEvent = false;
      }
      return record.finish();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static SerializableString encoded(String text) {
    return Json.encoded(text);
  }

}
