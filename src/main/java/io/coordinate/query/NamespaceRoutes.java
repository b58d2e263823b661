package io.coordinate.query;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.state.db.DbState;
import io.coordinate.engine.state.model.UnitStatus;
import io.coordinate.engine.state.model.WorkSpecRecord;
import io.coordinate.engine.view.StateViews;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.Times;
import io.coordinate.storage.ReadableKeyValueStore;
import io.javalin.http.Context;
import io.javalin.router.JavalinDefaultRouting;
import java.util.EnumMap;
import java.util.Map;
import java.util.TreeSet;

/**
 * {@code GET /api/namespaces}: {@code {"namespaces": ["a", "b"]}}, sorted and deduplicated over this
 * instance's stores and every other instance's ({@code ?local=true} asks for this instance's only; that is
 * how instances ask each other, so a listing fans out one level and no further).
 *
 * <p>{@code GET /api/namespaces/{ns}/summary}: every work spec with its unit counts by status as of now, zero
 * counts omitted, and when its oldest available unit became available and how long ago (null when none is), plus
 * the namespace's totals: {@code {"namespace": "n", "counts": {"available": 3}, "work_specs": [{"name": "s",
 * "counts": {"available": 3}, "oldest_available_since": "2026-...Z", "oldest_available_age_seconds": 12.5}]}}.
 */
final class NamespaceRoutes {

    private final NamespaceLocator locator;
    private final Forwarder forwarder;

    NamespaceRoutes(NamespaceLocator locator, Forwarder forwarder) {
        this.locator = locator;
        this.forwarder = forwarder;
    }

    void register(JavalinDefaultRouting routes, NamespaceRouter router) {
        routes.get("/api/namespaces", this::list);
        routes.get("/api/namespaces/{ns}/summary", router.handler(NamespaceRoutes::summary));
    }

    private void list(Context ctx) {
        TreeSet<String> names = new TreeSet<>();
        for (ReadableKeyValueStore store : locator.localStores()) {
            names.addAll(DbState.reader(store).namespaces().list());
        }
        if (!"true".equals(ctx.queryParam("local"))) {
            names.addAll(forwarder.remoteNamespaces(locator.otherInstances()));
        }
        ObjectNode body = Json.object();
        ArrayNode list = body.putArray("namespaces");
        names.forEach(list::add);
        Responses.json(ctx, 200, body);
    }

    private static JsonNode summary(Context ctx, NamespaceRouter.LocalQuery query) {
        StateViews views = query.views();
        ObjectNode body = Json.object();
        body.put("namespace", query.ns());
        Map<UnitStatus, Long> totals = new EnumMap<>(UnitStatus.class);
        ObjectNode totalsNode = body.putObject("counts");
        ArrayNode specs = body.putArray("work_specs");
        for (WorkSpecRecord spec : query.state().specs().list(query.ns())) {
            Map<UnitStatus, Long> counts = views.counts(spec.name());
            counts.forEach((status, n) -> totals.merge(status, n, Long::sum));
            ObjectNode entry = specs.addObject();
            entry.put("name", spec.name());
            entry.set("counts", StateViews.counts(counts));
            Long since = query.state().units().oldestAvailableSince(query.ns(), spec.name(), query.now());
            if (since == null) {
                entry.putNull("oldest_available_since");
                entry.putNull("oldest_available_age_seconds");
            } else {
                entry.put("oldest_available_since", Times.format(since));
                entry.put("oldest_available_age_seconds", (query.now() - since) / 1000.0);
            }
        }
        totalsNode.setAll(StateViews.counts(totals));
        return body;
    }
}
