package io.coordinate.engine.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.state.model.WorkSpecRecord;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.protocol.CommandType;
import io.coordinate.protocol.Json;

/**
 * {@code cancel_work_units} (docs/reference.md#cancel_work_units): the units of an ordinary spec become
 * {@code cancelled}, and the workers of their running attempts are told on {@code coordinate.assignments}; a
 * replicated spec's units fail as BOINC's cancelled work units do (docs/replication.md).
 */
public final class CancelCommands {

    private CancelCommands() {}

    public static void register(HandlerRegistry registry) {
        registry.register(CommandType.CANCEL_WORK_UNITS, CancelCommands::cancelWorkUnits);
    }

    /**
     * Cancels the matching units that are not finished, failed or cancelled, with their running attempts. A replicated
     * unit that is not decided yet gets error bit 16 instead: it fails and is assimilated (one record on
     * {@code coordinate.results}); its replicas still running are not needed any more. Result:
     * {@code {"cancelled": n}}.
     */
    static JsonNode cancelWorkUnits(CommandContext ctx) {
        WorkSpecRecord spec = Lookups.spec(ctx, ctx.command().requiredString("work_spec_name"));
        UnitQuery query = UnitQuery.parse(ctx.command().get("query"));
        boolean replicated = spec.meta().replication() != null;
        CancelNotices notices = new CancelNotices(ctx.namespace());
        int cancelled = 0;
        for (WorkUnitRecord unit : ctx.select(query, spec.name())) {
            // read again: an earlier unit's cascade (its heirs, its parent) may have moved this one
            WorkUnitRecord current = ctx.units().get(ctx.namespace(), unit.spec(), unit.name());
            if (current == null) {
                continue;
            }
            if (replicated || current.replication() != null) {
                if (ctx.replication().cancel(current)) {
                    cancelled++;
                }
            } else if (!current.status().isFinal()) {
                notices.add(ctx.family().cancel(current));
                cancelled++;
            }
        }
        notices.writeTo(ctx);
        ObjectNode result = Json.object();
        result.put("cancelled", cancelled);
        return result;
    }
}
