package io.coordinate.client;

import java.util.Locale;

/**
 * What {@link CoordinateClient#addWorkUnits(String, java.util.List, IfExists)} does with a unit whose name exists
 * (docs/reference.md#add_work_units).
 */
public enum IfExists {
    /** Replace it with the new unit (the default, as without the option). */
    REPLACE,
    /** Leave it exactly as it is, whatever its status. */
    KEEP,
    /** Leave it as it is unless it is finished; a finished one is replaced. */
    KEEP_UNLESS_FINISHED;

    /** The wire value, e.g. {@code keep_unless_finished}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
