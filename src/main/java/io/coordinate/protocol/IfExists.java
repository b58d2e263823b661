package io.coordinate.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Locale;

/**
 * What {@code add_work_units} does with a unit whose name exists, its {@code if_exists}
 * (docs/reference.md#add_work_units). The client sends it and the engine reads it: one enum for both.
 */
public enum IfExists {
    /** Replace it with the new unit (the default, as without the field). */
    REPLACE,
    /** Leave it exactly as it is, whatever its status. */
    KEEP,
    /** Leave it as it is unless it is finished; a finished one is replaced. */
    KEEP_UNLESS_FINISHED;

    /** The wire value, e.g. {@code keep_unless_finished}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The mode of a wire value; null for any other value. */
    public static IfExists fromWire(String value) {
        for (IfExists mode : values()) {
            if (mode.wireName().equals(value)) {
                return mode;
            }
        }
        return null;
    }

    /** An {@code if_exists} field's value; {@code otherwise} when absent (null) or JSON null. */
    public static IfExists parse(JsonNode value, IfExists otherwise) {
        if (value == null || value.isNull()) {
            return otherwise;
        }
        IfExists mode = value.isTextual() ? fromWire(value.textValue()) : null;
        if (mode == null) {
            throw CommandRejection.badCommand(
                    "\"if_exists\" must be \"replace\", \"keep\" or \"keep_unless_finished\", not " + value);
        }
        return mode;
    }
}
