package io.coordinate.query;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.state.model.WorkSpecRecord;
import io.coordinate.engine.view.StateViews;
import io.coordinate.protocol.Json;
import io.javalin.http.Context;
import io.javalin.router.JavalinDefaultRouting;

/**
 * {@code GET .../work-specs}: {@code {"work_specs": [spec, ...]}} in name order (a namespace has few specs, so
 * no paging); {@code GET .../work-specs/{spec}}: {@code {"name", "data", "meta", "counts"}}, exact as of now
 * ({@link StateViews#spec}); 404 {@code no_such_work_spec} when missing.
 */
final class WorkSpecRoutes {

    private WorkSpecRoutes() {}

    static void register(JavalinDefaultRouting routes, NamespaceRouter router) {
        routes.get("/api/namespaces/{ns}/work-specs", router.handler(WorkSpecRoutes::list));
        routes.get("/api/namespaces/{ns}/work-specs/{spec}", router.handler(WorkSpecRoutes::one));
    }

    private static JsonNode list(Context ctx, NamespaceRouter.LocalQuery query) {
        StateViews views = query.views();
        ObjectNode body = Json.object();
        ArrayNode specs = body.putArray("work_specs");
        query.state().specs().list(query.ns()).forEach(spec -> specs.add(views.spec(spec)));
        return body;
    }

    private static JsonNode one(Context ctx, NamespaceRouter.LocalQuery query) {
        return query.views().spec(requireSpec(query, ctx.pathParam("spec")));
    }

    static WorkSpecRecord requireSpec(NamespaceRouter.LocalQuery query, String name) {
        WorkSpecRecord spec = query.state().specs().get(query.ns(), name);
        if (spec == null) {
            throw QueryError.notFound(
                    "no_such_work_spec", "no work spec \"" + name + "\" in namespace \"" + query.ns() + "\"");
        }
        return spec;
    }
}
