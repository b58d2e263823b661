package io.coordinate.engine.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.engine.state.model.UnitRef;
import io.coordinate.protocol.CommandRejection;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.Limits;
import io.coordinate.protocol.Times;
import java.util.UUID;
import java.util.random.RandomGenerator;

/**
 * One unit object of {@code add_work_units} (docs/reference.md#unit-object), validated. {@code parent} and
 * {@code predecessor} name units (docs/children-and-heirs.md), {@code group} its concurrency group; null when not
 * given.
 */
record NewUnit(
        String name,
        JsonNode data,
        double priority,
        Long notBefore,
        UnitRef parent,
        UnitRef predecessor,
        String group) {

    /** The longest {@code group} (docs/reference.md#concurrency-groups). */
    static final int MAX_GROUP_LENGTH = 256;

    /** @param spec the spec the unit is added to: a link without {@code work_spec_name} names a unit of it */
    static NewUnit parse(JsonNode item, String spec, long now, RandomGenerator random) {
        if (!item.isObject()) {
            throw CommandRejection.badCommand("each work unit must be an object");
        }
        String name;
        JsonNode nameNode = item.get("name");
        if (nameNode == null || nameNode.isNull()) {
            name = new UUID(
                            random.nextLong() & ~0xF000L | 0x4000L,
                            random.nextLong() & 0x3FFFFFFFFFFFFFFFL | 0x8000000000000000L)
                    .toString();
        } else if (nameNode.isTextual()) {
            name = nameNode.textValue();
        } else {
            throw CommandRejection.badCommand("work unit \"name\" must be a string");
        }
        JsonNode data = item.get("data");
        if (data == null || data.isNull()) {
            data = Json.object();
        } else if (!data.isObject()) {
            throw CommandRejection.badCommand("work unit \"data\" must be an object");
        }
        double priority =
                item.hasNonNull("priority") ? Limits.priority(item.get("priority"), "work unit \"priority\"") : 0;
        Long notBefore = null;
        JsonNode time = item.hasNonNull("not_before") ? item.get("not_before") : item.get("run_at");
        if (time != null && !time.isNull()) {
            if (!time.isTextual()) {
                throw CommandRejection.badCommand("\"not_before\" must be an RFC 3339 time");
            }
            try {
                notBefore = Times.parse(time.textValue());
            } catch (IllegalArgumentException e) {
                throw CommandRejection.badCommand(e.getMessage());
            }
        }
        if (item.hasNonNull("delay")) {
            notBefore = Times.plus(
                    now, Limits.number(item.get("delay"), "work unit \"delay\"", 0, Limits.MAX_DELAY_SECONDS));
        }
        return new NewUnit(
                name,
                data,
                priority,
                notBefore,
                link(item, "parent", spec),
                link(item, "predecessor", spec),
                group(item));
    }

    /** {@code group}: a string of 1 to {@link #MAX_GROUP_LENGTH} characters; null when not given. */
    private static String group(JsonNode item) {
        JsonNode group = item.get("group");
        if (group == null || group.isNull()) {
            return null;
        }
        if (!group.isTextual()
                || group.textValue().isEmpty()
                || group.textValue().length() > MAX_GROUP_LENGTH) {
            throw CommandRejection.badCommand(
                    "work unit \"group\" must be a string of 1 to " + MAX_GROUP_LENGTH + " characters");
        }
        return group.textValue();
    }

    /** {@code {"work_spec_name": "s", "work_unit_name": "u"}}; the spec defaults to the unit's own. */
    private static UnitRef link(JsonNode item, String field, String spec) {
        JsonNode link = item.get(field);
        if (link == null || link.isNull()) {
            return null;
        }
        JsonNode linkSpec = link.path("work_spec_name");
        if (!link.isObject()
                || !link.path("work_unit_name").isTextual()
                || !(linkSpec.isMissingNode() || linkSpec.isNull() || linkSpec.isTextual())) {
            throw CommandRejection.badCommand(
                    "\"" + field + "\" must be an object {\"work_spec_name\": string, \"work_unit_name\": string}");
        }
        return new UnitRef(
                linkSpec.isTextual() ? linkSpec.textValue() : spec,
                link.get("work_unit_name").textValue());
    }
}
