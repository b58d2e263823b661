package io.coordinate.client;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.protocol.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Conversions between the wire's JSON and the plain Java values the client's callers see. */
final class JsonValues {

    /** Reads a tree's values directly, without writing the tree out first as {@code convertValue} does. */
    private static final ObjectReader MAP =
            Json.MAPPER.readerFor(new TypeReference<LinkedHashMap<String, Object>>() {});

    private JsonValues() {}

    /** A caller's map (strings, numbers, booleans, lists, maps, null) as a JSON object. */
    static ObjectNode object(Map<String, ?> values) {
        return values == null ? Json.object() : Json.MAPPER.valueToTree(values);
    }

    static JsonNode tree(Object value) {
        return Json.MAPPER.valueToTree(value);
    }

    /** A JSON object as an unmodifiable map in field order; anything else (absent, null) as an empty map. */
    static Map<String, Object> map(JsonNode node) {
        if (node == null || !node.isObject()) {
            return Map.of();
        }
        try {
            return Collections.unmodifiableMap(MAP.readValue(node));
        } catch (IOException e) { // a tree in memory has nothing to fail on
            throw new UncheckedIOException(e);
        }
    }

    static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }

    static Instant time(JsonNode node, String field) {
        String text = text(node, field);
        return text == null ? null : Instant.parse(text);
    }

    static List<String> texts(JsonNode node, String field) {
        List<String> values = new ArrayList<>();
        node.path(field).forEach(value -> values.add(value.asText()));
        return List.copyOf(values);
    }

    static Map<String, Long> counts(JsonNode node) {
        Map<String, Long> counts = new LinkedHashMap<>();
        node.fields()
                .forEachRemaining(
                        entry -> counts.put(entry.getKey(), entry.getValue().asLong()));
        return Collections.unmodifiableMap(counts);
    }
}
