package io.coordinate.query;

import io.javalin.http.Context;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import java.util.concurrent.TimeUnit;

/**
 * JVM metrics and one request timer ({@code http_server_requests_seconds}) tagged by method, route pattern
 * and status. The route is the pattern ({@code /api/namespaces/{ns}/summary}), never the path, so the number
 * of series does not grow with the number of namespaces, specs or units.
 */
final class HttpMetrics implements AutoCloseable {

    static final String REQUEST_TIMER = "http.server.requests";

    private final MeterRegistry registry;
    private final JvmGcMetrics gc = new JvmGcMetrics();

    HttpMetrics(MeterRegistry registry) {
        this.registry = registry;
        new ClassLoaderMetrics().bindTo(registry);
        new JvmMemoryMetrics().bindTo(registry);
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
    }

    /** Javalin's request logger: called once per request with its duration in milliseconds. */
    void record(Context ctx, Float millis) {
        Timer.builder(REQUEST_TIMER)
                .description("HTTP requests of the query server")
                .tag("method", ctx.method().name())
                .tag("route", route(ctx))
                .tag("status", Integer.toString(ctx.statusCode()))
                .register(registry)
                .record((long) (millis * 1_000_000.0), TimeUnit.NANOSECONDS);
    }

    private static String route(Context ctx) {
        try {
            String route = ctx.endpointHandlerPath();
            return route == null || route.isEmpty() || route.equals("*") ? "unmatched" : route;
        } catch (RuntimeException e) {
            return "unmatched"; // no route matched (404): one series for all of them
        }
    }

    @Override
    public void close() {
        gc.close();
    }
}
