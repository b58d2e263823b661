package io.coordinate.query;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.engine.state.model.WorkSpecRecord;
import io.coordinate.metrics.QueueMetrics;
import io.javalin.http.Context;
import io.javalin.router.JavalinDefaultRouting;
import java.util.List;

/**
 * {@code GET /api/namespaces/{ns}/throughput}: units added, finished and failed per spec in each of the last 15
 * minutes, as this instance applied them since it took the namespace over ({@link QueueMetrics#throughput}); asked
 * of another instance, it forwards to the owner like every per-namespace route.
 */
final class ThroughputRoutes {

    private ThroughputRoutes() {}

    static void register(JavalinDefaultRouting routes, NamespaceRouter router, QueueMetrics metrics) {
        routes.get("/api/namespaces/{ns}/throughput", router.handler((ctx, query) -> answer(ctx, query, metrics)));
    }

    private static JsonNode answer(Context ctx, NamespaceRouter.LocalQuery query, QueueMetrics metrics) {
        List<String> specs = query.state().specs().list(query.ns()).stream()
                .map(WorkSpecRecord::name)
                .toList();
        return metrics.throughput(query.ns(), specs, query.now());
    }
}
