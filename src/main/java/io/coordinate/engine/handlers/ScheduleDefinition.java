package io.coordinate.engine.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.state.model.CronSchedule;
import io.coordinate.engine.state.model.CronSchedule.CatchUp;
import io.coordinate.protocol.CommandRejection;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.Limits;
import java.time.ZoneId;
import java.util.Iterator;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a work spec's {@code schedule} key (docs/reference.md#schedules) into its schedule, with the defaults filled
 * in. A value the schedule cannot use, or a key it does not know, is {@code bad_command} naming the key, as
 * {@code schedule.cron}.
 */
final class ScheduleDefinition {

    private static final String KEY = "schedule";
    private static final Set<String> FIELDS = Set.of("cron", "timezone", "unit", "catch_up");
    private static final Set<String> UNIT_FIELDS = Set.of("name_template", "data", "priority");
    /** Anything written as a placeholder: one the template does not know would stay in every name as it is. */
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{[A-Za-z_]+}");

    private ScheduleDefinition() {}

    /** The schedule of the spec's data; null when {@code schedule} is absent or null. */
    static CronSchedule parse(JsonNode data) {
        JsonNode schedule = data.get(KEY);
        if (schedule == null || schedule.isNull()) {
            return null;
        }
        requireObject(schedule, KEY, FIELDS);
        String cron = text(schedule, "cron", null);
        try {
            FireTimes.of(cron);
        } catch (IllegalArgumentException e) {
            throw CommandRejection.badCommand(
                    what("cron") + " must be a Unix cron expression of five fields: " + e.getMessage());
        }
        String timezone = text(schedule, "timezone", CronSchedule.DEFAULT_TIMEZONE);
        if (!ZoneId.getAvailableZoneIds().contains(timezone)) {
            throw CommandRejection.badCommand(what("timezone") + " must be an IANA time zone, as \"Europe/Berlin\"");
        }
        JsonNode unit = schedule.path("unit");
        if (unit.isMissingNode() || unit.isNull()) {
            unit = Json.object();
        }
        requireObject(unit, KEY + ".unit", UNIT_FIELDS);
        return new CronSchedule(
                cron,
                timezone,
                nameTemplate(unit),
                unitData(unit),
                unit.hasNonNull("priority") ? Limits.priority(unit.get("priority"), what("unit.priority")) : 0,
                catchUp(schedule));
    }

    private static void requireObject(JsonNode value, String key, Set<String> fields) {
        if (!value.isObject()) {
            throw CommandRejection.badCommand("work spec key \"" + key + "\" must be an object");
        }
        for (Iterator<String> names = value.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!fields.contains(name)) {
                throw CommandRejection.badCommand(
                        "work spec key \"" + key + "." + name + "\" is not a setting of \"" + key + "\"");
            }
        }
    }

    /** Each fire needs a name of its own: with none, every fire after the first would be skipped as a repeat. */
    private static String nameTemplate(JsonNode unit) {
        String template = text(unit, "unit.name_template", CronSchedule.DEFAULT_NAME_TEMPLATE);
        Matcher placeholders = PLACEHOLDER.matcher(template);
        while (placeholders.find()) {
            if (!CronSchedule.PLACEHOLDERS.contains(placeholders.group())) {
                throw CommandRejection.badCommand(what("unit.name_template") + " has an unknown placeholder "
                        + placeholders.group() + "; it knows " + String.join(", ", CronSchedule.PLACEHOLDERS));
            }
        }
        if (!template.contains("{fire_time}") && !template.contains("{fire_epoch}")) {
            throw CommandRejection.badCommand(what("unit.name_template")
                    + " must hold {fire_time} or {fire_epoch}: each fire needs its own name");
        }
        return template;
    }

    private static ObjectNode unitData(JsonNode unit) {
        JsonNode data = unit.get("data");
        if (data == null || data.isNull()) {
            return Json.object();
        }
        if (!data.isObject()) {
            throw CommandRejection.badCommand(what("unit.data") + " must be an object");
        }
        return (ObjectNode) data.deepCopy();
    }

    private static CatchUp catchUp(JsonNode schedule) {
        String value = text(schedule, "catch_up", CatchUp.ONE.wireName());
        for (CatchUp catchUp : CatchUp.values()) {
            if (catchUp.wireName().equals(value)) {
                return catchUp;
            }
        }
        throw CommandRejection.badCommand(what("catch_up") + " must be \"none\", \"one\" or \"all\"");
    }

    /**
     * A string field ({@code schedule.unit.name_template} given as {@code unit.name_template}); {@code fallback} when
     * absent, and required when that is null.
     */
    private static String text(JsonNode node, String path, String fallback) {
        JsonNode value = node.get(path.substring(path.lastIndexOf('.') + 1));
        if ((value == null || value.isNull()) && fallback != null) {
            return fallback;
        }
        if (value == null || value.isNull() || !value.isTextual()) {
            throw CommandRejection.badCommand(what(path) + " must be a string");
        }
        return value.textValue();
    }

    private static String what(String field) {
        return "work spec key \"" + KEY + "." + field + "\"";
    }
}
