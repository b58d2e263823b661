package io.coordinate.engine;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.Times;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.Map;

/**
 * The events of one command in one namespace, written as JSON while they happen — the batch record of PROTOCOL
 * "Events": {@code {"namespace", "time", "events": [...]}}. Events are most of what a command outputs (five per
 * unit over its life), so they skip the tree: names and the values that repeat (types, statuses) are written from
 * their encoded form. {@link #event} opens an event; the fields that follow belong to it until the next one.
 */
final class EventBatch {

  private final ByteArrayBuilder bytes = new ByteArrayBuilder(512);
  private final JsonGenerator out;
  private boolean inEvent;

  EventBatch(String ns, long now) {
    try {
      out = Json.MAPPER.getFactory().createGenerator(bytes);
      out.writeStartObject();
      out.writeFieldName(encoded("namespace"));
      out.writeString(ns);
      out.writeFieldName(encoded("time"));
      out.writeString(Times.format(now));
      out.writeFieldName(encoded("events"));
      out.writeStartArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Starts an event of this type; the fields written next are its own. */
  EventBatch event(String type) {
    try {
      if (inEvent) {
        out.writeEndObject();
      }
      out.writeStartObject();
      inEvent = true;
      out.writeFieldName(encoded("type"));
      out.writeString(encoded(type));
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  EventBatch string(String name, String value) {
    return field(name, out -> out.writeString(value));
  }

  /** A value from a small fixed set (a status, say): written from its encoded form. */
  EventBatch symbol(String name, String value) {
    return field(name, out -> out.writeString(encoded(value)));
  }

  EventBatch bool(String name, boolean value) {
    return field(name, out -> out.writeBoolean(value));
  }

  EventBatch number(String name, long value) {
    return field(name, out -> out.writeNumber(value));
  }

  /** Any JSON value, as the mapper writes it. */
  EventBatch node(String name, JsonNode value) {
    return field(name, out -> Json.write(out, value));
  }

  private interface ValueWriter {
    void write(JsonGenerator out) throws IOException;
  }

  private EventBatch field(String name, ValueWriter value) {
    try {
      out.writeFieldName(encoded(name));
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
      node(field.getKey(), field.getValue());
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
      out.writeEndArray();
      out.writeEndObject();
      out.close();
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static SerializableString encoded(String text) {
    return Json.encoded(text);
  }

}
