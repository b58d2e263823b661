package io.coordinate.query;

import io.coordinate.config.HttpSettings;
import io.coordinate.metrics.QueueGauges;
import io.coordinate.metrics.QueueMetrics;
import io.coordinate.protocol.TopicNames;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import io.javalin.router.JavalinDefaultRouting;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.function.LongSupplier;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The interactive-query HTTP server (docs/reference.md#http): a thin read-only layer over the
 * state stores. Per-namespace reads go where the namespace is ({@link NamespaceRouter}); routes are split by
 * resource ({@link NamespaceRoutes}, {@link WorkSpecRoutes}, {@link WorkUnitRoutes}, {@link WorkerRoutes},
 * {@link CommandRoutes}); each class documents its answer shapes.
 *
 * <p>Errors are always {@code {"error": {"code", "message"}}}: 400 {@code bad_request} / {@code
 * malformed_json} / {@code bad_command} / {@code namespace_mismatch}; 403 {@code forbidden_host} / {@code
 * forbidden_origin} and 415 {@code unsupported_media_type} ({@link RequestGuard}); 404 {@code no_such_namespace} /
 * {@code no_such_work_spec} / {@code no_such_work_unit} / {@code no_such_worker} / {@code no_such_attempt} /
 * {@code not_found} (no such route); 413 {@code body_too_large}; 503 {@code unavailable} with {@code Retry-After: 1}
 * while a store is not readable (rebalance), an owner does not answer, or a forwarded request would be forwarded
 * again. Jetty answers a request it cannot parse the same way ({@link JsonErrorHandler}).
 *
 * <p>Connections are bounded ({@link HttpSettings}): at most so many open ({@link ConnectionCap}), closed when idle
 * between requests.
 *
 * <p>{@code GET /health/live}, {@code /health/ready} and {@code /health}: the probes ({@link HealthRoutes}).
 * {@code GET /metrics}: Prometheus text of the registry, which this server adds JVM metrics and a request timer
 * to. The gateway and the registry belong to the caller: {@link #close()} closes neither.
 *
 * <p>Names in paths are percent-encoded UTF-8 and decoded before use; an encoded {@code /} ({@code %2F}) and
 * the segments {@code .} and {@code ..} are allowed (Jetty refuses them by default), so any name works. A bare
 * {@code +} in a path is a plus sign, not a space.
 */
public final class QueryServer implements AutoCloseable {

    public static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofSeconds(30);
    static final Duration FORWARD_TIMEOUT = Duration.ofSeconds(10);
    /**
     * How long a request in progress may wait on a read of its body or a write of its answer (Jetty's default). A
     * request that waits on nothing (a command awaiting its reply, an event stream between two messages) is not cut.
     */
    static final Duration REQUEST_IDLE_TIMEOUT = Duration.ofSeconds(30);

    private static final Logger LOG = LoggerFactory.getLogger(QueryServer.class);
    static final String LOOPBACK = "127.0.0.1";
    private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

    private final NamespaceLocator locator;
    private final CommandGateway gateway;
    private final PrometheusMeterRegistry registry;
    private final LongSupplier clock;
    private final Duration commandTimeout;
    private final BearerToken token;
    private HttpMetrics metrics;
    private FeedRoutes feeds;
    private QueueMetrics queueMetrics;
    private QueueGauges queueGauges;
    private HttpSettings settings = HttpSettings.DEFAULTS;
    private Javalin app;

    public QueryServer(NamespaceLocator locator, CommandGateway gateway, PrometheusMeterRegistry registry) {
        this(locator, gateway, registry, System::currentTimeMillis, DEFAULT_COMMAND_TIMEOUT);
    }

    /** @param clock epoch millis: the "now" at which statuses and expiries are shown */
    public QueryServer(
            NamespaceLocator locator,
            CommandGateway gateway,
            PrometheusMeterRegistry registry,
            LongSupplier clock,
            Duration commandTimeout) {
        this(locator, gateway, registry, clock, commandTimeout, null);
    }

    /** @param token when not null, every mutation needs {@code Authorization: Bearer <token>} */
    public QueryServer(
            NamespaceLocator locator,
            CommandGateway gateway,
            PrometheusMeterRegistry registry,
            LongSupplier clock,
            Duration commandTimeout,
            String token) {
        this.token = token == null ? null : new BearerToken(token);
        this.locator = locator;
        this.gateway = gateway;
        this.registry = registry;
        this.clock = clock;
        this.commandTimeout = commandTimeout;
    }

    /**
     * Also serves the event feed and the dead letters ({@link EventRoutes}, {@link DeadLetterRoutes}), read from
     * Kafka with these client settings (bootstrap servers, TLS, SASL) and topic names; call before {@link #start}.
     */
    public QueryServer withFeeds(Map<String, Object> clientProperties, TopicNames topics) {
        return withFeeds(clientProperties, topics, false);
    }

    /** The same; with {@code needToken}, reading them needs the token too (this server must have one). */
    public QueryServer withFeeds(Map<String, Object> clientProperties, TopicNames topics, boolean needToken) {
        if (needToken && token == null) {
            throw new IllegalArgumentException("the feeds cannot need the token: this server has none");
        }
        return withFeeds(
                new FeedRoutes(clientProperties, topics, EventRoutes.Limits.DEFAULT, needToken ? token : null));
    }

    synchronized QueryServer withFeeds(FeedRoutes routes) {
        this.feeds = routes;
        return this;
    }

    /**
     * Serves the queue's metrics: the gauges are read at each scrape of {@code /metrics}, the throughput at {@code GET
     * /api/namespaces/{ns}/throughput}. Call before {@link #start}.
     */
    public QueryServer withQueueMetrics(QueueMetrics queueMetrics, QueueGauges queueGauges) {
        this.queueMetrics = queueMetrics;
        this.queueGauges = queueGauges;
        return this;
    }

    /**
     * The connection bounds and the hosts and origins answered ({@link RequestGuard}); call before {@link #start}.
     * Without it, {@link HttpSettings#DEFAULTS}.
     */
    public synchronized QueryServer withHttpSettings(HttpSettings settings) {
        this.settings = settings;
        return this;
    }

    /** Starts serving on {@code port} of the loopback address (0 = any free port; see {@link #port()}). */
    public QueryServer start(int port) {
        return start(LOOPBACK, port);
    }

    /** Starts serving on {@code port} of {@code host} (an address of this machine, or 0.0.0.0 / :: for all). */
    public synchronized QueryServer start(String host, int port) {
        if (app != null) {
            throw new IllegalStateException("already started");
        }
        metrics = new HttpMetrics(registry);
        Forwarder forwarder = new Forwarder(FORWARD_TIMEOUT, token);
        NamespaceRouter router = new NamespaceRouter(locator, forwarder, clock);
        RequestGuard guard = new RequestGuard(settings, host);
        app = Javalin.create(config -> {
            config.showJavalinBanner = false;
            config.startupWatcherEnabled = false;
            config.http.maxRequestSize = CommandRoutes.MAX_BODY_BYTES;
            config.jetty.modifyHttpConfiguration(http -> {
                // %2F inside a name must reach the route as part of the name, not be refused as ambiguous.
                http.setUriCompliance(UriCompliance.DEFAULT.with(
                        "coordinate-names",
                        UriCompliance.Violation.AMBIGUOUS_PATH_SEPARATOR,
                        UriCompliance.Violation.AMBIGUOUS_PATH_SEGMENT,
                        UriCompliance.Violation.AMBIGUOUS_PATH_ENCODING));
                http.setIdleTimeout(REQUEST_IDLE_TIMEOUT.toMillis());
            });
            config.jetty.modifyServer(server -> server.setErrorHandler(new JsonErrorHandler()));
            config.jetty.modifyServletContextHandler(context -> context.setErrorHandler(new JsonErrorHandler()));
            config.jetty.addConnector((server, http) -> connector(server, http, host, port));
            config.requestLogger.http(metrics::record);
            Dashboard.serve(config);
            config.router.mount(routes -> {
                routes.before(guard::checkSite);
                if (token != null) {
                    routes.before(token::authorize);
                }
                routes.before(guard::checkMediaType);
                new NamespaceRoutes(locator, forwarder).register(routes, router);
                WorkSpecRoutes.register(routes, router);
                WorkUnitRoutes.register(routes, router);
                WorkerRoutes.register(routes, router);
                if (queueMetrics != null) {
                    ThroughputRoutes.register(routes, router, queueMetrics);
                    SpecCounterRoutes.register(routes, router, registry);
                }
                new CommandRoutes(gateway, commandTimeout).register(routes);
                if (feeds != null) {
                    feeds.register(routes);
                }
                HealthRoutes.register(routes, locator);
                routes.get("/metrics", this::metrics);
                errors(routes);
            });
        });
        app.start();
        return this;
    }

    /**
     * Javalin's connector, bounded: at most {@link HttpSettings#maxConnections()} open, and closed when idle between
     * requests for {@link HttpSettings#idleTimeout()}. During a request {@link #REQUEST_IDLE_TIMEOUT} applies instead.
     */
    private ServerConnector connector(Server server, HttpConfiguration http, String host, int port) {
        ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
        connector.setHost(host);
        connector.setPort(port);
        connector.setIdleTimeout(settings.idleTimeout().toMillis());
        server.addBean(new ConnectionCap(settings.maxConnections(), settings.idleTimeout(), connector));
        return connector;
    }

    private void metrics(Context ctx) {
        if (queueGauges != null) {
            queueGauges.refreshIfDue();
        }
        ctx.contentType(PROMETHEUS_TEXT).result(registry.scrape());
    }

    private static void errors(JavalinDefaultRouting routes) {
        routes.exception(QueryError.class, (e, ctx) -> Responses.error(ctx, e));
        // A store read that meets a rebalance: the same answer as a namespace that is not readable.
        routes.exception(
                InvalidStateStoreException.class,
                (e, ctx) -> Responses.error(
                        ctx, QueryError.unavailable("state store not readable now: " + e.getMessage())));
        routes.exception(
                HttpResponseException.class,
                (e, ctx) -> Responses.json(
                        ctx, e.getStatus(), Responses.error(Responses.codeFor(e.getStatus()), e.getMessage())));
        routes.exception(Exception.class, (e, ctx) -> {
            LOG.warn("query {} {} failed", ctx.method(), ctx.path(), e);
            Responses.json(ctx, 500, Responses.error("internal_error", String.valueOf(e)));
        });
    }

    /** The port served on (the actual one when started with 0). */
    public synchronized int port() {
        if (app == null) {
            throw new IllegalStateException("not started");
        }
        return app.port();
    }

    @Override
    public synchronized void close() {
        if (feeds != null) {
            feeds.close(); // first: open event streams would hold the server's stop
        }
        if (app != null) {
            app.stop();
            app = null;
        }
        if (metrics != null) {
            metrics.close();
            metrics = null;
        }
    }
}
