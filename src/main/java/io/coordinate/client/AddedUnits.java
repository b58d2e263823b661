package io.coordinate.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/** The reply to {@code add_work_units}: how many units were added, and their names in order. */
public record AddedUnits(long added, List<String> workUnitNames) {

    /** The result of two commands that added units in turn. */
    AddedUnits plus(AddedUnits next) {
        List<String> names = new ArrayList<>(workUnitNames);
        names.addAll(next.workUnitNames);
        return new AddedUnits(added + next.added, List.copyOf(names));
    }

    static AddedUnits from(JsonNode json) {
        return new AddedUnits(json.path("added").asLong(), JsonValues.texts(json, "work_unit_names"));
    }
}
