package io.coordinate.query;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.engine.state.StateReader;
import io.coordinate.engine.state.db.DbState;
import io.coordinate.engine.view.StateViews;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import java.util.function.LongSupplier;

/**
 * Sends a per-namespace GET where the namespace's state is: answers it from this instance's store, forwards
 * it to the owning instance, or answers 503 with {@code Retry-After} while nobody can read it (a rebalance).
 * A namespace that does not exist (never written, or destroyed) is 404 {@code no_such_namespace} on every
 * per-namespace route, lists included: an empty list would hide a mistyped name.
 */
final class NamespaceRouter {

    private final NamespaceLocator locator;
    private final Forwarder forwarder;
    private final LongSupplier clock;

    NamespaceRouter(NamespaceLocator locator, Forwarder forwarder, LongSupplier clock) {
        this.locator = locator;
        this.forwarder = forwarder;
        this.clock = clock;
    }

    /** A route's local part: reads the namespace's state and returns the 200 body (or throws a {@link QueryError}). */
    @FunctionalInterface
    interface LocalRoute {
        JsonNode answer(Context ctx, LocalQuery query);
    }

    /** The state of one existing namespace, read at {@code now}. */
    record LocalQuery(StateReader state, String ns, long now) {
        StateViews views() {
            return new StateViews(state, ns, now);
        }
    }

    Handler handler(LocalRoute route) {
        return ctx -> serve(ctx, route);
    }

    private void serve(Context ctx, LocalRoute route) {
        String ns = ctx.pathParam("ns");
        NamespaceLocator.Location location = locator.locate(ns);
        if (location instanceof NamespaceLocator.Local local) {
            StateReader state = DbState.reader(local.store());
            if (state.namespaces().get(ns) == null) {
                throw QueryError.notFound("no_such_namespace", "no namespace \"" + ns + "\"");
            }
            Responses.json(ctx, 200, route.answer(ctx, new LocalQuery(state, ns, clock.getAsLong())));
        } else if (location instanceof NamespaceLocator.Remote remote) {
            forwarder.forward(ctx, remote.hostAndPort());
        } else if (location instanceof NamespaceLocator.Unavailable unavailable) {
            throw QueryError.unavailable("namespace \"" + ns + "\" is not readable now: " + unavailable.reason());
        } else {
            throw new IllegalStateException("unknown location " + location);
        }
    }
}
