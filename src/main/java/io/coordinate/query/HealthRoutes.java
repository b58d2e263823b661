package io.coordinate.query;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.protocol.Json;
import io.javalin.http.Context;
import io.javalin.router.JavalinDefaultRouting;
import java.util.Set;

/**
 * The probes. {@code GET /health/live}: 200 {@code {"status": "UP", "streams": state}} while the process serves HTTP
 * and Kafka Streams is not in a terminal state; 503 {@code {"status": "DOWN", "streams": state}} once it is (ERROR,
 * PENDING_ERROR, NOT_RUNNING), or with an {@code "error"} while no stream thread runs although it says RUNNING or
 * REBALANCING (the failed one could not be replaced): only a restart helps then. A rebalance or a restore never
 * fails it, since a restart would begin them again. {@code GET /health/ready} (and {@code GET /health}, its older
 * name): 200 {@code {"status": "RUNNING"}} when this instance answers queries; else 503 {@code {"status": state}}
 * with a {@code "reason"} while stores are restored, or {@code {"status": "FAILING", "error": ...}} while no stream
 * thread runs or the stream thread is in a failure loop.
 */
final class HealthRoutes {

    /** The Kafka Streams states no rebalance leads out of. */
    static final Set<String> TERMINAL = Set.of("ERROR", "PENDING_ERROR", "NOT_RUNNING");

    private HealthRoutes() {}

    static void register(JavalinDefaultRouting routes, NamespaceLocator locator) {
        routes.get("/health/live", ctx -> live(locator).send(ctx));
        routes.get("/health/ready", ctx -> ready(locator).send(ctx));
        routes.get("/health", ctx -> ready(locator).send(ctx));
    }

    /** An answer: its HTTP status and body. */
    record Answer(int status, ObjectNode body) {
        void send(Context ctx) {
            Responses.json(ctx, status, body);
        }
    }

    static Answer live(NamespaceLocator locator) {
        String state = locator.state();
        if (TERMINAL.contains(state)) {
            return new Answer(503, Json.object().put("status", "DOWN").put("streams", state));
        }
        String stopped = locator.stopped();
        if (stopped != null) {
            return new Answer(
                    503,
                    Json.object().put("status", "DOWN").put("streams", state).put("error", stopped));
        }
        return new Answer(200, Json.object().put("status", "UP").put("streams", state));
    }

    static Answer ready(NamespaceLocator locator) {
        String state = locator.state();
        if (!"RUNNING".equals(state)) {
            ObjectNode body = Json.object().put("status", state);
            String restoring = locator.restoring();
            if (restoring != null) {
                body.put("reason", restoring);
            }
            return new Answer(503, body);
        }
        String stopped = locator.stopped();
        String failure = stopped != null ? stopped : locator.failure();
        if (failure != null) {
            return new Answer(503, Json.object().put("status", "FAILING").put("error", failure));
        }
        return new Answer(200, Json.object().put("status", "RUNNING"));
    }
}
