package io.coordinate.engine.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.engine.state.StateReader;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.engine.view.StateViews;
import io.coordinate.protocol.CommandRejection;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The query object of {@code prioritize/delete/reset_work_units} and of the units listing
 * (docs/reference.md#query-object): {@code names} exact, {@code statuses} a set (as of now), {@code previous_name}
 * strictly greater, {@code limit} the first N in name order. Names are looked up directly; otherwise the spec's units
 * are read in name order, page by page.
 */
public record UnitQuery(Set<String> names, Set<UnitStatus> statuses, String previousName, int limit) {

    private static final int PAGE = 512;
    /** The query object's keys, in the order of docs/reference.md#query-object. */
    static final List<String> KEYS = List.of("names", "statuses", "previous_name", "limit");

    public static final UnitQuery ALL = new UnitQuery(null, null, null, Integer.MAX_VALUE);

    public static UnitQuery parse(JsonNode query) {
        if (query == null || query.isNull()) {
            return ALL;
        }
        if (!query.isObject()) {
            throw CommandRejection.badCommand("\"query\" must be an object");
        }
        // A misspelt key would filter nothing and select every unit of the spec: refused, naming the key.
        JsonKeys.requireKnown(query, "query", KEYS);
        Set<String> names = null;
        if (query.hasNonNull("names")) {
            names = new TreeSet<>(UnitQuery::compareNames);
            for (JsonNode name : array(query, "names")) {
                names.add(text(name, "names"));
            }
        }
        Set<UnitStatus> statuses = null;
        if (query.hasNonNull("statuses")) {
            statuses = EnumSet.noneOf(UnitStatus.class);
            for (JsonNode status : array(query, "statuses")) {
                UnitStatus parsed = UnitStatus.fromWireName(text(status, "statuses"));
                if (parsed == null) {
                    throw CommandRejection.badCommand("unknown status \"" + status.asText() + "\"");
                }
                statuses.add(parsed);
            }
        }
        String previous = query.hasNonNull("previous_name") ? text(query.get("previous_name"), "previous_name") : null;
        int limit = Integer.MAX_VALUE;
        if (query.hasNonNull("limit")) {
            if (!query.get("limit").canConvertToInt() || query.get("limit").intValue() < 0) {
                throw CommandRejection.badCommand("\"limit\" must be a non-negative integer");
            }
            limit = query.get("limit").intValue();
        }
        return new UnitQuery(names, statuses, previous, limit);
    }

    /** The matching units, in name order. */
    public List<WorkUnitRecord> run(StateReader state, String ns, String spec, long now) {
        return run(state, ns, spec, now, null);
    }

    /** The matching units of concurrency group {@code group} (null: of any group or none), in name order. */
    public List<WorkUnitRecord> run(StateReader state, String ns, String spec, long now, String group) {
        StateViews views = new StateViews(state, ns, now);
        return select(
                state, ns, spec, unit -> (group == null || group.equals(unit.group())) && matchesStatus(views, unit));
    }

    /**
     * The units of {@code names} (all the spec's when null) after {@code previousName} that {@code matches} takes, in
     * name order, at most {@code limit}; {@code statuses} is left to {@code matches}.
     */
    public List<WorkUnitRecord> select(StateReader state, String ns, String spec, Predicate<WorkUnitRecord> matches) {
        List<WorkUnitRecord> out = new ArrayList<>();
        if (names != null) {
            for (String name : names) {
                if (out.size() >= limit) {
                    break;
                }
                if (previousName != null && compareNames(name, previousName) <= 0) {
                    continue;
                }
                WorkUnitRecord unit = state.units().get(ns, spec, name);
                if (unit != null && matches.test(unit)) {
                    out.add(unit);
                }
            }
            return out;
        }
        String after = previousName;
        while (out.size() < limit) {
            List<WorkUnitRecord> page = state.units().list(ns, spec, after, PAGE);
            for (WorkUnitRecord unit : page) {
                if (out.size() < limit && matches.test(unit)) {
                    out.add(unit);
                }
            }
            if (page.size() < PAGE) {
                break;
            }
            after = page.get(page.size() - 1).name();
        }
        return out;
    }

    /**
     * Name order: the order of the names' UTF-8 bytes, as the store orders units (not {@link String#compareTo},
     * which orders UTF-16 units and puts U+10000 and above before U+E000..U+FFFF).
     */
    static int compareNames(String a, String b) {
        return Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }

    private boolean matchesStatus(StateViews views, WorkUnitRecord unit) {
        return statuses == null || statuses.contains(views.unitNow(unit).status());
    }

    private static Iterable<JsonNode> array(JsonNode query, String field) {
        JsonNode value = query.get(field);
        if (!value.isArray()) {
            throw CommandRejection.badCommand("\"" + field + "\" must be a list");
        }
        return value;
    }

    private static String text(JsonNode node, String field) {
        if (!node.isTextual()) {
            throw CommandRejection.badCommand("\"" + field + "\" must hold strings");
        }
        return node.textValue();
    }
}
