package io.coordinate.bench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * (d) Latency under a steady, rate-limited load (about half the lifecycle's maximum): a loader adds units at
 * {@code rate} units/s in commands of {@code batch} units (the lifecycle's shape, so that half its units/s is
 * half its load), while {@code workers} workers loop request → assignment → finish
 * with as few requests outstanding as give them twice the needed capacity ({@link #inflight}), asking again at
 * once when an assignment is empty. Measured on the client's
 * clock, from the moment a command is handed to the producer to the moment its answer is read (read_committed):
 * request → assignment for every request, and add → first attempt for every unit. The first fifth of the run is a
 * warm-up and not counted.
 */
final class LatencyProbe {

    private static final Logger LOG = LoggerFactory.getLogger(LatencyProbe.class);
    private static final long TICK_MILLIS = 10;

    private final CommandClient client;
    private final int workers;
    private final int batch;

    LatencyProbe(CommandClient client, int workers, int batch) {
        this.client = client;
        this.workers = workers;
        this.batch = batch;
    }

    /**
     * Requests each worker keeps outstanding: enough that the workers could take twice the load at a 150 ms round
     * trip (so units never wait for a free worker), and no more (an empty request costs the app a command too).
     */
    static int inflight(double rate, int workers, int batch) {
        return (int) Math.max(1, Math.ceil(2 * rate * 0.150 / ((double) workers * batch)));
    }

    /** When a request was handed to the producer: the client's clock and the wall clock. */
    private record Sent(long nanos, long wallMillis) {}

    private Sent request(String namespace, String worker, long sequence) {
        ObjectNode request = CommandClient.command("request_attempts", namespace);
        request.put("worker", worker).put("count", batch).put("request_id", worker + "-" + sequence);
        Sent sent = new Sent(System.nanoTime(), System.currentTimeMillis());
        client.send(namespace, request);
        return sent;
    }

    BenchReport.Latency run(String namespace, double rate, double seconds) throws InterruptedException {
        int inflight = inflight(rate, workers, batch);
        String spec = "latency";
        LifecycleLoad.defineSpec(client, namespace, spec);
        client.onReply(r -> {});

        LatencyRecorder requestLatency = new LatencyRecorder();
        LatencyRecorder addLatency = new LatencyRecorder();
        // The request's round trip in two parts, on the wall clock (ms) of this JVM and of the app: until the app
        // processed it (the assignment's timestamp) and from then until the worker read it (the commit's share).
        LatencyRecorder toProcessed = new LatencyRecorder();
        LatencyRecorder processedToSeen = new LatencyRecorder();
        ConcurrentHashMap<String, Long> addedAt = new ConcurrentHashMap<>();
        AtomicLong sent = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        long started = System.nanoTime();
        CpuMeter cpu = new CpuMeter();
        StreamThreadMeter streamThread = new StreamThreadMeter();
        JitActivity jit = JitActivity.start();
        long countFrom = started + (long) (seconds * 0.2e9);
        long loadEnds = started + (long) (seconds * 1e9);
        AtomicBoolean loading = new AtomicBoolean(true);

        Thread loader = new Thread(
                () -> {
                    try {
                        long next = started;
                        while (true) {
                            long now = System.nanoTime();
                            if (now >= loadEnds) {
                                break;
                            }
                            long due = (long) (rate * (now - started) / 1e9) - sent.get();
                            while (due >= batch) { // whole commands of `batch` units, the shape of the lifecycle's adds
                                int chunk = batch;
                                ObjectNode add = CommandClient.command("add_work_units", namespace);
                                add.put("work_spec_name", spec);
                                ArrayNode list = add.putArray("work_units");
                                long first = sent.get();
                                long at = System.nanoTime();
                                for (long i = first; i < first + chunk; i++) {
                                    String name = LifecycleLoad.unitName("l", i);
                                    list.addObject().put("name", name);
                                    addedAt.put(name, at);
                                }
                                client.send(namespace, add);
                                sent.addAndGet(chunk);
                                due -= chunk;
                            }
                            next += TICK_MILLIS * 1_000_000;
                            long sleep = next - System.nanoTime();
                            if (sleep > 0) {
                                TimeUnit.NANOSECONDS.sleep(sleep);
                            }
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    } finally {
                        loading.set(false);
                    }
                },
                "bench-latency-loader");
        loader.setDaemon(true);

        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            String worker = namespace + "-w" + w;
            BlockingQueue<CommandClient.Received> inbox = client.inbox(worker);
            Thread thread = new Thread(
                    () -> {
                        try {
                            // Answers to one worker come in the order of its requests: the head is the oldest
                            // outstanding.
                            ArrayDeque<Sent> sentAt = new ArrayDeque<>();
                            long sequence = 0;
                            boolean stopping = false;
                            for (int i = 0; i < inflight; i++) {
                                sentAt.add(request(namespace, worker, sequence++));
                            }
                            while (!sentAt.isEmpty()) {
                                CommandClient.Received assignment = inbox.poll(60, TimeUnit.SECONDS);
                                if (assignment == null) {
                                    client.checkHealthy();
                                    throw new IllegalStateException(worker + ": no assignment for 60 s");
                                }
                                Sent requestSent = sentAt.remove();
                                if (requestSent.nanos() >= countFrom && requestSent.nanos() < loadEnds) {
                                    requestLatency.record(assignment.nanos() - requestSent.nanos());
                                    toProcessed.record(
                                            (assignment.timestampMillis() - requestSent.wallMillis()) * 1_000_000);
                                    processedToSeen.record(
                                            (assignment.wallMillis() - assignment.timestampMillis()) * 1_000_000);
                                }
                                List<WorkerMessages.Attempt> attempts = WorkerMessages.attempts(assignment.bytes());
                                if (!attempts.isEmpty()) {
                                    for (WorkerMessages.Attempt attempt : attempts) {
                                        Long at = addedAt.remove(attempt.unit());
                                        if (at != null && at >= countFrom) {
                                            addLatency.record(assignment.nanos() - at);
                                        }
                                    }
                                    client.send(
                                            namespace, WorkerMessages.finishAttempts(namespace, attempts, null, null));
                                } else if (!loading.get() && addedAt.isEmpty()) {
                                    stopping =
                                            true; // the loader has stopped and every unit it added has been handed out
                                }
                                if (!stopping) {
                                    sentAt.add(request(namespace, worker, sequence++));
                                }
                            }
                        } catch (Throwable e) {
                            failure.compareAndSet(null, e);
                        }
                    },
                    "bench-" + worker);
            thread.setDaemon(true);
            threads.add(thread);
        }
        loader.start();
        threads.forEach(Thread::start);
        loader.join();
        // While the load lasts: the workers' last answers after it are not load.
        StreamThreadMeter.Reading streamThreadReading = streamThread.read();
        double jitCores = jit.cores();
        for (Thread thread : threads) {
            thread.join(TimeUnit.SECONDS.toMillis(120));
            if (thread.isAlive()) {
                throw new IllegalStateException("latency worker " + thread.getName() + " did not finish");
            }
        }
        if (failure.get() != null) {
            throw new IllegalStateException("latency probe failed: " + failure.get(), failure.get());
        }
        double achieved = sent.get() / seconds;
        LOG.info(
                "latency: {} units at {} units/s; {} requests counted ({} in flight per worker)",
                sent.get(),
                achieved,
                requestLatency.count(),
                inflight);
        return new BenchReport.Latency(
                rate,
                achieved,
                seconds,
                inflight,
                requestLatency.summary(),
                toProcessed.summary(),
                processedToSeen.summary(),
                addLatency.summary(),
                cpu.otherProcessesCores(),
                streamThreadReading,
                jitCores);
    }
}
