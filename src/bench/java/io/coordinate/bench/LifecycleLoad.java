package io.coordinate.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.lang.management.ManagementFactory;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * (c) The lifecycle of N units through the app as configured (exactly-once, events on): the units are added in
 * {@code add_work_units} commands of {@code batch} units (the add rate: until the app has replied to the last one),
 * then {@code workers} worker threads each loop {@code request_attempts} (count = batch) → read their assignment
 * → {@code finish_attempts} for all of it, until every unit is finished (counted from the replies to
 * {@code finish_attempts}). Each worker keeps {@code inflight} requests outstanding: with 1 it asks again only
 * once its assignment arrived, with more it asks for its next batch while it finishes the current one.
 */
final class LifecycleLoad {

    private static final Logger LOG = LoggerFactory.getLogger(LifecycleLoad.class);
    /** No progress for this long fails the run rather than hanging it. */
    private static final long STALL_SECONDS = 60;

    private final CommandClient client;
    private final int workers;
    private final int batch;
    private final int inflight;
    /** Units added through this load (the sdk phase's too): what the app's store holds. */
    private final AtomicLong unitsAdded = new AtomicLong();

    /** The spec the units are added to. */
    static final String SPEC = "bench";

    LifecycleLoad(CommandClient client, int workers, int batch, int inflight) {
        this.client = client;
        this.workers = workers;
        this.batch = batch;
        this.inflight = inflight;
    }

    CommandClient client() {
        return client;
    }

    long unitsAdded() {
        return unitsAdded.get();
    }

    static String unitName(String prefix, long i) {
        return String.format(Locale.ROOT, "%s%09d", prefix, i);
    }

    /** Defines the spec and waits until the app confirms it. */
    static void defineSpec(CommandClient client, String namespace, String spec) throws InterruptedException {
        CountDownLatch replied = new CountDownLatch(1);
        AtomicReference<JsonNode> reply = new AtomicReference<>();
        client.onReply(r -> {
            if ("spec".equals(r.value().path("request_id").asText())) {
                reply.set(r.value());
                replied.countDown();
            }
        });
        ObjectNode command = CommandClient.command("set_work_spec", namespace);
        command.putObject("work_spec").put("name", spec);
        command.put("reply_to", client.replyTo()).put("request_id", "spec");
        client.send(namespace, command);
        client.flush();
        if (!replied.await(120, TimeUnit.SECONDS)) {
            throw new IllegalStateException("no reply to set_work_spec in " + namespace + " after 120 s");
        }
        if (!reply.get().path("ok").asBoolean()) {
            throw new IllegalStateException("set_work_spec failed: " + reply.get());
        }
    }

    /**
     * Defines the spec {@code bench} in {@code namespace} and adds {@code units} units to it in commands of
     * {@code batch} units, each asking for a reply, so that the add is timed until the app applied the last one (and
     * none failed). Returns the seconds it took. Replaces the client's reply handler.
     */
    double addUnits(String namespace, long units) throws InterruptedException {
        defineSpec(client, namespace, SPEC);
        long commands = (units + batch - 1) / batch;
        AtomicLong addReplies = new AtomicLong();
        AtomicLong addErrors = new AtomicLong();
        CountDownLatch added = new CountDownLatch(1);
        long[] addedAt = new long[1];
        client.onReply(r -> {
            JsonNode value = r.value();
            if (value.path("request_id").asText("").startsWith("a-")) {
                if (!value.path("ok").asBoolean()) {
                    addErrors.incrementAndGet();
                }
                if (addReplies.incrementAndGet() == commands) {
                    addedAt[0] = r.nanos();
                    added.countDown();
                }
            }
        });
        long addStarted = System.nanoTime();
        for (long c = 0; c < commands; c++) {
            ObjectNode add = CommandClient.command("add_work_units", namespace);
            add.put("work_spec_name", SPEC);
            ArrayNode list = add.putArray("work_units");
            for (long i = c * batch; i < Math.min(units, (c + 1) * batch); i++) {
                ObjectNode unit = list.addObject();
                unit.put("name", unitName("u", i));
                unit.put("priority", i % 10);
                unit.putObject("data").put("i", i);
            }
            add.put("reply_to", client.replyTo()).put("request_id", "a-" + c);
            client.send(namespace, add);
        }
        client.flush();
        awaitProgress(added, addReplies, "add replies", commands);
        if (addErrors.get() > 0) {
            throw new IllegalStateException(addErrors.get() + " add_work_units commands failed");
        }
        unitsAdded.addAndGet(units);
        double addSeconds = (addedAt[0] - addStarted) / 1e9;
        LOG.info("{}: added {} units in {} s", namespace, units, addSeconds);
        return addSeconds;
    }

