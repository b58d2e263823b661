package io.coordinate.bench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The end of the memory phase: kill -9 of the loaded app under a load of adds, requests and finishes, then a restart
 * on its data dir. It measures the time from the restart to the READY line and to the reply to a command sent
 * while the app was down, and reads from the restarted app's log how many changelog records it restored and how many
 * units' indexes it rebuilt.
 */
final class RestartProbe {

    /** How long the load runs before the kill. */
    static final long LOAD_SECONDS = 10;
    /** A restart that takes longer fails the run. */
    static final long RESTART_SECONDS = 1800;

    private static final int ADD_BATCH = 100;
    private static final Pattern RESTORED = Pattern.compile("restored \\S+ from \\S+: (\\d+) records in (\\d+) ms");
    private static final Pattern REBUILT = Pattern.compile("rebuilt the indexes from (\\d+) units.* in (\\d+) ms");

    private RestartProbe() {}

    static BenchReport.Restart run(
            CommandClient client,
            AppProcess app,
            List<String> command,
            Path restartLog,
            String namespace,
            String spec,
            PrintStream progress)
            throws IOException, InterruptedException {
        Load load = new Load(client, namespace, spec);
        CompletableFuture<Long> answered = new CompletableFuture<>();
        client.onReply(
                r -> { // the client's one reply handler: the load's and the probe's replies
                    String id = r.value().path("request_id").asText("");
                    if (id.startsWith("k-")) {
                        load.inFlight.release();
                    } else if (id.equals("restart-probe")) {
                        answered.complete(r.nanos());
                    }
                });
        load.start();
        TimeUnit.SECONDS.sleep(LOAD_SECONDS);
        app.checkAlive();
        app.kill();
        load.stop();
        progress.printf(
                Locale.ROOT,
                "   killed the app (kill -9) after %d s of adds, requests and finishes (%,d commands)%n",
                LOAD_SECONDS,
                load.sent);

        ObjectNode probe = CommandClient.command("request_attempts", namespace);
        probe.put("worker", namespace + "-probe")
                .put("count", 1)
                .put("reply_to", client.replyTo())
                .put("request_id", "restart-probe");
        client.send(namespace, probe);
        client.flush();

        long started = System.nanoTime();
        try (AppProcess restarted = AppProcess.start(command, restartLog, RESTART_SECONDS)) {
            double ready = (System.nanoTime() - started) / 1e9;
            double firstReply;
            try {
                firstReply = (answered.get(RESTART_SECONDS, TimeUnit.SECONDS) - started) / 1e9;
            } catch (ExecutionException | TimeoutException e) {
                restarted.checkAlive();
                throw new IllegalStateException("no reply " + RESTART_SECONDS + " s after the restart", e);
            }
            BenchReport.Restart result = fromLog(restartLog, ready, firstReply);
            progress.printf(
                    Locale.ROOT,
                    "   restarted: READY after %.1f s, first reply after %.1f s; restored %,d records"
                            + " in %.1f s, rebuilt the indexes of %,d units in %.1f s%n",
                    ready,
                    firstReply,
                    result.restoredRecords(),
                    result.restoreSeconds(),
                    result.rebuiltUnits(),
                    result.rebuildSeconds());
            return result;
        }
    }

    /** The restores and rebuilds a restarted app's log tells of, with the times measured. */
    static BenchReport.Restart fromLog(Path log, double readySeconds, double firstReplySeconds) throws IOException {
        long restored = 0;
        long restoreMillis = 0;
        long rebuilt = 0;
        long rebuildMillis = 0;
        for (String line : Files.readAllLines(log)) {
            Matcher m = RESTORED.matcher(line);
            if (m.find()) {
                restored += Long.parseLong(m.group(1));
                restoreMillis = Math.max(restoreMillis, Long.parseLong(m.group(2)));
            }
            m = REBUILT.matcher(line);
            if (m.find()) {
                rebuilt += Long.parseLong(m.group(1));
                rebuildMillis += Long.parseLong(m.group(2));
            }
        }
        return new BenchReport.Restart(
                readySeconds, firstReplySeconds, restored, restoreMillis / 1e3, rebuilt, rebuildMillis / 1e3);
    }

    /**
     * Adds of new units, {@link MemoryProbe#COMMANDS_IN_FLIGHT} unanswered at most (a reply gives a permit back),
     * with a request_attempts (count 100) after every fourth, whose attempts are finished as they come.
     */
    private static final class Load {
        private final CommandClient client;
        private final String namespace;
        private final String spec;
        private final String worker;
        private final Semaphore inFlight = new Semaphore(MemoryProbe.COMMANDS_IN_FLIGHT);
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Thread adds;
        private final Thread finishes;
        volatile long sent;

        Load(CommandClient client, String namespace, String spec) {
            this.client = client;
            this.namespace = namespace;
            this.spec = spec;
            this.worker = namespace + "-load";
            this.adds = new Thread(this::add, "bench-restart-adds");
            this.finishes = new Thread(this::finish, "bench-restart-finishes");
        }

        void start() {
            adds.start();
            finishes.start();
        }

        void stop() throws InterruptedException {
            running.set(false);
            adds.join();
            finishes.join();
        }

        private void add() {
            try {
                for (long c = 0; running.get(); c++) {
                    if (!inFlight.tryAcquire(100, TimeUnit.MILLISECONDS)) {
                        continue;
                    }
                    ObjectNode add = CommandClient.command("add_work_units", namespace);
                    add.put("work_spec_name", spec);
                    ArrayNode list = add.putArray("work_units");
                    for (int i = 0; i < ADD_BATCH; i++) {
                        list.addObject()
                                .put("name", LifecycleLoad.unitName("k" + c + "-", i))
                                .put("priority", i % 10);
                    }
                    add.put("reply_to", client.replyTo()).put("request_id", "k-" + c);
                    client.send(namespace, add);
                    if (c % 4 == 0) {
                        ObjectNode request = CommandClient.command("request_attempts", namespace);
                        request.put("worker", worker).put("count", MemoryProbe.REQUEST_COUNT);
                        client.send(namespace, request);
                    }
                    sent = c + 1;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private void finish() {
            BlockingQueue<CommandClient.Received> inbox = client.inbox(worker);
            try {
                while (running.get()) {
                    CommandClient.Received assignment = inbox.poll(100, TimeUnit.MILLISECONDS);
                    if (assignment != null) {
                        client.send(
                                namespace,
                                WorkerMessages.finishAttempts(
                                        namespace, WorkerMessages.attempts(assignment.bytes()), null, null));
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
