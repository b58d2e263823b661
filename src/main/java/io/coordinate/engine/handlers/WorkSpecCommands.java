package io.coordinate.engine.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.state.model.CronSchedule;
import io.coordinate.engine.state.model.UnitRef;
import io.coordinate.engine.state.model.WorkSpecMeta;
import io.coordinate.engine.state.model.WorkSpecRecord;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.protocol.CommandRejection;
import io.coordinate.protocol.CommandType;
import io.coordinate.protocol.ErrorCode;
import java.util.List;

/** {@code set_work_spec}, {@code set_work_spec_meta}, {@code delete_work_spec}. */
public final class WorkSpecCommands {

    private WorkSpecCommands() {}

    public static void register(HandlerRegistry registry) {
        registry.register(CommandType.SET_WORK_SPEC, WorkSpecCommands::setWorkSpec);
        registry.register(CommandType.SET_WORK_SPEC_META, WorkSpecCommands::setWorkSpecMeta);
        registry.register(CommandType.DELETE_WORK_SPEC, WorkSpecCommands::deleteWorkSpec);
    }

    /** Creates a spec, or reloads it: data replaced, all metadata derived again. */
    static JsonNode setWorkSpec(CommandContext ctx) {
        ObjectNode data = ctx.command().requiredObject("work_spec");
        String name = WorkSpecDefinition.name(data);
        String expected = ctx.command().optionalString("work_spec_name", null);
        if (expected != null && !expected.equals(name)) {
            throw new CommandRejection(
                    ErrorCode.CHANGED_NAME, "work spec \"" + expected + "\" cannot be renamed to \"" + name + "\"");
        }
        CronSchedule schedule = ScheduleDefinition.parse(data);
        WorkSpecRecord before = ctx.specs().get(ctx.namespace(), name);
        WorkSpecMeta meta = GroupDefinition.keepGroupedUnits(WorkSpecDefinition.deriveMeta(data), before);
        WorkSpecRecord after = new WorkSpecRecord(name, data.deepCopy(), meta);
        ctx.specs().write(ctx.namespace(), before, after);
        ScheduledUnits.specSet(ctx.specs(), ctx.namespace(), name, before, schedule, ctx.now());
        return ctx.views().spec(after);
    }

    /**
     * Changes only the metadata fields given; {@code continuous} only if it can be
     * (docs/reference.md#set_work_spec_meta).
     */
    static JsonNode setWorkSpecMeta(CommandContext ctx) {
        WorkSpecRecord spec = Lookups.spec(ctx, ctx.command().requiredString("work_spec_name"));
        ObjectNode given = ctx.command().requiredObject("meta");
        WorkSpecMeta m = spec.meta();
        boolean continuous = m.continuous();
        if (given.has("continuous") && m.canBeContinuous()) {
            continuous = WorkSpecDefinition.bool(given, "continuous", continuous);
        }
        WorkSpecMeta changed = m.toBuilder()
                .priority(WorkSpecDefinition.priority(given, "priority", m.priority()))
                .weight(
                        given.has("weight")
                                ? Math.max(1, WorkSpecDefinition.weight(given, "weight", m.weight()))
                                : m.weight())
                .paused(WorkSpecDefinition.bool(given, "paused", m.paused()))
                .continuous(continuous)
                .interval(WorkSpecDefinition.interval(given, "interval", m.interval()))
                .maxRunning(WorkSpecDefinition.count(given, "max_running", m.maxRunning()))
                .maxAttemptsReturned(WorkSpecDefinition.count(given, "max_attempts_returned", m.maxAttemptsReturned()))
                .maxRetries(WorkSpecDefinition.count(given, "max_retries", m.maxRetries()))
                .build();
        WorkSpecRecord after = spec.withMeta(changed);
        ctx.specs().write(ctx.namespace(), spec, after);
        return ctx.views().spec(after);
    }

    static JsonNode deleteWorkSpec(CommandContext ctx) {
        WorkSpecRecord spec = Lookups.spec(ctx, ctx.command().requiredString("work_spec_name"));
        deleteFamilies(ctx, spec.name());
        ctx.specs().delete(ctx.namespace(), spec);
        ObjectNode result = ctx.command().body().objectNode();
        result.put("deleted", spec.name());
        return result;
    }

    /**
     * Units of the spec that are in a job tree go as {@code delete_work_units} would take them (with their
     * children, in any spec; heirs elsewhere lose them), so that no link outlives its unit.
     */
    private static void deleteFamilies(CommandContext ctx, String spec) {
        String after = null;
        List<WorkUnitRecord> page;
        do {
            page = ctx.units().list(ctx.namespace(), spec, after, 512);
            for (WorkUnitRecord unit : page) {
                if (unit.family() != null) {
                    ctx.family().delete(UnitRef.of(unit));
                }
            }
            after = page.isEmpty() ? null : page.get(page.size() - 1).name();
        } while (page.size() == 512);
    }
}
