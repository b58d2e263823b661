package io.coordinate.engine.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.protocol.CommandRejection;
import java.util.Locale;

/**
 * What {@code add_work_units} does with a unit whose name exists (docs/reference.md#add_work_units): replace it, as
 * the reference does, or keep it exactly as it is.
 */
public enum IfExists {
    REPLACE,
    KEEP,
    KEEP_UNLESS_FINISHED;

    /** The wire name, e.g. {@code keep_unless_finished}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether an add leaves {@code existing} (null: no such unit) as it is. */
    public boolean keeps(WorkUnitRecord existing) {
        return existing != null
                && (this == KEEP || (this == KEEP_UNLESS_FINISHED && existing.status() != UnitStatus.FINISHED));
    }

    /** An {@code if_exists} value; {@code otherwise} when absent (null) or JSON null. */
    static IfExists parse(JsonNode value, IfExists otherwise) {
        if (value == null || value.isNull()) {
            return otherwise;
        }
        for (IfExists mode : values()) {
            if (value.isTextual() && mode.wireName().equals(value.textValue())) {
                return mode;
            }
        }
        throw CommandRejection.badCommand(
                "\"if_exists\" must be \"replace\", \"keep\" or \"keep_unless_finished\", not " + value);
    }
}
