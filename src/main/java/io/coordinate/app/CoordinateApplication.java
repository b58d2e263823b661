package io.coordinate.app;

import io.coordinate.config.AppConfig;
import io.coordinate.config.KafkaClientSettings;
import io.coordinate.metrics.MetricsSettings;
import io.coordinate.metrics.QueueGauges;
import io.coordinate.metrics.QueueMetrics;
import io.coordinate.protocol.TopicNames;
import io.coordinate.query.KafkaCommandGateway;
import io.coordinate.query.QueryServer;
import io.coordinate.streams.CoordinateTopology;
import io.coordinate.streams.RestoreLog;
import io.coordinate.streams.StreamsNamespaceLocator;
import io.coordinate.streams.StreamsSettings;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.state.HostInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running instance: the Kafka Streams engine, the HTTP API (queries, command gateway, metrics, health)
 * and their wiring. Topics must exist (see {@code io.coordinate.app.AppLauncher}).
 */
public final class CoordinateApplication implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CoordinateApplication.class);
    private static final Duration START_PROGRESS_LOG = Duration.ofSeconds(30);
    /** Scrapes closer together than this show the queue gauges' last read again (docs/monitoring.md). */
    private static final long GAUGES_MIN_INTERVAL_MS = 1000;

    private final AppConfig requested;
    private AppConfig config;
    private KafkaStreams streams;
    private KafkaStreamsMetrics streamsMetrics;
    private KafkaCommandGateway gateway;
    private QueryServer queryServer;
    private StreamThreadWatch watch;
    private final StreamThreadFailures failures = new StreamThreadFailures(System::currentTimeMillis);

    public CoordinateApplication(AppConfig config) {
        this.requested = config;
        this.config = config;
    }

    /** Starts Kafka Streams and the HTTP API; returns once the streams app is RUNNING (HTTP serves before that). */
    public void start() throws InterruptedException {
        int port = requested.httpPort() == 0 ? freePort() : requested.httpPort();
        config = requested.withHttpPort(port);
        TopicNames topics = new TopicNames(config.topicPrefix());
        int partitions;
        try (Admin admin = Admin.create(KafkaClientSettings.base(config))) {
            partitions = partitionCount(admin, topics.commands());
            abortHangingTransactions(admin, topics);
        }

        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        QueueMetrics queueMetrics = new QueueMetrics(
                registry, MetricsSettings.maxSpecs(System::getenv), MetricsSettings.maxNamespaces(System::getenv));
        streams = new KafkaStreams(
                CoordinateTopology.build(
                        topics,
                        Duration.ofMillis(config.punctuateIntervalMs()),
                        Duration.ofMillis(config.commitIntervalMs()),
                        partitions,
                        SplittableRandom::new,
                        queueMetrics),
                StreamsSettings.of(config));
        // A failing stream thread is replaced rather than taking the instance down; the engine itself turns bad
        // input into rejections, so this only guards against infrastructure errors.
        streams.setUncaughtExceptionHandler(e -> {
            LOG.error("stream thread failed; replacing it", e);
            failures.failed(e);
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
        });
        RestoreLog restoreLog = new RestoreLog();
        streams.setGlobalStateRestoreListener(restoreLog);
        CountDownLatch settled = new CountDownLatch(1);
        streams.setStateListener((newState, oldState) -> {
            LOG.info("streams {} -> {}", oldState, newState);
            if (newState == KafkaStreams.State.RUNNING || !newState.isRunningOrRebalancing()) {
                settled.countDown();
            }
        });
        streamsMetrics = new KafkaStreamsMetrics(streams);
        streamsMetrics.bindTo(registry);
        streams.start();
        watch = new StreamThreadWatch(streams, failures);
        watch.stopped().thenRun(settled::countDown);
        // HTTP serves before the stores are ready, so that the probes answer during a long restore or index rebuild:
        // live says the process is well, ready says it is not serving yet, and queries answer 503 meanwhile.
        gateway = new KafkaCommandGateway(KafkaClientSettings.base(config), topics);
        StreamsNamespaceLocator locator = new StreamsNamespaceLocator(
                streams,
                new HostInfo(config.httpHost(), port),
                failures::loopError,
                failures::stopped,
                restoreLog::restoring);
        QueueGauges queueGauges = new QueueGauges(
                registry, queueMetrics, locator::localStores, System::currentTimeMillis, GAUGES_MIN_INTERVAL_MS);
        queryServer = new QueryServer(
                        locator,
                        gateway,
                        registry,
                        System::currentTimeMillis,
                        QueryServer.DEFAULT_COMMAND_TIMEOUT,
                        config.httpToken())
                .withFeeds(KafkaClientSettings.base(config), topics, config.feedsNeedToken())
                .withQueueMetrics(queueMetrics, queueGauges)
                .withHttpSettings(config.http().allowingHost(config.httpHost())); // the name others forward queries to
        queryServer.start(config.httpBindHost(), port);
        LOG.info(
                "serving HTTP on {}:{} (other instances reach it as {}:{}); mutations {}",
                config.httpBindHost(),
                port,
                config.httpHost(),
                port,
                config.httpToken() == null ? "open to anyone who reaches it" : "need the token");
        // No time limit while Kafka Streams restores or rebalances: a large changelog may take longer than any fixed
        // limit, and giving up would only start the same restore again. A state it cannot leave ends the wait.
        while (!settled.await(START_PROGRESS_LOG.toMillis(), TimeUnit.MILLISECONDS)) {
            LOG.info("waiting for Kafka Streams to run: {}", streams.state());
        }
        if (watch.stopped().isDone()) {
            throw new NoStreamThreadException(watch.stopped().join());
        }
        if (!streams.state().isRunningOrRebalancing()) {
            throw new IllegalStateException("Kafka Streams stopped before it ran: " + streams.state());
        }
    }

    /**
     * After {@link #start}: completes with the reason once no stream thread runs and none was started in place of the
     * failed one, although Kafka Streams says RUNNING; only a restart of the process helps then.
     */
    public CompletableFuture<String> stopped() {
        return watch.stopped();
    }

    /** The actual HTTP port (useful when 0 was configured). */
    public int httpPort() {
        return queryServer != null ? queryServer.port() : config.httpPort();
    }

    public AppConfig config() {
        return config;
    }

    public boolean isRunning() {
        return streams != null && streams.state() == KafkaStreams.State.RUNNING;
    }

    @Override
    public void close() {
        if (queryServer != null) {
            queryServer.close();
        }
        if (gateway != null) {
            gateway.close();
        }
        if (watch != null) {
            watch.close();
        }
        if (streamsMetrics != null) {
            streamsMetrics.close();
        }
        if (streams != null) {
            // Leave the group on a clean stop, so a remaining instance takes the partitions over at once instead of
            // after the session timeout. A static member (group.instance.id) leaves too: LEAVE_GROUP sends its
            // LeaveGroup whatever the membership; after a kill -9 the static id is what lets a restart rejoin at once.
            streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                    .withTimeout(Duration.ofSeconds(30)));
        }
    }

    private static int partitionCount(Admin admin, String topic) throws InterruptedException {
        try {
            return admin.describeTopics(List.of(topic))
                    .allTopicNames()
                    .get(60, TimeUnit.SECONDS)
                    .get(topic)
                    .partitions()
                    .size();
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot describe topic " + topic, e);
        }
    }

    /**
     * A transaction that no coordinator will end holds back every read_committed reader of its partition, Kafka
     * Streams' restore of a changelog included: the app would never get to RUNNING. Such transactions are aborted
     * here, before Kafka Streams starts (see {@link HangingTransactions}); a failed check is logged, not fatal.
     */
    private void abortHangingTransactions(Admin admin, TopicNames topics) throws InterruptedException {
        List<String> names =
                TopicNames.ALL.stream().map(t -> topics.prefix() + t).toList();
        try {
            List<HangingTransactions.Aborted> aborted =
                    new HangingTransactions(admin).abortOnAppPartitions(config.applicationId(), names);
            if (!aborted.isEmpty()) {
                LOG.warn("aborted {} hanging transaction(s) before starting", aborted.size());
            }
        } catch (RuntimeException e) {
            LOG.warn("could not check for hanging transactions; starting anyway", e);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
