package io.coordinate.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/** The reply to {@code add_work_units}: how many units were added, and their names in order. */
public record AddedUnits(long added, List<String> workUnitNames) {

  static AddedUnits from(JsonNode json) {
    return new AddedUnits(json.path("added").asLong(), JsonValues.texts(json, "work_unit_names"));
  }
}
