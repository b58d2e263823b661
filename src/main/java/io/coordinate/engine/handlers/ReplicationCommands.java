package io.coordinate.engine.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.state.model.WorkSpecRecord;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.protocol.CommandType;
import io.coordinate.protocol.Json;

/** {@code cancel_work_units} (docs/reference.md#cancel_work_units, BOINC's cancelled work units). */
public final class ReplicationCommands {

    private ReplicationCommands() {}

    public static void register(HandlerRegistry registry) {
        registry.register(CommandType.CANCEL_WORK_UNITS, ReplicationCommands::cancelWorkUnits);
    }

    /**
     * Sets error bit 16 on the matching replicated units that are not decided yet: each fails and is assimilated
     * (one record on {@code coordinate.results}); its replicas still running are not needed any more. Units of an
     * ordinary spec and decided units are left as they are. Result: {@code {"cancelled": n}}.
     */
    static JsonNode cancelWorkUnits(CommandContext ctx) {
        WorkSpecRecord spec = Lookups.spec(ctx, ctx.command().requiredString("work_spec_name"));
        UnitQuery query = UnitQuery.parse(ctx.command().get("query"));
        int cancelled = 0;
        for (WorkUnitRecord unit : ctx.select(query, spec.name())) {
            WorkUnitRecord current = ctx.units().get(ctx.namespace(), unit.spec(), unit.name());
            if (current != null && ctx.replication().cancel(current)) {
                cancelled++;
            }
        }
        ObjectNode result = Json.object();
        result.put("cancelled", cancelled);
        return result;
    }
}
