package io.coordinate.query;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.handlers.RetryingUnits;
import io.coordinate.engine.handlers.UnitQuery;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.engine.view.StateViews;
import io.coordinate.protocol.Json;
import io.javalin.http.Context;
import io.javalin.router.JavalinDefaultRouting;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code GET .../work-specs/{spec}/work-units?status=&name=&previous=&limit=}: units in name order, as
 * {@code {"work_units": [unit summary, ...], "next": "<name>" | null}}. {@code status} and {@code name} may
 * repeat or hold comma-separated values (a name with a comma is read with the single-unit route); besides the unit
 * statuses, {@code status=retrying} takes the units delayed by a retry or an expiry ({@link RetryingUnits});
 * {@code previous} starts strictly after a name; {@code limit} defaults to 100, at most 1000. {@code next} is
 * the last name of the page when more units match, else null: pass it as {@code previous} for the next page.
 *
 * <p>{@code GET .../work-units/{unit}}: the unit ({@link StateViews#unit}) with its links (parent, predecessor,
 * children by state and heirs, each list capped at {@link StateViews#MAX_LINKS_SHOWN} with its count); 404
 * {@code no_such_work_unit}.
 */
final class WorkUnitRoutes {

    /** The list's filter for the units delayed by a retry or an expiry, besides the unit statuses. */
    static final String RETRYING = "retrying";

    private WorkUnitRoutes() {}

    static void register(JavalinDefaultRouting routes, NamespaceRouter router) {
        routes.get("/api/namespaces/{ns}/work-specs/{spec}/work-units", router.handler(WorkUnitRoutes::list));
        routes.get("/api/namespaces/{ns}/work-specs/{spec}/work-units/{unit}", router.handler(WorkUnitRoutes::one));
    }

    private static JsonNode list(Context ctx, NamespaceRouter.LocalQuery query) {
        String spec = WorkSpecRoutes.requireSpec(query, ctx.pathParam("spec")).name();
        int limit = QueryParams.limit(ctx);
        List<String> names = QueryParams.list(ctx, "name");
        List<String> statusNames = QueryParams.list(ctx, "status");
        boolean retrying = statusNames != null && statusNames.contains(RETRYING);
        UnitQuery unitQuery = new UnitQuery(
                names == null ? null : new TreeSet<>(names),
                statuses(statusNames),
                QueryParams.previous(ctx),
                limit + 1); // one more than the page tells whether there is a next page
        String group = ctx.queryParam("group");
        List<WorkUnitRecord> units = retrying
                ? RetryingUnits.select(unitQuery, query.state(), query.ns(), spec, query.now())
                : unitQuery.run(query.state(), query.ns(), spec, query.now(), group);
        StateViews views = query.views();
        ObjectNode body = Json.object();
        ArrayNode page = body.putArray("work_units");
        units.stream().limit(limit).forEach(unit -> page.add(views.unitSummary(unit)));
        if (units.size() > limit) {
            body.put("next", units.get(limit - 1).name());
        } else {
            body.putNull("next");
        }
        return body;
    }

    /** The statuses of the filter, but {@code retrying}; null when it names none. */
    private static Set<UnitStatus> statuses(List<String> names) {
        if (names == null || names.stream().allMatch(RETRYING::equals)) {
            return null;
        }
        Set<UnitStatus> statuses = EnumSet.noneOf(UnitStatus.class);
        for (String name : names) {
            if (name.equals(RETRYING)) {
                continue;
            }
            UnitStatus status = UnitStatus.fromWireName(name);
            if (status == null) {
                throw QueryError.badRequest("bad_request", "unknown status \"" + name + "\"");
            }
            statuses.add(status);
        }
        return statuses;
    }

    private static JsonNode one(Context ctx, NamespaceRouter.LocalQuery query) {
        String spec = WorkSpecRoutes.requireSpec(query, ctx.pathParam("spec")).name();
        String name = ctx.pathParam("unit");
        WorkUnitRecord unit = query.state().units().get(query.ns(), spec, name);
        if (unit == null) {
            throw QueryError.notFound(
                    "no_such_work_unit",
                    "no work unit \"" + name + "\" in work spec \"" + spec + "\" of namespace \"" + query.ns() + "\"");
        }
        return query.views().unit(unit);
    }
}
