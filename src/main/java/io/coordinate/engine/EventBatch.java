package io.coordinate.engine;

import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.JsonBytes;
import io.coordinate.protocol.RepeatedText;
import io.coordinate.protocol.Times;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;

/**
 * The events of one command in one namespace, written as JSON while they happen — the batch record of
 * docs/reference.md#events: {@code {"namespace", "time", "events": [...]}}. Events are most of what a command outputs
 * (five per unit over its life), so they skip the tree and Jackson's generator ({@link JsonBytes}, the mapper's bytes):
 * names and the values that repeat (types, statuses) come in their encoded form, kept as constants by
 * {@link EventRecorder}. {@link #event} opens an event; the fields that follow belong to it until the next one.
 */
final class EventBatch {

    private static final SerializableString NAMESPACE = Json.encoded("namespace");
    private static final SerializableString TIME = Json.encoded("time");
    private static final SerializableString EVENTS = Json.encoded("events");
    private static final SerializableString TYPE = Json.encoded("type");

    private final JsonBytes out = new JsonBytes(512);
    private boolean inEvent;
    /**
     * Per field name (the constants of {@link EventRecorder}: three of them), the last value written and its encoded
     * form; found by the name's identity in a scan of a few slots, cheaper than a map for every event's fields.
     */
    private SerializableString[] repeatedNames = new SerializableString[4];

    private RepeatedText[] repeatedTexts = new RepeatedText[4];
    private int repeatedCount;

    EventBatch(String ns, long now) {
        out.punctuation('{')
                .name(NAMESPACE)
                .string(ns)
                .nextName(TIME)
                .string(Times.format(now))
                .nextName(EVENTS)
                .punctuation('[');
    }

    /** Starts an event of this type; the fields written next are its own. */
    EventBatch event(SerializableString type) {
        if (inEvent) {
            out.punctuation('}').punctuation(',');
        }
        out.punctuation('{').name(TYPE).quoted(type);
        inEvent = true;
        return this;
    }

    // Names (and the values from small fixed sets: statuses) come encoded already: the caller keeps them as
    // constants, so writing an event's fields looks nothing up.

    EventBatch string(SerializableString name, String value) {
        field(name).string(value);
        return this;
    }

    /**
     * A string that repeats from one event to the next under this name (the spec, the worker, an expiration time):
     * written from its encoded form while it is the same (see {@link RepeatedText}).
     */
    EventBatch repeated(SerializableString name, String value) {
        field(name).quoted(repeatedText(name).of(value));
        return this;
    }

    private RepeatedText repeatedText(SerializableString name) {
        for (int i = 0; i < repeatedCount; i++) {
            if (repeatedNames[i] == name) {
                return repeatedTexts[i];
            }
        }
        if (repeatedCount == repeatedNames.length) {
            repeatedNames = Arrays.copyOf(repeatedNames, repeatedCount * 2);
            repeatedTexts = Arrays.copyOf(repeatedTexts, repeatedCount * 2);
        }
        repeatedNames[repeatedCount] = name;
        repeatedTexts[repeatedCount] = new RepeatedText();
        return repeatedTexts[repeatedCount++];
    }

    /** A value from a small fixed set (a status, say), encoded already. */
    EventBatch symbol(SerializableString name, SerializableString value) {
        field(name).quoted(value);
        return this;
    }

    EventBatch bool(SerializableString name, boolean value) {
        field(name).bool(value);
        return this;
    }

    /** A whole number as a string: an attempt's id. */
    EventBatch quotedNumber(SerializableString name, long value) {
        field(name).quotedNumber(value);
        return this;
    }

    EventBatch number(SerializableString name, long value) {
        field(name).number(value);
        return this;
    }

    /** Any JSON value, as the mapper writes it. */
    EventBatch node(SerializableString name, JsonNode value) {
        field(name).value(value);
        return this;
    }

    private JsonBytes field(SerializableString name) {
        return out.nextName(name);
    }

    /** Every field of {@code fields}, in order, as fields of this event. */
    EventBatch fields(JsonNode fields) {
        for (Iterator<Map.Entry<String, JsonNode>> it = fields.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            node(Json.encoded(field.getKey()), field.getValue());
        }
        return this;
    }

    /** Bytes written so far. */
    int size() {
        return out.size();
    }

    /** The finished batch. */
    byte[] toJson() {
        if (inEvent) {
            out.punctuation('}');
            inEvent = false;
        }
        return out.punctuation(']').punctuation('}').toByteArray();
    }
}
