package io.coordinate.client;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a {@link Handler} for the units of some work specs, {@code concurrency} at a time.
 *
 * <ul>
 *   <li>It asks for as many units as it has free slots (handlers, plus a queue for the next free handler), once half
 *       of them are free or a free handler has waited 20 ms; a request reserves its slots until its answer comes, so
 *       several may be in flight. The queue is {@code prefetch} if set, else sized from the handlers' run time and the
 *       requests' round trip ({@link AttemptHolding}), at most {@code maxHeld}. It reads its assignments from the
 *       partition of its own key of {@code coordinate.assignments}. A request not answered within the client's
 *       timeout (lost, or sent while the app was away) is sent again with the same {@code request_id}, so that the
 *       app answers it with the attempts it handed out the first time, if any, rather than new ones. When no work
 *       comes it waits before asking again, longer each time (from {@code minBackoff} doubling up to
 *       {@code maxBackoff}), and asks at once again after work came.
 *   <li>Each attempt's lease ({@code lease}, 30 s by default) is renewed at half its lifetime while the handler runs,
 *       so the units of a worker that died come back within one lease. {@link Attempt#progress} goes out with a
 *       renewal, at most one per second per attempt.
 *   <li>What the handler returns finishes the attempt, batched into {@code finish_attempts}; an exception fails it as
 *       retryable with the stack trace as {@code traceback} (a {@link FailAttemptException}: permanent, with its own
 *       data); a {@link RetryLaterException} gives the unit back for later.
 *   <li>A cancelled unit (a renewal or report answered {@code cancelled}, or a notice on its assignments) marks its
 *       attempt cancelled, runs its {@link Attempt#onCancel} callbacks and interrupts its handler; nothing more is
 *       reported for it.
 *   <li>{@link #close()} stops asking, lets running handlers end within {@code closeTimeout}, interrupts those that
 *       did not and releases their attempts ({@code retry_attempt} with {@code release}: not counted), as it
 *       releases those of handlers that throw once the stop began; then it deactivates the worker.
 * </ul>
 */
public final class Worker implements AutoCloseable {

    /** Works one attempt. Returns the data to finish it with (may be null). */
    @FunctionalInterface
    public interface Handler {
        Map<String, ?> handle(Attempt attempt) throws Exception;
    }

    private static final Logger LOG = LoggerFactory.getLogger(Worker.class);

    private final CoordinateClient client;
    private final boolean ownsClient;
    private final String name;
    private final Duration closeTimeout;
    private final WorkRequests requests;
    private final AttemptReports reports;
    private final WorkerLoop loop;
    private volatile boolean started;

    private Worker(Builder builder) {
        this.client = builder.client;
        this.ownsClient = builder.ownsClient;
        this.name = builder.name != null ? builder.name : defaultName();
        List<String> workSpecs = List.copyOf(builder.workSpecs);
        AttemptHolding holding =
                new AttemptHolding(builder.concurrency, builder.lease, builder.prefetch, builder.maxHeld);
        RequestPacer pacer = new RequestPacer(
                holding,
                new Backoff(builder.minBackoff, builder.maxBackoff),
                client.timeout().toNanos(),
                System.nanoTime());
        this.requests = new WorkRequests(client, name, workSpecs, builder.lease, pacer);
        this.reports = new AttemptReports(client, name, builder.finishBatch, builder.finishLinger.toNanos());
        this.closeTimeout = builder.closeTimeout;
        Handler handler = Objects.requireNonNull(builder.handler, "handler");
        Map<String, Object> env = new LinkedHashMap<>();
        env.put("host", hostName());
        env.put("pid", ProcessHandle.current().pid());
        env.put("concurrency", builder.concurrency);
        env.put("work_specs", workSpecs);
        env.put("language", "java");
        env.putAll(builder.environment);
        this.loop = new WorkerLoop(
                client,
                name,
                handler,
                builder.concurrency,
                builder.lease,
                builder.heartbeatInterval,
                env,
                requests,
                holding,
                reports);
    }

    public static Builder builder(CoordinateClient client) {
        return new Builder(client, false);
    }

    /** The worker's name: its key on {@code coordinate.assignments}, and its worker record in the app. */
    public String name() {
        return name;
    }

    /**
     * Starts working: fixes the read position of its assignments, checks in with a heartbeat, and asks for work.
     * Returns once it has started (the heartbeat's reply is not awaited).
     */
    public Worker start() {
        if (started) {
            throw new IllegalStateException("worker " + name + " already started");
        }
        started = true;
        try {
            client.connection()
                    .watchAssignments(name, loop::assigned)
                    .get(client.timeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            throw new CoordinateException("worker " + name + " could not read its assignments: " + e.getMessage(), e);
        }
        loop.start();
        return this;
    }

    /** Units finished (by the app's count: items of {@code finish_attempts} that it applied). */
    public long finished() {
        return reports.finished();
    }

    /** Attempts failed because the handler threw (retryable or not). */
    public long failed() {
        return reports.failed();
    }

    /** Attempts given back: the handler asked to retry later, or the worker released it at {@link #close()}. */
    public long retried() {
        return reports.retried();
    }

    /** {@code request_attempts} commands sent so far. */
    public int requests() {
        return requests.sent();
    }

    /** Completes once the worker has stopped after {@link #close()}. */
    public CompletableFuture<Void> stopped() {
        return loop.stopped();
    }

    /**
     * Stops gracefully (see the class comment), waiting up to the close timeout for running handlers, and up to as
     * long again for the handlers it interrupts to end.
     */
    @Override
    public void close() {
        if (!started) {
            return;
        }
        loop.stop(closeTimeout);
        try {
            loop.stopped().get(closeTimeout.toMillis() + client.timeout().toMillis() + 5_000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.warn("worker {} did not stop cleanly: {}", name, e.toString());
        } finally {
            client.connection().stopWatching(name);
            // A second more than the handlers' own grace, so that what they do at its end (a SIGKILL) is done.
            loop.shutDownHandlers(closeTimeout.plusSeconds(1));
            if (ownsClient) {
                client.close();
            }
        }
    }

    private static String defaultName() {
        return hostName() + "-" + ProcessHandle.current().pid() + "-"
                + UUID.randomUUID().toString().substring(0, 8);
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return ManagementFactory.getRuntimeMXBean().getName();
        }
    }

    /** Configures a {@link Worker}; only the handler is required. */
    public static final class Builder {
        private final CoordinateClient client;
        private final boolean ownsClient;
        private String name;
        private final List<String> workSpecs = new ArrayList<>();
        private int concurrency = 1;
        private int prefetch = -1;
        private int maxHeld = AttemptHolding.DEFAULT_MAX_HELD;
        private Duration lease = Duration.ofSeconds(30);
        private Duration minBackoff = Duration.ofMillis(100);
        private Duration maxBackoff = Duration.ofSeconds(5);
        private Duration heartbeatInterval = Duration.ofSeconds(30);
        private Duration closeTimeout = Duration.ofSeconds(30);
        private int finishBatch = 100;
        private Duration finishLinger = Duration.ofMillis(20);
        private Handler handler;
        private final Map<String, Object> environment = new LinkedHashMap<>();

        private Builder(CoordinateClient client, boolean ownsClient) {
            this.client = Objects.requireNonNull(client, "client");
            this.ownsClient = ownsClient;
        }

        /** The worker's name (default {@code <host>-<pid>-<random>}); unique among running workers. */
        public Builder name(String name) {
            this.name = name;
            return this;
        }

        /** Only units of these specs (default: any spec of the namespace). */
        public Builder workSpecs(String... names) {
            workSpecs.addAll(List.of(names));
            return this;
        }

        /** How many handlers run at once (default 1). */
        public Builder concurrency(int concurrency) {
            if (concurrency < 1) {
                throw new IllegalArgumentException("concurrency must be at least 1: " + concurrency);
            }
            this.concurrency = concurrency;
            return this;
        }

        /**
         * How many attempts to hold beyond the running ones, queued for the next free handler, fixed. Without it the
         * worker sizes that queue from what it measures (docs/client.md, "Work units with a Worker"). Queued attempts'
         * leases run (and are renewed) while they wait, and other workers cannot get them.
         */
        public Builder prefetch(int prefetch) {
            if (prefetch < 0) {
                throw new IllegalArgumentException("prefetch must not be negative: " + prefetch);
            }
            this.prefetch = prefetch;
            return this;
        }

        /**
         * The largest queue the worker sizes for itself, beyond the running handlers (default 1000); not a bound on
         * {@link #prefetch}.
         */
        public Builder maxHeld(int maxHeld) {
            if (maxHeld < 0) {
                throw new IllegalArgumentException("maxHeld must not be negative: " + maxHeld);
            }
            this.maxHeld = maxHeld;
            return this;
        }

        /** The lease asked for, renewed at half its lifetime while a handler runs (default 30 s). */
        public Builder lease(Duration lease) {
            if (lease.toMillis() < 1000) {
                throw new IllegalArgumentException("a lease is at least 1 s: " + lease);
            }
            this.lease = lease;
            return this;
        }

        /** How long to wait after an empty answer: from {@code min} (100 ms), doubling up to {@code max} (5 s). */
        public Builder backoff(Duration min, Duration max) {
            this.minBackoff = min;
            this.maxBackoff = max;
            return this;
        }

        /** How often to check in (default 30 s; the worker shows expired after three missed). */
        public Builder heartbeatInterval(Duration interval) {
            this.heartbeatInterval = interval;
            return this;
        }

        /**
         * How long {@link Worker#close()} lets running handlers end before interrupting them and releasing their units
         * (30 s); as long again is left to the interrupted handlers to end.
         */
        public Builder closeTimeout(Duration timeout) {
            this.closeTimeout = timeout;
            return this;
        }

        /** Finishes go out in batches of up to {@code size}, held at most {@code linger} (100, 20 ms). */
        public Builder finishBatching(int size, Duration linger) {
            this.finishBatch = size;
            this.finishLinger = linger;
            return this;
        }

        /** Extra fields of each heartbeat's environment (host, pid, concurrency, work_specs and language go anyway). */
        public Builder environment(String key, Object value) {
            environment.put(key, value);
            return this;
        }

        public Builder handler(Handler handler) {
            this.handler = handler;
            return this;
        }

        public Worker build() {
            return new Worker(this);
        }
    }
}
