package io.coordinate.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.client.WorkUnit;
import io.coordinate.protocol.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The input of {@code units add}: JSON lines, one unit object per line (docs/reference.md "Unit object"), blank
 * lines skipped. The whole input is read before anything is sent, so a bad line sends nothing: it is a usage error
 * naming its line number.
 *
 * <pre>{@code
 * {"name": "a.jpg", "data": {"size": 128}, "priority": 10, "group": "customer-7"}
 * {"name": "b.jpg", "delay": 60, "parent": {"work_unit_name": "album"}}
 * }</pre>
 */
final class UnitLines {

    static final Set<String> KEYS =
            Set.of("name", "data", "priority", "group", "delay", "not_before", "parent", "predecessor");

    private static final TypeReference<Map<String, Object>> DATA = new TypeReference<>() {};

    private UnitLines() {}

    /** @param workSpec the spec a {@code parent} or {@code predecessor} without {@code work_spec_name} is in */
    static List<WorkUnit> parse(BufferedReader in, String workSpec) {
        List<WorkUnit> units = new ArrayList<>();
        int number = 0;
        try {
            for (String line; (line = in.readLine()) != null; ) {
                number++;
                if (!line.isBlank()) {
                    units.add(unit(line, number, workSpec));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return units;
    }

    private static WorkUnit unit(String line, int number, String workSpec) {
        JsonNode unit;
        try {
            unit = Json.MAPPER.readTree(line);
        } catch (JsonProcessingException e) {
            throw bad(number, "not JSON: " + e.getOriginalMessage());
        }
        if (unit == null || !unit.isObject()) {
            throw bad(number, "not a JSON object");
        }
        unit.fieldNames().forEachRemaining(key -> {
            if (!KEYS.contains(key)) {
                throw bad(
                        number,
                        "unknown key \"" + key + "\" (known: name, data, priority, group, delay, not_before, parent, "
                                + "predecessor)");
            }
        });
        WorkUnit.Builder builder;
        if (unit.has("name")) {
            builder = WorkUnit.named(text(unit, "name", number));
        } else {
            builder = WorkUnit.unnamed();
        }
        if (unit.has("data")) {
            if (!unit.get("data").isObject()) {
                throw bad(number, "\"data\" must be an object");
            }
            builder.data(Json.MAPPER.convertValue(unit.get("data"), DATA));
        }
        if (unit.has("priority")) {
            builder.priority(number(unit, "priority", number));
        }
        if (unit.has("group")) {
            builder.group(text(unit, "group", number));
        }
        if (unit.has("delay")) {
            builder.delay(number(unit, "delay", number));
        }
        if (unit.has("not_before")) {
            try {
                builder.notBefore(Instant.parse(text(unit, "not_before", number)));
            } catch (DateTimeParseException e) {
                throw bad(number, "\"not_before\" is not an RFC 3339 time such as 2026-11-22T10:00:00Z");
            }
        }
        if (unit.has("parent")) {
            JsonNode parent = unit.get("parent");
            builder.parent(linkSpec(parent, "parent", number, workSpec), text(parent, "work_unit_name", number));
        }
        if (unit.has("predecessor")) {
            JsonNode predecessor = unit.get("predecessor");
            builder.predecessor(
                    linkSpec(predecessor, "predecessor", number, workSpec),
                    text(predecessor, "work_unit_name", number));
        }
        return builder.build();
    }

    private static String linkSpec(JsonNode link, String field, int number, String workSpec) {
        if (!link.isObject()) {
            throw bad(number, "\"" + field + "\" must be {\"work_spec_name\": ..., \"work_unit_name\": ...}");
        }
        return link.has("work_spec_name") ? text(link, "work_spec_name", number) : workSpec;
    }

    private static String text(JsonNode node, String field, int number) {
        if (!node.path(field).isTextual()) {
            throw bad(number, "\"" + field + "\" must be a string");
        }
        return node.get(field).asText();
    }

    private static double number(JsonNode node, String field, int number) {
        if (!node.get(field).isNumber()) {
            throw bad(number, "\"" + field + "\" must be a number");
        }
        return node.get(field).asDouble();
    }

    private static CliFailure bad(int number, String problem) {
        return new CliFailure(ExitCodes.USAGE, "error: line " + number + ": " + problem + "; nothing was sent");
    }
}
