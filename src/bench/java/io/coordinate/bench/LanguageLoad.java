package io.coordinate.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.protocol.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * (g2) The lifecycle's units worked by a language client's worker (clients/python, clients/node): the units are
 * added as the lifecycle adds them, then {@code workers} conformance runner processes with {@code --noop} and
 * {@code concurrency} handlers each work them. Timed from the first runner's {@code ready} (its worker started; the
 * interpreter's own start is not counted) until the app's events show every unit finished.
 */
final class LanguageLoad {

    /** No progress for this long fails the run rather than hanging it. */
    private static final long STALL_SECONDS = 60;

    private final LifecycleLoad units;
    private final LanguageRunners language;
    private final Path projectDir = Path.of("").toAbsolutePath();
    /** The runner's command line, found when the load is made: a missing interpreter fails before any phase runs. */
    private final List<String> command;

    private final BenchKafka kafka;
    private final String eventsTopic;
    private final int workers;
    private final int concurrency;
    private final Path logs;

    LanguageLoad(
            LifecycleLoad units,
            LanguageRunners language,
            BenchKafka kafka,
            String eventsTopic,
            int workers,
            int concurrency,
            Path logs) {
        this.units = units;
        this.language = language;
        this.command = language.command(projectDir);
        this.kafka = kafka;
        this.eventsTopic = eventsTopic;
        this.workers = workers;
        this.concurrency = concurrency;
        this.logs = logs;
    }

    /** Adds {@code count} units to {@code namespace} and works them with the runners: a measured run or a warm-up. */
    BenchReport.LanguageRun work(String namespace, long count) throws Exception {
        units.addUnits(namespace, count);
        List<Process> runners = new ArrayList<>();
        AtomicLong firstReady = new AtomicLong();
        try (KafkaConsumer<String, byte[]> events = eventsAtTheirEnd()) {
            for (int w = 0; w < workers; w++) {
                List<String> line = new ArrayList<>(command);
                line.addAll(LanguageRunners.arguments(
                        kafka.bootstrapServers(),
                        namespace,
                        LifecycleLoad.SPEC,
                        concurrency,
                        30,
                        namespace + "-w" + w,
                        5,
                        true));
                ProcessBuilder builder = new ProcessBuilder(line)
                        .redirectError(Files.createDirectories(logs)
                                .resolve(namespace + "-w" + w + ".log")
                                .toFile());
                builder.environment().putAll(language.environment(projectDir));
                Process runner = builder.start();
                runners.add(runner);
                watchForReady(runner, firstReady);
            }
            long finishedAt = awaitFinished(events, namespace, count, runners);
            if (firstReady.get() == 0) {
                throw new IllegalStateException("every unit finished but no runner printed 'ready'");
            }
            return new BenchReport.LanguageRun(count, (finishedAt - firstReady.get()) / 1e9, workers, concurrency);
        } finally {
            stop(runners);
        }
    }

    /** A consumer of the events, at their end: what comes after is this run's. */
    private KafkaConsumer<String, byte[]> eventsAtTheirEnd() {
        KafkaConsumer<String, byte[]> consumer = kafka.consumer();
        List<TopicPartition> partitions = kafka.partitions(consumer, eventsTopic);
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        partitions.forEach(consumer::position); // resolves the end now, before the runners start
        return consumer;
    }

    /** Notes when the first runner prints {@code ready}; its stdout is read to the end. */
    private static void watchForReady(Process runner, AtomicLong firstReady) {
        Thread reader = new Thread(() -> {
            try (BufferedReader out =
                    new BufferedReader(new InputStreamReader(runner.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    if (line.equals("ready")) {
                        firstReady.compareAndSet(0, System.nanoTime());
                    }
                }
            } catch (IOException e) {
                // the runner was killed: its stdout is closed, and ready was seen or never will be
            }
        });
        reader.setDaemon(true);
        reader.start();
    }

    /** Counts the namespace's attempt_finished events until {@code count}; returns when (fails on a stall). */
    private long awaitFinished(
            KafkaConsumer<String, byte[]> events, String namespace, long count, List<Process> runners)
            throws IOException {
        long finished = 0;
        long lastProgress = System.nanoTime();
        while (true) {
            long before = finished;
            for (ConsumerRecord<String, byte[]> record : events.poll(Duration.ofMillis(20))) {
                if (namespace.equals(record.key())) {
                    for (JsonNode event : Json.parse(new String(record.value(), StandardCharsets.UTF_8))
                            .path("events")) {
                        if (event.path("type").asText().equals("attempt_finished")) {
                            finished++;
                        }
                    }
                }
            }
            long now = System.nanoTime();
            if (finished >= count) {
                return now;
            }
            if (finished != before) {
                lastProgress = now;
            } else if (now - lastProgress > TimeUnit.SECONDS.toNanos(STALL_SECONDS)) {
                throw new IllegalStateException("stalled: " + finished + " of " + count + " units finished after "
                        + STALL_SECONDS + " s without progress");
            }
            for (int w = 0; w < runners.size(); w++) {
                if (!runners.get(w).isAlive()) {
                    throw new IllegalStateException(
                            "runner " + w + " exited with " + runners.get(w).exitValue()
                                    + " after " + finished + " of " + count + " units; the end of its stderr:\n"
                                    + tail(logOf(namespace, w)));
                }
            }
        }
    }

    /** Where runner {@code w}'s stderr goes (the run's temporary directory, deleted at the end of the bench). */
    private Path logOf(String namespace, int w) throws IOException {
        return Files.createDirectories(logs).resolve(namespace + "-w" + w + ".log");
    }

    private static String tail(Path log) {
        try {
            String text = Files.readString(log);
            return text.substring(Math.max(0, text.length() - 4000));
        } catch (IOException e) {
            return e.toString();
        }
    }

    /**
     * SIGTERM to each runner, which stops its worker gracefully; killed if it has not ended within 30 s. With kill(1)
     * rather than {@link Process#destroy()}, which closes the runner's stdout while it still writes to it.
     */
    private static void stop(List<Process> runners) throws Exception {
        for (Process runner : runners) {
            new ProcessBuilder("kill", "-TERM", String.valueOf(runner.pid()))
                    .start()
                    .waitFor();
        }
        for (Process runner : runners) {
            if (!runner.waitFor(30, TimeUnit.SECONDS)) {
                runner.destroyForcibly();
            }
        }
    }
}
