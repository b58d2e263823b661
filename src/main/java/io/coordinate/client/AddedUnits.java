package io.coordinate.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The reply to {@code add_work_units}: how many units were added (or replaced), and their names in order. With an
 * {@link io.coordinate.protocol.IfExists} option the reply also names the units {@code addedNames} (new), {@code replaced} and
 * {@code kept} (left as they were); without one these lists are empty.
 */
public record AddedUnits(
        long added, List<String> workUnitNames, List<String> addedNames, List<String> replaced, List<String> kept) {

    /** A reply without the lists of an {@link io.coordinate.protocol.IfExists} option. */
    public AddedUnits(long added, List<String> workUnitNames) {
        this(added, workUnitNames, List.of(), List.of(), List.of());
    }

    /** The result of two commands that added units in turn. */
    public AddedUnits plus(AddedUnits next) {
        return new AddedUnits(
                added + next.added,
                joined(workUnitNames, next.workUnitNames),
                joined(addedNames, next.addedNames),
                joined(replaced, next.replaced),
                joined(kept, next.kept));
    }

    private static List<String> joined(List<String> first, List<String> second) {
        List<String> all = new ArrayList<>(first);
        all.addAll(second);
        return List.copyOf(all);
    }

    /** With {@code if_exists}, {@code added} is the list of new names, and the count is of the units written. */
    static AddedUnits from(JsonNode json) {
        List<String> names = JsonValues.texts(json, "work_unit_names");
        if (!json.path("added").isArray()) {
            return new AddedUnits(json.path("added").asLong(), names);
        }
        List<String> addedNames = JsonValues.texts(json, "added");
        List<String> replaced = JsonValues.texts(json, "replaced");
        return new AddedUnits(
                addedNames.size() + replaced.size(), names, addedNames, replaced, JsonValues.texts(json, "kept"));
    }
}
