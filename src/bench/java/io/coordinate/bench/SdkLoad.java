package io.coordinate.bench;

import io.coordinate.client.CoordinateClient;
import io.coordinate.client.Worker;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * (g) The lifecycle's units worked by the Java worker library ({@link Worker}) instead of the lifecycle's raw
 * batched loop: the units are added as the lifecycle adds them, then {@code workers} workers, each with a
 * {@link CoordinateClient} of its own (as separate processes would have), {@code concurrency} no-op handlers and
 * {@code prefetch} attempts queued, work them until the sum of their {@link Worker#finished()} reaches the units.
 * {@link #atDefaults} works them with workers at the default settings and 1 ms handlers instead (sdk_default).
 * Then one worker alone on a spec without units for {@link #IDLE_SECONDS}, counting its requests: what an idle
 * worker costs the app.
 *
 * <p>A worker holds at most {@code concurrency + prefetch} attempts (running, queued or asked for), so units/s is at
 * most workers × (concurrency + prefetch) / the request's round trip.
 */
final class SdkLoad {

    private static final Logger LOG = LoggerFactory.getLogger(SdkLoad.class);
    /** No progress for this long fails the run rather than hanging it. */
    private static final long STALL_SECONDS = 60;

    static final double IDLE_SECONDS = 10;
    static final int DEFAULT_CONCURRENCY = 8;

    private final LifecycleLoad units;
    private final String bootstrapServers;
    private final String topicPrefix;
    private final int workers;
    private final int concurrency;
    private final int prefetch;
    private final Worker.Handler handler;

    SdkLoad(
            LifecycleLoad units,
            String bootstrapServers,
            String topicPrefix,
            int workers,
            int concurrency,
            int prefetch) {
        this(units, bootstrapServers, topicPrefix, workers, concurrency, prefetch, attempt -> null);
    }

    /** @param prefetch -1 for the worker's default (a queue sized from what it measures) */
    private SdkLoad(
            LifecycleLoad units,
            String bootstrapServers,
            String topicPrefix,
            int workers,
            int concurrency,
            int prefetch,
            Worker.Handler handler) {
        this.units = units;
        this.bootstrapServers = bootstrapServers;
        this.topicPrefix = topicPrefix;
        this.workers = workers;
        this.concurrency = concurrency;
        this.prefetch = prefetch;
        this.handler = handler;
    }

    /**
     * The sdk_default phase: {@code workers} workers as docs/client.md builds one, at the default settings but for
     * {@link #DEFAULT_CONCURRENCY} handlers that each take a millisecond.
     */
    static SdkLoad atDefaults(LifecycleLoad units, String bootstrapServers, String topicPrefix, int workers) {
        return new SdkLoad(units, bootstrapServers, topicPrefix, workers, DEFAULT_CONCURRENCY, -1, attempt -> {
            Thread.sleep(1);
            return null;
        });
    }

    /** Adds {@code count} units to {@code namespace} and works them with the workers: a measured run or a warm-up. */
    BenchReport.Sdk work(String namespace, long count) throws InterruptedException {
        double addSeconds = units.addUnits(namespace, count);
        List<CoordinateClient> clients = new ArrayList<>();
        List<Worker> started = new ArrayList<>();
        double workSeconds;
        long requests;
        StreamThreadMeter.Reading streamThread;
        double cpuCores;
        double otherCpuCores;
        try {
            for (int w = 0; w < workers; w++) {
                clients.add(client(namespace));
            }
            StreamThreadMeter meter = new StreamThreadMeter();
            CpuMeter others = new CpuMeter();
            long cpuStarted = LifecycleLoad.processCpuNanos();
            long workStarted = System.nanoTime();
            for (int w = 0; w < workers; w++) {
                started.add(worker(clients.get(w), namespace + "-w" + w, LifecycleLoad.SPEC)
                        .start());
            }
            workSeconds = (awaitFinished(started, count) - workStarted) / 1e9;
            requests = sum(started, Worker::requests);
            streamThread = meter.read();
            cpuCores = (LifecycleLoad.processCpuNanos() - cpuStarted) / 1e9 / workSeconds;
            otherCpuCores = others.otherProcessesCores();
        } finally {
            started.forEach(Worker::close);
            clients.forEach(CoordinateClient::close);
        }
        LOG.info(
                "{}: {} workers finished {} units in {} s ({} requests)",
                namespace,
                workers,
                count,
                workSeconds,
                requests);
        return new BenchReport.Sdk(
                count,
                addSeconds,
                workSeconds,
                workers,
                concurrency,
                prefetch,
                requests,
                cpuCores,
                otherCpuCores,
                streamThread);
    }

    /** One worker on a spec without units for {@link #IDLE_SECONDS}: the requests it sent meanwhile. */
    BenchReport.Idle idle(String namespace) throws InterruptedException {
        String spec = "idle";
        LifecycleLoad.defineSpec(units.client(), namespace, spec);
        try (CoordinateClient client = client(namespace)) {
            Worker worker = worker(client, namespace + "-w0", spec);
            long from = System.nanoTime();
            worker.start();
            TimeUnit.NANOSECONDS.sleep((long) (IDLE_SECONDS * 1e9));
            int requests = worker.requests();
            double seconds = (System.nanoTime() - from) / 1e9;
            worker.close();
            return new BenchReport.Idle(seconds, requests);
        }
    }

    private CoordinateClient client(String namespace) {
        return CoordinateClient.builder()
                .bootstrapServers(bootstrapServers)
                .topicPrefix(topicPrefix)
                .namespace(namespace)
                .build();
    }

    private Worker worker(CoordinateClient client, String name, String spec) {
        Worker.Builder builder =
                Worker.builder(client).name(name).workSpecs(spec).concurrency(concurrency);
        if (prefetch >= 0) {
            builder.prefetch(prefetch);
        }
        return builder.handler(handler).build();
    }

    /** Polls the workers' finished units until they reach {@code count}; returns when (fails on a stall). */
    private static long awaitFinished(List<Worker> workers, long count) throws InterruptedException {
        long last = -1;
        long lastProgress = System.nanoTime();
        while (true) {
            long now = System.nanoTime();
            long finished = sum(workers, Worker::finished);
            if (finished >= count) {
                return now;
            }
            if (finished != last) {
                last = finished;
                lastProgress = now;
            } else if (now - lastProgress > TimeUnit.SECONDS.toNanos(STALL_SECONDS)) {
                throw new IllegalStateException("stalled: " + finished + " of " + count
                        + " units finished by the workers" + " after " + STALL_SECONDS + " s without progress");
            }
            TimeUnit.MILLISECONDS.sleep(2);
        }
    }

    private static long sum(List<Worker> workers, ToLongFunction<Worker> counter) {
        return workers.stream().mapToLong(counter).sum();
    }
}
