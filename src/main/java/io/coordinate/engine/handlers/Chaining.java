package io.coordinate.engine.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.state.SpecState;
import io.coordinate.engine.state.model.WorkSpecRecord;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.engine.view.Numbers;
import io.coordinate.protocol.CommandType;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.Limits;
import io.coordinate.protocol.Times;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * {@code then} chaining (docs/reference.md#finish_attempt): the {@code output} of a finished unit becomes one
 * {@code add_work_units} command for the next spec, written to {@code coordinate.chained} and applied from
 * there like any other command.
 */
public final class Chaining {

    private Chaining() {}

    /**
     * @param data the effective data of the finished attempt: the finish data if given, else the attempt's
     *     (which started as the unit's and may have been replaced by a renew)
     */
    public static void chain(CommandContext ctx, WorkUnitRecord unit, JsonNode data) {
        chain(ctx.specs(), ctx.namespace(), ctx.now(), unit, data, ctx::chained);
    }

    /** Chaining outside a command handler (the time step): the command goes to {@code out}. */
    public static void chain(
            SpecState specs, String ns, long now, WorkUnitRecord unit, JsonNode data, Consumer<ObjectNode> out) {
        WorkSpecRecord spec = specs.get(ns, unit.spec());
        String next = spec == null ? "" : spec.meta().nextWorkSpecName();
        if (next.isEmpty() || specs.get(ns, next) == null) {
            return; // a then naming a missing spec produces nothing and no error
        }
        JsonNode output = data == null ? null : data.get("output");
        Map<String, ObjectNode> units = parseOutput(output, now);
        if (units.isEmpty()) {
            return;
        }
        ObjectNode command = Json.object();
        command.put("command", CommandType.ADD_WORK_UNITS.wireName());
        command.put("namespace", ns);
        command.put("work_spec_name", next);
        ArrayNode list = command.putArray("work_units");
        units.values().forEach(list::add);
        out.accept(command);
    }

    /** The unit objects an {@code output} asks for; malformed items are skipped, later duplicates win. */
    static Map<String, ObjectNode> parseOutput(JsonNode output, long now) {
        Map<String, ObjectNode> units = new LinkedHashMap<>();
        if (output == null) {
            return units;
        }
        if (output.isObject()) {
            output.fields().forEachRemaining(e -> {
                if (e.getValue().isObject()) {
                    put(units, unit(e.getKey(), e.getValue(), null, null, now));
                }
            });
        } else if (output.isArray()) {
            for (JsonNode item : output) {
                if (item.isTextual()) {
                    put(units, unit(item.textValue(), null, null, null, now));
                } else if (item.isArray()
                        && item.size() >= 2
                        && item.get(0).isTextual()
                        && objectOrAbsent(item.path(1))
                        && objectOrAbsent(item.path(2))
                        && numberOrAbsent(item.path(3))) {
                    JsonNode meta = item.size() > 2 ? item.get(2) : null;
                    JsonNode priority = item.size() > 3 ? item.get(3) : null;
                    put(units, unit(item.get(0).textValue(), item.get(1), meta, priority, now));
                }
            }
        }
        return units;
    }

    // An item part of the wrong type makes the item malformed: it is skipped, as the reference does.

    private static boolean objectOrAbsent(JsonNode part) {
        return part.isMissingNode() || part.isNull() || part.isObject();
    }

    private static boolean numberOrAbsent(JsonNode part) {
        return part.isMissingNode() || part.isNull() || part.isNumber();
    }

    private static void put(Map<String, ObjectNode> units, ObjectNode unit) {
        String name = unit.get("name").textValue();
        units.remove(name);
        units.put(name, unit);
    }

    private static ObjectNode unit(String name, JsonNode data, JsonNode meta, JsonNode priority, long now) {
        ObjectNode unit = Json.object();
        unit.put("name", name);
        unit.set("data", data != null && data.isObject() ? data : Json.object());
        double p = 0;
        if (meta != null && meta.isObject()) {
            if (meta.path("priority").isNumber()) {
                p = meta.get("priority").doubleValue();
            }
            if (meta.path("delay").isNumber() && meta.get("delay").doubleValue() > 0) {
                // made absolute now, so the delay does not depend on when the chained command is applied; a worker's
                // output is not refused for a delay too long: it is cut to the longest one
                double delay = Math.min(meta.get("delay").doubleValue(), Limits.MAX_DELAY_SECONDS);
                unit.put("not_before", Times.format(Times.plus(now, delay)));
            }
        }
        if (priority != null && priority.isNumber()) {
            p = priority.doubleValue();
        }
        p = Limits.clampPriority(p); // so the chained add_work_units is never refused for it (1e400 reads as infinity)
        unit.set("priority", Numbers.node(p));
        return unit;
    }
}
