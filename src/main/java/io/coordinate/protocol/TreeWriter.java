package io.coordinate.protocol;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Writes JSON trees to bytes, byte for byte as {@link Json#MAPPER} does, for the outputs of every command
 * (events, assignments, replies). Field names are few and repeat in every record, so their quoted UTF-8 form
 * is kept and copied instead of escaped again each time; objects, arrays, strings and booleans are written
 * directly; numbers and anything rarer go through the mapper.
 */
final class TreeWriter {

    /** Names kept; unit data may bring any number of distinct ones, which are then written the ordinary way. */
    private static final int MAX_NAMES = 4096;

    private static final Map<String, SerializableString> NAMES = new ConcurrentHashMap<>();

    private TreeWriter() {}

    static byte[] bytes(JsonNode node) {
        return Json.bytes(256, out -> write(node, out));
    }

    private static void write(JsonNode node, JsonGenerator generator) throws IOException {
        switch (node.getNodeType()) {
            case OBJECT -> {
                generator.writeStartObject();
                Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
                while (fields.hasNext()) {
                    Map.Entry<String, JsonNode> field = fields.next();
                    writeName(field.getKey(), generator);
                    write(field.getValue(), generator);
                }
                generator.writeEndObject();
            }
            case ARRAY -> {
                generator.writeStartArray();
                for (JsonNode element : node) {
                    write(element, generator);
                }
                generator.writeEndArray();
            }
            case STRING -> generator.writeString(node.textValue());
            case BOOLEAN -> generator.writeBoolean(node.booleanValue());
            case NULL -> generator.writeNull();
            case NUMBER -> writeNumber(node, generator);
            default -> Json.MAPPER.writeTree(generator, node);
        }
    }

    /** As each numeric node's own {@code serialize} writes it; the mapper would first look its serializer up. */
    private static void writeNumber(JsonNode node, JsonGenerator generator) throws IOException {
        switch (node.numberType()) {
            case INT -> generator.writeNumber(node.intValue());
            case LONG -> generator.writeNumber(node.longValue());
            case BIG_DECIMAL -> generator.writeNumber(node.decimalValue());
            case BIG_INTEGER -> generator.writeNumber(node.bigIntegerValue());
            default -> Json.MAPPER.writeTree(generator, node); // float, double (NaN is a string or not, by feature)
        }
    }

    private static void writeName(String name, JsonGenerator generator) throws IOException {
        SerializableString known = kept(name);
        if (known != null) {
            generator.writeFieldName(known);
        } else {
            generator.writeFieldName(name); // past the names kept: written the ordinary way
        }
    }

    /** The encoded form of a text, kept while fewer than {@link #MAX_NAMES} are; null past that. */
    private static SerializableString kept(String text) {
        SerializableString known = NAMES.get(text);
        if (known == null && NAMES.size() < MAX_NAMES) {
            known = NAMES.computeIfAbsent(text, SerializedString::new);
        }
        return known;
    }

    /** The quoted UTF-8 form of a name (or of a value from a small fixed set), kept while there are few of them. */
    static SerializableString encoded(String text) {
        SerializableString known = kept(text);
        return known != null ? known : new SerializedString(text);
    }
}
