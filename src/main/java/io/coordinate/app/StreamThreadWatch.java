package io.coordinate.app;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.streams.KafkaStreams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells {@link StreamThreadFailures} every {@link #INTERVAL} how many stream threads are alive and how many commits
 * they made, from Kafka Streams' own metrics ({@code alive-stream-threads}, the threads' {@code commit-total}), and
 * completes {@link #stopped()} once no stream thread runs and none was started in place of the failed one.
 */
final class StreamThreadWatch implements AutoCloseable {

    static final Duration INTERVAL = Duration.ofSeconds(1);
    private static final Logger LOG = LoggerFactory.getLogger(StreamThreadWatch.class);

    private final KafkaStreams streams;
    private final StreamThreadFailures failures;
    private final CompletableFuture<String> stopped = new CompletableFuture<>();
    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "stream-thread-watch");
        thread.setDaemon(true);
        return thread;
    });

    StreamThreadWatch(KafkaStreams streams, StreamThreadFailures failures) {
        this.streams = streams;
        this.failures = failures;
        executor.scheduleWithFixedDelay(this::check, INTERVAL.toMillis(), INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Completes with the reason once no stream thread runs and none will: only a restart of the process helps. */
    CompletableFuture<String> stopped() {
        return stopped;
    }

    private void check() {
        try {
            if (!streams.state().isRunningOrRebalancing()) {
                return;
            }
            Map<MetricName, ? extends Metric> metrics = streams.metrics();
            failures.observe(
                    (int) sum(metrics, "stream-metrics", "alive-stream-threads"),
                    sum(metrics, "stream-thread-metrics", "commit-total"));
            String reason = failures.stopped();
            if (reason != null && stopped.complete(reason)) {
                LOG.error("{}: this process processes nothing more; /health/live answers 503", reason);
            }
        } catch (RuntimeException | LinkageError e) {
            // A task that throws is never run again by the scheduler; the watch must outlive a check that failed (a
            // process out of file descriptors may fail to load a class).
            LOG.warn("could not check the stream threads: {}", e.toString());
        }
    }

    /** The sum of the named metric over all its tags (every thread's, for a thread metric). */
    private static double sum(Map<MetricName, ? extends Metric> metrics, String group, String name) {
        double sum = 0;
        for (Map.Entry<MetricName, ? extends Metric> metric : metrics.entrySet()) {
            if (metric.getKey().group().equals(group)
                    && metric.getKey().name().equals(name)
                    && metric.getValue().metricValue() instanceof Number value) {
                sum += value.doubleValue();
            }
        }
        return sum;
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
