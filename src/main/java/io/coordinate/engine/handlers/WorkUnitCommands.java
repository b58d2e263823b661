package io.coordinate.engine.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.family.UnitTransitions;
import io.coordinate.engine.replication.Replication;
import io.coordinate.engine.state.model.UnitRef;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.engine.state.model.WorkSpecRecord;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.protocol.CommandRejection;
import io.coordinate.protocol.CommandType;
import io.coordinate.protocol.ErrorCode;
import io.coordinate.protocol.IfExists;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.Limits;
import java.util.ArrayList;
import java.util.List;

/** {@code add_work_units}, {@code prioritize_work_units}, {@code delete_work_units}, {@code reset_work_units}. */
public final class WorkUnitCommands {

    /** Units one command may carry: a larger batch must be split (error {@code too_large}). */
    public static final int MAX_UNITS_PER_COMMAND = 100_000;

    private WorkUnitCommands() {}

    public static void register(HandlerRegistry registry) {
        registry.register(CommandType.ADD_WORK_UNITS, WorkUnitCommands::addWorkUnits);
        registry.register(CommandType.PRIORITIZE_WORK_UNITS, WorkUnitCommands::prioritizeWorkUnits);
        registry.register(CommandType.DELETE_WORK_UNITS, WorkUnitCommands::deleteWorkUnits);
        registry.register(CommandType.RESET_WORK_UNITS, WorkUnitCommands::resetWorkUnits);
    }

    /**
     * Adds units or replaces them. A replaced unit takes the new data, priority, not-before time and group; it keeps
     * its attempt history; it stays pending if it was, and otherwise rests again (a finished or failed unit
     * becomes available). A unit with a parent or predecessor, or one that has children or heirs, is placed in
     * its job tree by {@link io.coordinate.engine.family.Family#add}; units are applied in order, so a unit may name an
     * earlier one of the same command. With {@code if_exists} (the command's, or a unit object's own), an existing
     * unit may be kept instead: left exactly as it is, no write and no event; the reply then lists the names added,
     * replaced and kept.
     */
    static JsonNode addWorkUnits(CommandContext ctx) {
        WorkSpecRecord spec = Lookups.spec(ctx, ctx.command().requiredString("work_spec_name"));
        List<JsonNode> items = ctx.command().requiredArray("work_units");
        if (items.size() > MAX_UNITS_PER_COMMAND) {
            throw new CommandRejection(
                    ErrorCode.TOO_LARGE, items.size() + " units in one command; at most " + MAX_UNITS_PER_COMMAND);
        }
        IfExists commandMode = IfExists.parse(ctx.command().get("if_exists"), IfExists.REPLACE);
        List<NewUnit> units = new ArrayList<>(items.size());
        List<IfExists> modes = new ArrayList<>(items.size());
        boolean modeGiven = ctx.command().has("if_exists");
        for (JsonNode item : items) {
            units.add(NewUnit.parse(item, spec.name(), ctx.now(), ctx.random()));
            modes.add(IfExists.parse(item.get("if_exists"), commandMode));
            modeGiven |= item.hasNonNull("if_exists");
        }
        GroupDefinition.markGroupedUnits(
                ctx, spec, units.stream().map(NewUnit::group).toList());
        String ns = ctx.namespace();
        ctx.units().prefetch(ns, spec.name(), units.stream().map(NewUnit::name).toList());
        ArrayNode names = Json.MAPPER.createArrayNode();
        AddOutcomes outcomes = new AddOutcomes();
        for (int i = 0; i < units.size(); i++) {
            NewUnit unit = units.get(i);
            WorkUnitRecord before = ctx.units().get(ns, spec.name(), unit.name());
            names.add(unit.name());
            if (keeps(modes.get(i), before)) {
                outcomes.kept.add(unit.name());
                continue;
            }
            (before == null ? outcomes.added : outcomes.replaced).add(unit.name());
            WorkUnitRecord after;
            if (before == null) {
                after = WorkUnitRecord.builder(spec.name(), unit.name())
                        .data(unit.data())
                        .priority(unit.priority())
                        .notBefore(unit.notBefore())
                        .group(unit.group())
                        .status(UnitTransitions.restingStatus(unit.notBefore(), ctx.now()))
                        .build();
            } else {
                after = WorkUnitRecord.builder(spec.name(), unit.name())
                        .data(unit.data())
                        .priority(unit.priority())
                        .notBefore(unit.notBefore())
                        .group(unit.group())
                        .status(before.status())
                        .activeAttempt(before.activeAttempt())
                        .attemptCount(before.attemptCount())
                        .replication(before.replication())
                        .build();
                if (Replication.roundUnderWay(before)) {
                    // its replicas keep running; the replicas handed out from now on get the new data
                    if (before.status() != UnitStatus.PENDING) {
                        after = after.toBuilder()
                                .status(UnitTransitions.restingStatus(after.notBefore(), ctx.now()))
                                .build();
                    }
                } else if (before.status() != UnitStatus.PENDING) {
                    after = UnitTransitions.clearActiveAttempt(
                            after, ctx.now()); // a decided replicated unit: a new round
                }
            }
            if (unit.parent() != null || unit.predecessor() != null || (before != null && before.family() != null)) {
                ctx.family().add(before, after, unit.parent(), unit.predecessor());
            } else if (before == null) {
                ctx.units().add(ns, after);
            } else {
                ctx.units().replace(ns, before, after);
            }
        }
        ObjectNode result = Json.object();
        if (modeGiven) {
            outcomes.putInto(result);
        } else {
            result.put("added", units.size());
        }
        result.set("work_unit_names", names);
        return result;
    }

