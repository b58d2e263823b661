package io.coordinate.protocol;

import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;

/**
 * JSON written straight into a byte array, for the outputs with the most records: the events (four per unit on
 * its way through a request and a finish) and the assignments. Jackson's generator checks its context on every call
 * and escapes every string character by character; here names and symbols are copied in their encoded form and a
 * string that needs no escaping (plain ASCII, the common case for names) is copied as it is. The bytes are those
 * {@link Json#MAPPER} writes: anything else (a string to escape, a non-ASCII one, a number that is not whole) is
 * written by the mapper's generator and copied. The caller places the commas, braces and brackets; nothing here checks
 * them.
 */
public final class JsonBytes {

    private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
    private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};
    private static final byte[] NULL = {'n', 'u', 'l', 'l'};

    private byte[] bytes;
    private int size;

    public JsonBytes(int sizeHint) {
        bytes = new byte[Math.max(16, sizeHint)];
    }

    /** A single byte of JSON's punctuation: {@code {}[],:}. */
    public JsonBytes punctuation(char c) {
        ensure(1);
        bytes[size++] = (byte) c;
        return this;
    }

    /** {@code "name":}, from the name's encoded form. */
    public JsonBytes name(SerializableString name) {
        return name(name, false);
    }

    /** {@code ,"name":}: a field after the first. */
    public JsonBytes nextName(SerializableString name) {
        return name(name, true);
    }

    // One bounds check and one copy per field name: an event or an attempt writes several.
    private JsonBytes name(SerializableString name, boolean comma) {
        byte[] content = name.asQuotedUTF8();
        ensure(content.length + 4);
        if (comma) {
            bytes[size++] = ',';
        }
        bytes[size++] = '"';
        System.arraycopy(content, 0, bytes, size, content.length);
        size += content.length;
        bytes[size++] = '"';
        bytes[size++] = ':';
        return this;
    }

    /** A string value already encoded (a status, a type, a repeated name): {@code "value"}; null as {@code null}. */
    public JsonBytes quoted(SerializableString value) {
        if (value == null) {
            return raw(NULL);
        }
        byte[] content = value.asQuotedUTF8();
        ensure(content.length + 2);
        bytes[size++] = '"';
        System.arraycopy(content, 0, bytes, size, content.length);
        size += content.length;
        bytes[size++] = '"';
        return this;
    }

    /** A string value, quoted and escaped as the mapper's generator does it; null as {@code null}. */
    public JsonBytes string(String value) {
        if (value == null) {
            return raw(NULL);
        }
        int length = value.length();
        ensure(length + 2);
        int at = size;
        bytes[at++] = '"';
        for (int i = 0; i < length; i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\') {
                return raw(Json.bytes(TextNode.valueOf(value))); // escapes, or UTF-8: the generator's own way
            }
            bytes[at++] = (byte) c;
        }
        bytes[at++] = '"';
        size = at;
        return this;
    }

    /** A whole number, its digits written here: no string in between. */
    public JsonBytes number(long value) {
        if (value < 0) {
            if (value == Long.MIN_VALUE) {
                return ascii(Long.toString(value)); // no positive counterpart
            }
            punctuation('-');
            value = -value;
        }
        int digits = 1;
        for (long rest = value / 10; rest != 0; rest /= 10) {
            digits++;
        }
        ensure(digits);
        for (int at = size + digits - 1; at >= size; at--) {
            bytes[at] = (byte) ('0' + value % 10);
            value /= 10;
        }
        size += digits;
        return this;
    }

    /** A whole number as a JSON string, {@code "42"}: an attempt's id. */
    public JsonBytes quotedNumber(long value) {
        return punctuation('"').number(value).punctuation('"');
    }

    public JsonBytes bool(boolean value) {
        return raw(value ? TRUE : FALSE);
    }

    /**
     * Any tree, as the mapper writes it: objects, arrays, strings, booleans, nulls and whole numbers directly (a unit's
     * data in an assignment, most often), any other value through the mapper.
     */
    public JsonBytes value(JsonNode node) {
        switch (node.getNodeType()) {
            case OBJECT -> {
                punctuation('{');
                Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
                while (fields.hasNext()) {
                    Map.Entry<String, JsonNode> field = fields.next();
                    string(field.getKey()).punctuation(':').value(field.getValue());
                    if (fields.hasNext()) {
                        punctuation(',');
                    }
                }
                return punctuation('}');
            }
            case ARRAY -> {
                punctuation('[');
                for (int i = 0; i < node.size(); i++) {
                    if (i > 0) {
                        punctuation(',');
                    }
                    value(node.get(i));
                }
                return punctuation(']');
            }
            case STRING -> {
                return string(node.textValue());
            }
            case BOOLEAN -> {
                return bool(node.booleanValue());
            }
            case NULL -> {
                return raw(NULL);
            }
            default -> {
                if (node.isIntegralNumber() && node.canConvertToLong()) {
                    return number(node.longValue());
                }
                return raw(Json.bytes(node));
            }
        }
    }

    /** Bytes that are JSON already. */
    public JsonBytes raw(byte[] json) {
        ensure(json.length);
        System.arraycopy(json, 0, bytes, size, json.length);
        size += json.length;
        return this;
    }

    public int size() {
        return size;
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(bytes, size);
    }

    private JsonBytes ascii(String text) {
        int length = text.length();
        ensure(length);
        for (int i = 0; i < length; i++) {
            bytes[size++] = (byte) text.charAt(i);
        }
        return this;
    }

    private void ensure(int more) {
        if (size + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
        }
    }
}
