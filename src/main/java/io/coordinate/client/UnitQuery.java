package io.coordinate.client;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.protocol.Json;
import java.util.Collection;

/**
 * Which units of a spec a reset, delete, prioritize or cancel applies to (docs/reference.md "Query object"). Every
 * filter is optional; {@link #all()} selects every unit, and says so where it is written.
 */
public final class UnitQuery {

    private final ObjectNode json;

    private UnitQuery(ObjectNode json) {
        this.json = json;
    }

    /** Every unit of the spec. */
    public static UnitQuery all() {
        return new UnitQuery(Json.object());
    }

    public static UnitQuery names(Collection<String> names) {
        return all().andNames(names);
    }

    public static UnitQuery statuses(Collection<String> statuses) {
        return all().andStatuses(statuses);
    }

    public UnitQuery andNames(Collection<String> names) {
        ObjectNode copy = json.deepCopy();
        names.forEach(copy.putArray("names")::add);
        return new UnitQuery(copy);
    }

    /** Units whose status now is one of these ({@code available}, {@code failed}, ...). */
    public UnitQuery andStatuses(Collection<String> statuses) {
        ObjectNode copy = json.deepCopy();
        statuses.forEach(copy.putArray("statuses")::add);
        return new UnitQuery(copy);
    }

    /** Only names strictly after this one. */
    public UnitQuery after(String previousName) {
        ObjectNode copy = json.deepCopy();
        copy.put("previous_name", previousName);
        return new UnitQuery(copy);
    }

    /** The first {@code limit} matches in name order. */
    public UnitQuery limit(long limit) {
        ObjectNode copy = json.deepCopy();
        copy.put("limit", limit);
        return new UnitQuery(copy);
    }

    /** Whether this query filters nothing. */
    public boolean selectsAll() {
        return json.isEmpty();
    }

    ObjectNode json() {
        return json.deepCopy();
    }
}