    /** Sets ({@code priority}) or adds to ({@code adjustment}) the priority of the matching units. */
    static JsonNode prioritizeWorkUnits(CommandContext ctx) {
        WorkSpecRecord spec = Lookups.spec(ctx, ctx.command().requiredString("work_spec_name"));
        UnitQuery query = UnitQuery.parse(ctx.command().get("query"));
        boolean absolute = ctx.command().has("priority");
        if (!absolute && !ctx.command().has("adjustment")) {
            throw CommandRejection.badCommand("give \"priority\" or \"adjustment\"");
        }
        // an adjustment may span the whole range both ways; the sum is brought back within it
        double value = absolute
                ? ctx.command().optionalNumber("priority", 0, -Limits.MAX_PRIORITY, Limits.MAX_PRIORITY)
                : ctx.command().optionalNumber("adjustment", 0, -2 * Limits.MAX_PRIORITY, 2 * Limits.MAX_PRIORITY);
        int changed = 0;
        for (WorkUnitRecord unit : ctx.select(query, spec.name())) {
            double priority = absolute ? value : Limits.clampPriority(unit.priority() + value);
            ctx.units()
                    .update(
                            ctx.namespace(),
                            unit,
                            unit.toBuilder().priority(priority).build());
            changed++;
        }
        return count("prioritized", changed);
    }

    static JsonNode deleteWorkUnits(CommandContext ctx) {
        WorkSpecRecord spec = Lookups.spec(ctx, ctx.command().requiredString("work_spec_name"));
        UnitQuery query = UnitQuery.parse(ctx.command().get("query"));
        int deleted = 0;
        for (WorkUnitRecord unit : ctx.select(query, spec.name())) {
            if (unit.family() != null) {
                deleted += ctx.family().delete(UnitRef.of(unit)); // with its tree of children; counts them all
            } else {
                ctx.units().delete(ctx.namespace(), unit);
                deleted++;
            }
        }
        return count("deleted", deleted);
    }

    /** Drops the active attempt of the matching units so that they run again; history is kept. */
    static JsonNode resetWorkUnits(CommandContext ctx) {
        WorkSpecRecord spec = Lookups.spec(ctx, ctx.command().requiredString("work_spec_name"));
        UnitQuery query = UnitQuery.parse(ctx.command().get("query"));
        int reset = 0;
        for (WorkUnitRecord unit : ctx.select(query, spec.name())) {
            if (unit.family() != null) {
                ctx.family().reset(UnitRef.of(unit));
                reset++;
                continue;
            }
            WorkUnitRecord after = UnitTransitions.clearActiveAttempt(unit, ctx.now());
            if (!after.equals(unit)) {
                ctx.units().reset(ctx.namespace(), unit, after);
            }
            reset++;
        }
        return count("reset", reset);
    }

    /** Whether an add in this mode leaves {@code existing} (null: no such unit) as it is. */
    private static boolean keeps(IfExists mode, WorkUnitRecord existing) {
        return existing != null
                && (mode == IfExists.KEEP
                        || (mode == IfExists.KEEP_UNLESS_FINISHED && existing.status() != UnitStatus.FINISHED));
    }

    /** The names an {@code add_work_units} added, replaced and kept, in the command's order. */
    private static final class AddOutcomes {
        final ArrayNode added = Json.MAPPER.createArrayNode();
        final ArrayNode replaced = Json.MAPPER.createArrayNode();
        final ArrayNode kept = Json.MAPPER.createArrayNode();

        void putInto(ObjectNode result) {
            result.set("added", added);
            result.set("replaced", replaced);
            result.set("kept", kept);
        }
    }

    private static ObjectNode count(String field, int n) {
        ObjectNode result = Json.object();
        result.put(field, n);
        return result;
    }
}
