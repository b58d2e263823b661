package io.coordinate.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.config.AppConfig;
import io.coordinate.protocol.TopicNames;
import io.coordinate.streams.BoundedRocksDbMemory;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * (f) The app's memory with many stored units: the app alone in a child JVM ({@link AppProcess}: {@code coordinate
 * run} with a bounded heap, its own application id, topic prefix and state dir) on the run's broker, loaded with
 * {@code units} units in one spec of one namespace ({@code add_work_units} of {@code batch} units, each with a
 * reply, at most {@link #COMMANDS_IN_FLIGHT} unanswered). Once every command is answered and a few commits have
 * passed, it samples the child's {@code VmRSS} (and {@code VmHWM}, the peak) and its state dir, then checks that the
 * app still works at that size with {@link #ROUND_TRIPS} request_attempts (count 100) + finish_attempts round
 * trips, one at a time. Last, it kills the child with SIGKILL under load and starts it again
 * ({@link RestartProbe}); the restarted child is stopped with SIGTERM at the end.
 */
final class MemoryProbe {

    /** Commands sent and not yet answered: enough to keep the app busy, few enough not to queue much. */
    static final int COMMANDS_IN_FLIGHT = 16;

    static final int ROUND_TRIPS = 20;
    static final int REQUEST_COUNT = 100;
    /** No reply for this long fails the run rather than hanging it. */
    private static final long STALL_SECONDS = 120;

    private static final String SPEC = "memory";

    private final PrintStream progress;
    private BenchReport.Restart restart;

    MemoryProbe(PrintStream progress) {
        this.progress = progress;
    }

    /** The restart after kill -9 at the end of the phase, once {@link #run} returned. */
    BenchReport.Restart restart() {
        return restart;
    }

    BenchReport.Memory run(BenchKafka kafka, String runId, Path tmp, long units, int batch, String heap)
            throws IOException, InterruptedException {
        String applicationId = runId + "-memory";
        String prefix = runId + "-memory.";
        Path dataDir = tmp.resolve("memory");
        Path log = tmp.resolve("memory-app.log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> jvmOptions = AppProcess.inheritedJvmOptions(
                ManagementFactory.getRuntimeMXBean().getInputArguments());
        List<String> command = AppProcess.command(
                java,
                jvmOptions,
                heap,
                System.getProperty("java.class.path"),
                kafka.bootstrapServers(),
                applicationId,
                prefix,
                dataDir);
        List<String> shown = new ArrayList<>(jvmOptions);
        shown.add("-Xmx" + heap);
        progress.println("   starting the app alone: java " + String.join(" ", shown) + " ... run --application-id "
                + applicationId + " (log: " + log + ")");
        try (AppProcess app = AppProcess.start(command, log)) {
            try {
                return measure(
                        kafka,
                        app,
                        runId,
                        prefix,
                        dataDir,
                        units,
                        batch,
                        heap,
                        command,
                        tmp.resolve("restart-app.log"));
            } catch (RuntimeException | InterruptedException e) {
                progress.println("   the memory phase failed; last lines of the app's log " + log + ":");
                progress.println(AppProcess.tail(log, 30));
                throw e;
            }
        }
    }

    private BenchReport.Memory measure(
            BenchKafka kafka,
            AppProcess app,
            String runId,
            String prefix,
            Path dataDir,
            long units,
            int batch,
            String heap,
            List<String> command,
            Path restartLog)
            throws IOException, InterruptedException {
        String namespace = "memory";
        try (CommandClient client = new CommandClient(kafka, new TopicNames(prefix), runId + "-memory-client")) {
            LifecycleLoad.defineSpec(client, namespace, SPEC);

            // Load: every command asks for a reply; a permit per command in flight.
            long commands = (units + batch - 1) / batch;
            Semaphore inFlight = new Semaphore(COMMANDS_IN_FLIGHT);
            AtomicLong replies = new AtomicLong();
            AtomicLong errors = new AtomicLong();
            AtomicReference<JsonNode> firstError = new AtomicReference<>();
            long[] rssByTenth = new long[10];
            int[] nextTenth = {1};
            long[] lastReplyAt = new long[1];
            client.onReply(r -> {
                JsonNode value = r.value();
                if (!value.path("request_id").asText("").startsWith("m-")) {
                    return;
                }
                if (!value.path("ok").asBoolean()) {
                    errors.incrementAndGet();
                    firstError.compareAndSet(null, value);
                }
                long done = replies.incrementAndGet();
                lastReplyAt[0] = r.nanos();
                while (nextTenth[0] <= 10 && done >= commands * nextTenth[0] / 10) { // replies come from one thread
                    rssByTenth[nextTenth[0] - 1] = app.status("VmRSS");
                    progress.printf(
                            Locale.ROOT,
                            "   %,d units added, app RSS %.0f MiB%n",
                            Math.min(units, done * batch),
                            rssByTenth[nextTenth[0] - 1] / 1048576.0);
                    nextTenth[0]++;
                }
                inFlight.release();
            });
            CpuMeter others = new CpuMeter(app::cpuTicks);
            long appTicksStarted = app.cpuTicks();
            long started = System.nanoTime();
            for (long c = 0; c < commands; c++) {
                while (!inFlight.tryAcquire(STALL_SECONDS, TimeUnit.SECONDS)) {
                    stalled(app, client, replies.get(), commands);
                }
                ObjectNode add = CommandClient.command("add_work_units", namespace);
                add.put("work_spec_name", SPEC);
                ArrayNode list = add.putArray("work_units");
                for (long i = c * batch; i < Math.min(units, (c + 1) * batch); i++) {
                    ObjectNode unit = list.addObject();
                    unit.put("name", LifecycleLoad.unitName("m", i));
                    unit.put("priority", i % 10);
                    unit.putObject("data").put("i", i);
                }
                add.put("reply_to", client.replyTo()).put("request_id", "m-" + c);
                client.send(namespace, add);
            }
            client.flush();
            // Every permit back: every command answered.
            long last = -1;
            while (!inFlight.tryAcquire(COMMANDS_IN_FLIGHT, STALL_SECONDS, TimeUnit.SECONDS)) {
                if (replies.get() == last) {
                    stalled(app, client, last, commands);
                }
                last = replies.get();
            }
            double wall = (System.nanoTime() - started) / 1e9;
            double addSeconds = (lastReplyAt[0] - started) / 1e9;
            long appTicks = app.cpuTicks();
            double appCores =
                    appTicks < 0 || appTicksStarted < 0 ? Double.NaN : (appTicks - appTicksStarted) / 100.0 / wall;
            double otherCores = others.otherProcessesCores();
            if (errors.get() > 0) {
                throw new IllegalStateException(
                        errors.get() + " add_work_units commands failed, the first: " + firstError.get());
            }

            // A few commits for the last writes to settle, then the figures.
            TimeUnit.MILLISECONDS.sleep(10 * AppConfig.DEFAULT_COMMIT_INTERVAL_MS);
            app.checkAlive();
            long rss = app.status("VmRSS");
            long rssAnon = app.status("RssAnon");
            long rssFile = app.status("RssFile");
            long heapCommitted = app.jvmCommitted("heap");
            long nonHeapCommitted = app.jvmCommitted("nonheap");
            long stateDir = BenchKafka.directoryBytes(dataDir.resolve("streams"));
            progress.printf(
                    Locale.ROOT,
                    "   %,d units in %.1f s; app RSS %.0f MiB, state dir %.0f MiB%n",
                    units,
                    addSeconds,
                    rss / 1048576.0,
                    stateDir / 1048576.0);

            // The app still works at that size.
            LatencyRecorder requests = new LatencyRecorder();
            LatencyRecorder finishes = new LatencyRecorder();
            roundTrips(client, app, namespace, requests, finishes);
            long rssPeak = app.status("VmHWM"); // the peak of the whole run, round trips included
            // And how long it takes to come back after a crash at that size.
            progress.println("   kill -9 under load and restart (log: " + restartLog + ")");
            restart = RestartProbe.run(client, app, command, restartLog, namespace, SPEC, progress);
            return new BenchReport.Memory(
                    units,
                    batch,
                    heap,
                    addSeconds,
                    rss,
                    rssPeak,
                    rssAnon,
                    rssFile,
                    heapCommitted,
                    nonHeapCommitted,
                    stateDir,
                    BoundedRocksDbMemory.TOTAL_BYTES,
                    rssByTenth,
                    requests.summary(),
                    finishes.summary(),
                    appCores,
                    otherCores);
        }
    }

    /** {@link #ROUND_TRIPS} times: request_attempts (count 100) → assignment → finish_attempts → reply. */
    private static void roundTrips(
            CommandClient client, AppProcess app, String namespace, LatencyRecorder requests, LatencyRecorder finishes)
            throws InterruptedException {
        String worker = namespace + "-w";
        BlockingQueue<CommandClient.Received> inbox = client.inbox(worker);
        for (int i = 0; i < ROUND_TRIPS; i++) {
            ObjectNode request = CommandClient.command("request_attempts", namespace);
            request.put("worker", worker).put("count", REQUEST_COUNT).put("request_id", "r-" + i);
            long sentAt = System.nanoTime();
            client.send(namespace, request);
            client.flush();
            CommandClient.Received assignment = inbox.poll(STALL_SECONDS, TimeUnit.SECONDS);
            if (assignment == null) {
                app.checkAlive();
                client.checkHealthy();
                throw new IllegalStateException("no assignment " + STALL_SECONDS + " s after request_attempts " + i);
            }
            requests.record(assignment.nanos() - sentAt);
            List<WorkerMessages.Attempt> attempts = WorkerMessages.attempts(assignment.bytes());
            if (attempts.size() != REQUEST_COUNT) {
                throw new IllegalStateException(
                        "request_attempts " + i + " got " + attempts.size() + " attempts, not " + REQUEST_COUNT);
            }
            String id = "f-" + i;
            byte[] finish = WorkerMessages.finishAttempts(namespace, attempts, client.replyTo(), id);
            CompletableFuture<CommandClient.Received> replied = new CompletableFuture<>();
            client.onReply(r -> {
                if (id.equals(r.value().path("request_id").asText())) {
                    replied.complete(r);
                }
            });
            sentAt = System.nanoTime();
            client.send(namespace, finish);
            client.flush();
            CommandClient.Received reply;
            try {
                reply = replied.get(STALL_SECONDS, TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException e) {
                app.checkAlive();
                client.checkHealthy();
                throw new IllegalStateException("no reply " + STALL_SECONDS + " s after finish_attempts " + i, e);
            }
            finishes.record(reply.nanos() - sentAt);
            JsonNode answer = reply.value();
            long finished = answer.path("result").path("finished").asLong();
            if (!answer.path("ok").asBoolean() || finished != REQUEST_COUNT) {
                throw new IllegalStateException("finish_attempts " + i + " failed: " + answer);
            }
        }
    }

    private static void stalled(AppProcess app, CommandClient client, long replies, long commands) {
        app.checkAlive();
        client.checkHealthy();
        throw new IllegalStateException("stalled: " + replies + " of " + commands
                + " add_work_units answered, none for " + STALL_SECONDS + " s");
    }
}
