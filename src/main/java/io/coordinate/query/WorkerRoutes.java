package io.coordinate.query;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.engine.state.model.WorkerRecord;
import io.coordinate.engine.view.StateViews;
import io.coordinate.protocol.Json;
import io.javalin.http.Context;
import io.javalin.router.JavalinDefaultRouting;
import java.util.List;

/**
 * {@code GET .../workers?previous=&limit=}: {@code {"workers": [worker, ...], "next": "<name>" | null}}, in
 * name order and paged like the units listing (workers come and go, so a namespace may hold many);
 * {@code GET .../workers/{worker}}: one worker ({@link StateViews#worker}), 404 {@code no_such_worker};
 * {@code GET .../attempts/{attempt_id}}: one attempt ({@link StateViews#attempt}), 404 {@code no_such_attempt}.
 */
final class WorkerRoutes {

    private WorkerRoutes() {}

    static void register(JavalinDefaultRouting routes, NamespaceRouter router) {
        routes.get("/api/namespaces/{ns}/workers", router.handler(WorkerRoutes::list));
        routes.get("/api/namespaces/{ns}/workers/{worker}", router.handler(WorkerRoutes::one));
        routes.get("/api/namespaces/{ns}/attempts/{attempt_id}", router.handler(WorkerRoutes::attempt));
    }

    private static JsonNode list(Context ctx, NamespaceRouter.LocalQuery query) {
        int limit = QueryParams.limit(ctx);
        List<WorkerRecord> workers = query.state().workers().list(query.ns(), QueryParams.previous(ctx), limit + 1);
        StateViews views = query.views();
        ObjectNode body = Json.object();
        ArrayNode page = body.putArray("workers");
        workers.stream().limit(limit).forEach(worker -> page.add(views.worker(worker)));
        if (workers.size() > limit) {
            body.put("next", workers.get(limit - 1).name());
        } else {
            body.putNull("next");
        }
        return body;
    }

    private static JsonNode one(Context ctx, NamespaceRouter.LocalQuery query) {
        String name = ctx.pathParam("worker");
        WorkerRecord worker = query.state().workers().get(query.ns(), name);
        if (worker == null) {
            throw QueryError.notFound(
                    "no_such_worker", "no worker \"" + name + "\" in namespace \"" + query.ns() + "\"");
        }
        return query.views().worker(worker);
    }

    private static JsonNode attempt(Context ctx, NamespaceRouter.LocalQuery query) {
        String id = ctx.pathParam("attempt_id");
        AttemptRecord attempt = null;
        try {
            attempt = query.state().attempts().get(query.ns(), Long.parseLong(id));
        } catch (NumberFormatException e) {
            // not an id this app issued: same answer as an unknown one
        }
        if (attempt == null) {
            throw QueryError.notFound(
                    "no_such_attempt", "no attempt \"" + id + "\" in namespace \"" + query.ns() + "\"");
        }
        return query.views().attempt(attempt);
    }
}