    BenchReport.Lifecycle run(String namespace, long units) throws InterruptedException {
        double addSeconds = addUnits(namespace, units);

        AtomicLong finished = new AtomicLong();
        AtomicLong finishErrors = new AtomicLong();
        CountDownLatch allFinished = new CountDownLatch(1);
        long[] finishedAt = new long[1];
        long[] tenths = new long[11]; // when 0/10, 1/10, ... 10/10 of the units were finished
        int[] nextTenth = {1};
        client.onReply(r -> {
            JsonNode value = r.value();
            if (value.path("request_id").asText("").startsWith("f-")) {
                long ok = value.path("result").path("finished").asLong();
                long errors = value.path("ok").asBoolean()
                        ? value.path("result").path("errors").size()
                        : batch;
                finishErrors.addAndGet(errors);
                long done = finished.addAndGet(ok) + finishErrors.get();
                while (nextTenth[0] <= 10 && done >= units * nextTenth[0] / 10) { // replies come from one thread
                    tenths[nextTenth[0]++] = r.nanos();
                }
                if (done >= units && finishedAt[0] == 0) {
                    finishedAt[0] = r.nanos();
                    allFinished.countDown();
                }
            }
        });

        // Work phase.
        AtomicLong requests = new AtomicLong();
        LatencyRecorder roundTrips = new LatencyRecorder();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        long cpuStarted = processCpuNanos();
        StreamThreadMeter streamThread = new StreamThreadMeter();
        CpuMeter others = new CpuMeter();
        long workStarted = System.nanoTime();
        tenths[0] = workStarted;
        for (int w = 0; w < workers; w++) {
            String worker = namespace + "-w" + w;
            BlockingQueue<CommandClient.Received> inbox = client.inbox(worker);
            Thread thread = new Thread(
                    () -> {
                        try {
                            work(namespace, worker, inbox, requests, roundTrips);
                        } catch (Throwable e) {
                            failure.compareAndSet(null, e);
                            allFinished.countDown();
                        }
                    },
                    "bench-" + worker);
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
        awaitProgress(allFinished, finished, "finished units", units);
        for (Thread thread : threads) {
            thread.join(10_000);
        }
        if (failure.get() != null) {
            throw new IllegalStateException("a worker failed: " + failure.get(), failure.get());
        }
        double workSeconds = (finishedAt[0] - workStarted) / 1e9;
        double wall = (System.nanoTime() - workStarted) / 1e9;
        double cpuCores = (processCpuNanos() - cpuStarted) / 1e9 / wall;
        LOG.info(
                "{}: finished {} units in {} s ({} requests, {} errors)",
                namespace,
                finished.get(),
                workSeconds,
                requests.get(),
                finishErrors.get());
        return new BenchReport.Lifecycle(
                units,
                addSeconds,
                workSeconds,
                requests.get(),
                finishErrors.get(),
                cpuCores,
                others.otherProcessesCores(),
                roundTrips.summary().p50Ms(),
                workers * (long) batch * inflight,
                tenthRates(units, tenths),
                streamThread.read());
    }

    /** One worker: keeps {@code inflight} requests outstanding until the spec has nothing left for it. */
    private void work(
            String namespace,
            String worker,
            BlockingQueue<CommandClient.Received> inbox,
            AtomicLong requests,
            LatencyRecorder roundTrips)
            throws InterruptedException {
        // One worker's requests go to one partition and are answered in order: the head is the oldest outstanding.
        ArrayDeque<Long> sentAt = new ArrayDeque<>();
        long sequence = 0;
        int outstanding = 0;
        boolean exhausted = false;
        for (int i = 0; i < inflight; i++) {
            sentAt.add(System.nanoTime());
            request(namespace, worker, sequence++);
            outstanding++;
        }
        while (outstanding > 0) {
            CommandClient.Received assignment = inbox.poll(STALL_SECONDS, TimeUnit.SECONDS);
            if (assignment == null) {
                client.checkHealthy();
                throw new IllegalStateException(worker + ": no assignment for " + STALL_SECONDS + " s");
            }
            outstanding--;
            requests.incrementAndGet();
            roundTrips.record(assignment.nanos() - sentAt.remove());
            List<WorkerMessages.Attempt> attempts = WorkerMessages.attempts(assignment.bytes());
            if (attempts.isEmpty()) {
                exhausted = true; // every unit was added before the workers started: nothing will come back
                continue;
            }
            client.send(
                    namespace,
                    WorkerMessages.finishAttempts(
                            namespace, attempts, client.replyTo(), "f-" + worker + "-" + sequence));
            if (!exhausted) {
                sentAt.add(System.nanoTime());
                request(namespace, worker, sequence++);
                outstanding++;
            }
        }
    }

    private void request(String namespace, String worker, long sequence) {
        ObjectNode request = CommandClient.command("request_attempts", namespace);
        request.put("worker", worker).put("count", batch).put("request_id", worker + "-" + sequence);
        client.send(namespace, request);
    }

    /** Waits for the latch while the counter keeps moving; fails after {@link #STALL_SECONDS} without progress. */
    private void awaitProgress(CountDownLatch latch, AtomicLong counter, String what, long target)
            throws InterruptedException {
        long last = -1;
        while (!latch.await(STALL_SECONDS, TimeUnit.SECONDS)) {
            client.checkHealthy();
            long now = counter.get();
            if (now == last) {
                throw new IllegalStateException("stalled: " + now + " of " + target + " " + what + " after "
                        + STALL_SECONDS + " s without progress");
            }
            last = now;
        }
        client.checkHealthy();
    }

    /** Units/s over each tenth of the work phase: a rate that falls from tenth to tenth shows a cost that grows. */
    static double[] tenthRates(long units, long[] tenths) {
        double[] rates = new double[10];
        for (int i = 0; i < 10; i++) {
            long from = units * i / 10;
            long to = units * (i + 1) / 10;
            rates[i] = tenths[i + 1] == 0 ? Double.NaN : (to - from) / ((tenths[i + 1] - tenths[i]) / 1e9);
        }
        return rates;
    }

    static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return 0;
    }
}
