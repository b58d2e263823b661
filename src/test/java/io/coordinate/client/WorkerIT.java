package io.coordinate.client;

import static io.coordinate.testing.SentCommands.has;
import static io.coordinate.testing.SentCommands.ofAttempt;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.TopicNames;
import io.coordinate.streams.topics.TopicBootstrapper;
import io.coordinate.streams.topics.TopicDefinitions;
import io.coordinate.testing.EventLedger;
import io.coordinate.testing.Poll;
import io.coordinate.testing.RunningApp;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Workers of the library against a real broker and app. */
class WorkerIT {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    static Path dataDir;

    private static RunningApp app;

    @BeforeAll
    static void start() throws Exception {
        app = RunningApp.start(dataDir);
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    private static CoordinateClient client(String namespace) {
        return CoordinateClient.builder()
                .bootstrapServers(app.env().bootstrapServers())
                .namespace(namespace)
                .build();
    }

    /** Unit {@code u} of spec {@code s} once it has {@code status}. */
    private static JsonNode awaitUnit(String ns, String u, String status) {
        return Poll.until(
                u + " " + status,
                WAIT,
                () -> unit(ns, "s", u),
                unit -> status.equals(unit.path("status").asText()));
    }

    /** Spec {@code s} with units of these names. */
    private static void specWithUnits(CoordinateClient client, String... names) {
        client.setWorkSpec(WorkSpec.named("s").build()).join();
        client.addWorkUnits(
                        "s",
                        java.util.Arrays.stream(names)
                                .map(name -> WorkUnit.named(name).build())
                                .toList())
                .join();
    }

    private static JsonNode unit(String ns, String spec, String unit) {
        return app.client()
                .get("/api/namespaces/" + ns + "/work-specs/" + spec + "/work-units/" + unit)
                .body();
    }

    @Test
    void eightWorkersFinishEveryOneOfAHundredThousandUnitsExactlyOnce() throws Exception {
        // Concurrency 16 and a prefetch of 256: with no-op handlers the round trip to the app sets the pace.
        String ns = "sdk-many";
        int units = 100_000;
        List<CoordinateClient> clients = new ArrayList<>();
        List<Worker> workers = new ArrayList<>();
        try (CoordinateClient producer = client(ns);
                EventLedger ledger = new EventLedger(app.env().bootstrapServers(), Set.of(ns), Set.of())) {
            producer.setWorkSpec(WorkSpec.named("s").build()).join();
            List<CompletableFuture<AddedUnits>> adds = new ArrayList<>();
            Set<EventLedger.UnitKey> expected = new HashSet<>();
            for (int batch = 0; batch < units / 1000; batch++) {
                List<WorkUnit> items = new ArrayList<>();
                for (int i = 0; i < 1000; i++) {
                    String name = String.format(Locale.ROOT, "u%06d", batch * 1000 + i);
                    items.add(WorkUnit.named(name).build());
                    expected.add(new EventLedger.UnitKey(ns, "s", name));
                }
                adds.add(producer.addWorkUnits("s", items));
            }
            adds.forEach(CompletableFuture::join);
            for (int i = 0; i < 8; i++) {
                CoordinateClient client = client(ns);
                clients.add(client);
                workers.add(Worker.builder(client)
                        .name("w" + i)
                        .workSpecs("s")
                        .concurrency(16)
                        .prefetch(256)
                        .handler(attempt -> null)
                        .build()
                        .start());
            }
            ledger.awaitUntil("every unit finished", Duration.ofMinutes(5), l -> l.finishedCount() == units);
            assertThat(ledger.unfinished(expected)).isEmpty();
            assertThat(ledger.violations()).isEmpty();
            for (EventLedger.UnitKey key : expected) {
                assertThat(ledger.unitOf(key).finishedTransitions)
                        .as("finishes of %s", key)
                        .isEqualTo(1);
            }
            Poll.until(
                    "the workers' own count",
                    WAIT,
                    () -> workers.stream().mapToLong(Worker::finished).sum(),
                    n -> n == units);
            assertThat(app.client()
                            .get("/api/namespaces/" + ns + "/work-specs/s")
                            .body()
                            .get("counts")
                            .toString())
                    .isEqualTo("{\"finished\":" + units + "}");
        } finally {
            workers.forEach(Worker::close);
            clients.forEach(CoordinateClient::close);
        }
    }

    /**
     * A request with no answer in time is sent again with the same request_id. The worker's client uses topics of
     * another prefix, which the app does not read: the test hands both copies of the request to the app, which hands
     * out one unit, not two, and answers each copy; it relays both answers to the worker, which runs the unit once.
     */
    @Test
    void anUnansweredRequestIsSentAgainWithTheSameRequestIdAndItsUnitRunsOnce() throws Exception {
        String ns = "sdk-resend";
        TopicNames held = new TopicNames("held-");
        TopicBootstrapper.ensureTopics(app.env().bootstrapServers(), held.prefix(), TopicDefinitions.fromClasspath());
        List<String> handled = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (CoordinateClient producer = client(ns);
                CoordinateClient relayed = CoordinateClient.builder()
                        .bootstrapServers(app.env().bootstrapServers())
                        .topicPrefix(held.prefix())
                        .namespace(ns)
                        .timeout(Duration.ofSeconds(3))
                        .build();
                Worker worker = Worker.builder(relayed)
                        .name("wh")
                        .prefetch(0) // a request for its one handler: one unit of the two handed out
                        .closeTimeout(Duration.ofMillis(100))
                        .handler(attempt -> {
                            handled.add(attempt.attemptId());
                            return null;
                        })
                        .build()) {
            producer.setWorkSpec(WorkSpec.named("s").build()).join();
            producer.addWorkUnits(
                            "s",
                            List.of(
                                    WorkUnit.named("u1").build(),
                                    WorkUnit.named("u2").build()))
                    .join();
            worker.start();
            List<JsonNode> requests = commands(
                            held,
                            records -> records.stream()
                                            .filter(command -> command.path("command")
                                                    .asText()
                                                    .equals("request_attempts"))
                                            .count()
                                    >= 2)
                    .stream()
                    .filter(command -> command.path("command").asText().equals("request_attempts"))
                    .toList();

            assertThat(requests.get(1)).as("the same command again").isEqualTo(requests.get(0));
            assertThat(requests.get(0).get("request_id").asText()).startsWith("wh-");
            for (JsonNode request : requests.subList(0, 2)) {
                app.client().send(TopicNames.COMMANDS, ns, request.toString());
            }
            List<JsonNode> answers = app.client().awaitValues(TopicNames.ASSIGNMENTS, "wh", 2);
            assertThat(answers.get(1)).isEqualTo(answers.get(0));
            assertThat(answers.get(0).get("attempts")).hasSize(1);
            String attemptId = answers.get(0).at("/attempts/0/attempt_id").asText();
            assertThat(app.client()
                            .get("/api/namespaces/" + ns + "/work-specs/s")
                            .body()
                            .get("counts")
                            .toString())
                    .isEqualTo("{\"available\":1,\"pending\":1}");

            app.client().send(held.assignments(), "wh", answers.get(0).toString());
            commands(
                    held,
                    commands -> commands.stream()
                            .anyMatch(command -> command.toString()
                                    .contains("\"finish_attempts\",\"attempts\":[{\"attempt_id\":\"" + attemptId
                                            + "\"")));
            app.client().send(held.assignments(), "wh", answers.get(1).toString());
            // Another request's answer after the copy: once its attempt has run, the copy has been dealt with.
            ObjectNode later = ((ObjectNode) answers.get(0).deepCopy()).put("request_id", "later");
            ((ObjectNode) later.at("/attempts/0")).put("attempt_id", "later-1");
            app.client().send(held.assignments(), "wh", later.toString());
            Poll.until("the later attempt handled", WAIT, () -> List.copyOf(handled), list -> list.contains("later-1"));
            assertThat(handled).as("the unit ran once").containsExactly(attemptId, "later-1");
        }
    }

    /** The commands on the topic of {@code topics}, read until {@code done} holds for them. */
    private static List<JsonNode> commands(TopicNames topics, Predicate<List<JsonNode>> done) {
        Function<List<ConsumerRecord<byte[], byte[]>>, List<JsonNode>> parse = records -> records.stream()
                .map(record -> Json.parse(new String(record.value(), StandardCharsets.UTF_8)))
                .toList();
        return parse.apply(app.client().readUntil(topics.commands(), records -> done.test(parse.apply(records))));
    }

    /** The commands of namespace {@code ns} on the app's commands topic, read until {@code done} holds for them. */
    private static List<JsonNode> commandsOf(String ns, Predicate<List<JsonNode>> done) {
        return app.client().valuesUntil(TopicNames.COMMANDS, ns, done);
    }

    @Test
    void aThrowingHandlerFailsTheAttemptWithItsStackTrace() {
        String ns = "sdk-fail";
        try (CoordinateClient client = client(ns)) {
            specWithUnits(client, "u");
            try (Worker worker = Worker.builder(client)
                    .name("wf")
                    .handler(attempt -> {
                        throw new IllegalStateException("boom");
                    })
                    .build()
                    .start()) {
                JsonNode unit = awaitUnit(ns, "u", "failed");
                assertThat(unit.path("data").path("traceback").asText())
                        .startsWith("java.lang.IllegalStateException: boom\n\tat io.coordinate.client.WorkerIT");
                assertThat(worker.failed()).isEqualTo(1);
                String attemptId = unit.at("/attempts/0/attempt_id").asText();
                List<JsonNode> fails =
                        ofAttempt(commandsOf(ns, has("fail_attempt")), "fail_attempt", attemptId).stream()
                                .map(Json::parse)
                                .toList();
                assertThat(fails).hasSize(1);
                assertThat(fails.get(0).path("retryable").isBoolean()).isTrue();
                assertThat(fails.get(0).path("retryable").asBoolean())
                        .as("a handler's exception fails as retryable")
                        .isTrue();
            }
        }
    }

    @Test
    void theHeartbeatSaysWhereWhatAndInWhichLanguageTheWorkerRuns() throws Exception {
        String ns = "sdk-heartbeat";
        try (CoordinateClient client = client(ns)) {
            client.setWorkSpec(WorkSpec.named("s").build()).join();
            try (Worker worker = Worker.builder(client)
                    .name("w-heartbeat")
                    .workSpecs("s")
                    .concurrency(3)
                    .environment("exec", "./run.sh")
                    .handler(attempt -> null)
                    .build()
                    .start()) {
                JsonNode data = Poll.until(
                                "the heartbeat of w-heartbeat",
                                WAIT,
                                () -> app.client().get("/api/namespaces/" + ns + "/workers/w-heartbeat"),
                                answer -> answer.status() == 200)
                        .body()
                        .path("data");
                assertThat(data)
                        .isEqualTo(Json.parse("{\"host\":\""
                                + java.net.InetAddress.getLocalHost().getHostName() + "\",\"pid\":"
                                + ProcessHandle.current().pid()
                                + ",\"concurrency\":3,\"work_specs\":[\"s\"],\"language\":\"java\","
                                + "\"exec\":\"./run.sh\"}"));
            }
        }
    }

    @Test
    void aFailAttemptExceptionFailsForGoodWithItsData() {
        String ns = "sdk-fail-permanent";
        try (CoordinateClient client = client(ns)) {
            specWithUnits(client, "u");
            try (Worker worker = Worker.builder(client)
                    .name("wp")
                    .handler(attempt -> {
                        throw new FailAttemptException("bad input", Map.of("traceback", "no such file"));
                    })
                    .build()
                    .start()) {
                JsonNode unit = awaitUnit(ns, "u", "failed");
                String attemptId = unit.at("/attempts/0/attempt_id").asText();
                assertThat(ofAttempt(commandsOf(ns, has("fail_attempt")), "fail_attempt", attemptId))
                        .containsExactly("{\"command\":\"fail_attempt\",\"attempt_id\":\"" + attemptId
                                + "\",\"data\":{\"traceback\":\"no such file\"}}");
                assertThat(worker.failed()).isEqualTo(1);
            }
        }
    }

    @Test
    void progressGoesInRenewalsAtMostOncePerSecondTheLatestValueWinning() {
        String ns = "sdk-progress";
        try (CoordinateClient client = client(ns)) {
            specWithUnits(client, "u");
            try (Worker worker = Worker.builder(client)
                    .name("wg")
                    .handler(attempt -> {
                        attempt.progress(0.1, "one");
                        attempt.progress(0.2, "two");
                        attempt.progress(0.3, "three");
                        Thread.sleep(2_000); // past the second the last two wait for
                        return null;
                    })
                    .build()
                    .start()) {
                JsonNode unit = awaitUnit(ns, "u", "finished");
                String attemptId = unit.at("/attempts/0/attempt_id").asText();
                String renew = "{\"command\":\"renew_attempt\",\"attempt_id\":\"" + attemptId
                        + "\",\"extend\":30.0,\"progress\":";
                // The first report goes at once unless the worker's thread takes the reports after the last one
                // (which then wins); the next ones, within the same second, wait and the last of them goes.
                List<String> sent = ofAttempt(commandsOf(ns, has("finish_attempts")), "renew_attempt", attemptId);
                String one = renew + "{\"fraction\":0.1,\"message\":\"one\"}}";
                String three = renew + "{\"fraction\":0.3,\"message\":\"three\"}}";
                assertThat(sent).isIn(List.of(one, three), List.of(three));
            }
        }
    }

    @Test
    void aCancellationNoticeInterruptsTheHandlerRunsItsCallbacksAndReportsNothing() throws Exception {
        String ns = "sdk-cancel-notice";
        CountDownLatch started = new CountDownLatch(1);
        CompletableFuture<String> handlerSaw = new CompletableFuture<>();
        List<String> callbacks = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (CoordinateClient client = client(ns)) {
            specWithUnits(client, "u1");
            Worker worker = Worker.builder(client)
                    .name("wx")
                    .backoff(Duration.ofMillis(100), Duration.ofMillis(200))
                    .handler(attempt -> {
                        if (!attempt.workUnitName().equals("u1")) {
                            return Map.of("ran", attempt.workUnitName());
                        }
                        attempt.onCancel(() -> callbacks.add(attempt.attemptId()));
                        started.countDown();
                        try {
                            new CountDownLatch(1).await(); // until interrupted by the cancellation
                        } catch (InterruptedException e) {
                            handlerSaw.complete("interrupted, cancelled=" + attempt.isCancelled());
                            throw e;
                        }
                        return null;
                    })
                    .build()
                    .start();
            started.await();
            String attemptId = unit(ns, "s", "u1").at("/attempts/0/attempt_id").asText();
            // What the app writes on a cancel: a record with no "attempts", which the reader must also survive.
            app.client()
                    .send(
                            TopicNames.ASSIGNMENTS,
                            "wx",
                            "{\"namespace\":\"" + ns + "\",\"worker\":\"wx\",\"cancelled\":[\"" + attemptId + "\"]}");
            assertThat(handlerSaw.get(60, java.util.concurrent.TimeUnit.SECONDS))
                    .isEqualTo("interrupted, cancelled=true");
            assertThat(callbacks).containsExactly(attemptId);

            client.addWorkUnits("s", List.of(WorkUnit.named("u2").build())).join();
            awaitUnit(ns, "u2", "finished");
            worker.close();
            List<JsonNode> commands = commandsOf(ns, has("deactivate_worker"));
            for (String name : List.of("finish_attempt", "fail_attempt", "retry_attempt")) {
                assertThat(ofAttempt(commands, name, attemptId)).as(name).isEmpty();
            }
            assertThat(commands.stream()
                            .filter(command -> command.path("command").asText().equals("finish_attempts"))
                            .flatMap(command -> java.util.stream.StreamSupport.stream(
                                    command.path("attempts").spliterator(), false))
                            .map(item -> item.path("attempt_id").asText())
                            .toList())
                    .as("finished attempts")
                    .doesNotContain(attemptId)
                    .hasSize(1);
            assertThat(worker.failed() + worker.retried()).isEqualTo(0);
            assertThat(worker.finished()).isEqualTo(1);
        }
    }

    /**
     * A renewal answered {@code cancelled}. The worker's client uses topics of another prefix, which the app does not
     * read: the test plays the app, hands the worker an attempt and refuses its renewal as the app refuses that of a
     * cancelled unit.
     */
    @Test
    void aRenewalAnsweredCancelledInterruptsTheHandlerAndReportsNothing() throws Exception {
        String ns = "sdk-cancel-renew";
        TopicNames fake = new TopicNames("fake-");
        TopicBootstrapper.ensureTopics(app.env().bootstrapServers(), fake.prefix(), TopicDefinitions.fromClasspath());
        CompletableFuture<String> handlerSaw = new CompletableFuture<>();
        List<String> callbacks = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (CoordinateClient client = CoordinateClient.builder()
                .bootstrapServers(app.env().bootstrapServers())
                .topicPrefix(fake.prefix())
                .namespace(ns)
                .timeout(Duration.ofSeconds(3))
                .build()) {
            Worker worker = Worker.builder(client)
                    .name("wy")
                    .lease(Duration.ofSeconds(4))
                    .closeTimeout(Duration.ofMillis(100))
                    .handler(attempt -> {
                        attempt.onCancel(() -> callbacks.add(attempt.attemptId()));
                        try {
                            new CountDownLatch(1).await(); // until interrupted by the cancellation
                        } catch (InterruptedException e) {
                            handlerSaw.complete("interrupted, cancelled=" + attempt.isCancelled());
                            throw e;
                        }
                        return null;
                    })
                    .build()
                    .start();
            app.client()
                    .send(
                            fake.assignments(),
                            "wy",
                            "{\"namespace\":\"" + ns + "\",\"worker\":\"wy\",\"request_id\":\"r\",\"attempts\":["
                                    + "{\"attempt_id\":\"c-1\",\"work_spec_name\":\"s\",\"work_unit_name\":\"u\","
                                    + "\"data\":{}}]}");
            JsonNode renew = commands(
                            fake,
                            commands ->
                                    !ofAttempt(commands, "renew_attempt", "c-1").isEmpty())
                    .stream()
                    .filter(command -> command.path("command").asText().equals("renew_attempt"))
                    .findFirst()
                    .orElseThrow();
            app.client()
                    .send(
                            fake.replies(),
                            renew.path("reply_to").asText(),
                            "{\"request_id\":\"" + renew.path("request_id").asText() + "\",\"ok\":false,"
                                    + "\"error\":{\"code\":\"cancelled\",\"message\":\"attempt c-1 was cancelled\"}}");
            assertThat(handlerSaw.get(60, java.util.concurrent.TimeUnit.SECONDS))
                    .isEqualTo("interrupted, cancelled=true");
            assertThat(callbacks).containsExactly("c-1");
            worker.close();
            List<JsonNode> commands = commands(fake, has("deactivate_worker"));
            for (String name : List.of("finish_attempt", "finish_attempts", "fail_attempt", "retry_attempt")) {
                assertThat(ofAttempt(commands, name, "c-1")).as(name).isEmpty();
            }
            assertThat(commands.stream()
                            .filter(command -> command.path("command").asText().equals("finish_attempts")))
                    .isEmpty();
        }
    }

    @Test
    void retryLaterGivesTheUnitBackAndItRunsAgain() {
        String ns = "sdk-retry";
        AtomicInteger calls = new AtomicInteger();
        try (CoordinateClient client = client(ns)) {
            specWithUnits(client, "u");
            try (Worker worker = Worker.builder(client)
                    .name("wr")
                    .backoff(Duration.ofMillis(100), Duration.ofMillis(200))
                    .handler(attempt -> {
                        if (calls.incrementAndGet() == 1) {
                            throw new RetryLaterException("rate limited", Duration.ofSeconds(1));
                        }
                        return Map.of("call", calls.get());
                    })
                    .build()
                    .start()) {
                JsonNode unit = awaitUnit(ns, "u", "finished");
                assertThat(unit.path("data").toString()).isEqualTo("{\"call\":2}");
                JsonNode attempts = unit.path("attempts");
                assertThat(attempts).hasSize(2);
                assertThat(attempts.get(0).path("status").asText()).isEqualTo("retryable");
                assertThat(attempts.get(0).path("data").toString()).isEqualTo("{\"traceback\":\"rate limited\"}");
                assertThat(attempts.get(1).path("status").asText()).isEqualTo("finished");
                assertThat(worker.retried()).isEqualTo(1);
            }
        }
    }

    @Test
    void anInterruptedHandlerGivesTheUnitBackNotFails() {
        // A handler stopped with its JVM or pool (an interrupt, possibly wrapped) did not fail its unit.
        String ns = "sdk-interrupted";
        AtomicInteger calls = new AtomicInteger();
        try (CoordinateClient client = client(ns)) {
            specWithUnits(client, "u");
            try (Worker worker = Worker.builder(client)
                    .name("wi")
                    .backoff(Duration.ofMillis(100), Duration.ofMillis(200))
                    .handler(attempt -> {
                        if (calls.incrementAndGet() == 1) {
                            throw new IllegalStateException(
                                    "shutting down", new InterruptedException("sleep interrupted"));
                        }
                        return Map.of("call", calls.get());
                    })
                    .build()
                    .start()) {
                JsonNode unit = awaitUnit(ns, "u", "finished");
                JsonNode attempts = unit.path("attempts");
                assertThat(attempts).hasSize(2);
                assertThat(attempts.get(0).path("status").asText()).isEqualTo("retryable");
                assertThat(attempts.get(0).path("data").toString())
                        .isEqualTo("{\"traceback\":\"the handler was "
                                + "interrupted: java.lang.IllegalStateException: shutting down\"}");
                assertThat(worker.failed()).isEqualTo(0);
                assertThat(worker.retried()).isEqualTo(1);
            }
        }
    }

    @Test
    void aLeaseIsRenewedWhileTheHandlerRuns() {
        String ns = "sdk-renew";
        try (CoordinateClient client = client(ns)) {
            specWithUnits(client, "u");
            // The handler outlives two leases of 2 s: only renewals keep the attempt.
            try (Worker worker = Worker.builder(client)
                    .name("wl")
                    .lease(Duration.ofSeconds(2))
                    .handler(attempt -> {
                        Thread.sleep(5_000);
                        return Map.of("slow", true);
                    })
                    .build()
                    .start()) {
                JsonNode unit = awaitUnit(ns, "u", "finished");
                assertThat(unit.path("attempts")).hasSize(1);
                assertThat(unit.path("attempts").get(0).path("status").asText()).isEqualTo("finished");
            }
        }
    }

    @Test
    void closeGivesBackWhatStillRunsAndDeactivatesTheWorker() throws Exception {
        String ns = "sdk-close";
        CountDownLatch started = new CountDownLatch(1);
        try (CoordinateClient client = client(ns)) {
            specWithUnits(client, "u");
            Worker worker = Worker.builder(client)
                    .name("wc")
                    .closeTimeout(Duration.ofMillis(500))
                    .handler(attempt -> {
                        started.countDown();
                        new CountDownLatch(1).await(); // until interrupted by close()
                        return null;
                    })
                    .build()
                    .start();
            started.await();
            worker.close();
            JsonNode unit = unit(ns, "s", "u");
            assertThat(unit.path("status").asText()).isEqualTo("available");
            assertThat(unit.path("attempts").get(0).path("status").asText()).isEqualTo("retryable");
            assertThat(unit.path("attempts").get(0).path("data").toString())
                    .isEqualTo("{\"traceback\":\"the worker stopped while it ran\"}");
            String attemptId = unit.at("/attempts/0/attempt_id").asText();
            assertThat(ofAttempt(commandsOf(ns, has("deactivate_worker")), "retry_attempt", attemptId))
                    .as("a release: the attempt is not counted")
                    .containsExactly("{\"command\":\"retry_attempt\",\"attempt_id\":\"" + attemptId
                            + "\",\"data\":{\"traceback\":\"the worker stopped while it ran\"},\"delay\":0.0,"
                            + "\"release\":true}");
            JsonNode record =
                    app.client().get("/api/namespaces/" + ns + "/workers/wc").body();
            assertThat(record.path("active").asBoolean()).isFalse();
            assertThat(record.path("data").path("concurrency").asInt()).isEqualTo(1);
            assertThat(worker.retried()).isEqualTo(1);
        }
    }

    @Test
    void closeGivesBackQueuedAttemptsThatNoHandlerStarted() throws Exception {
        String ns = "sdk-close-queued";
        CountDownLatch started = new CountDownLatch(1);
        AtomicReference<String> running = new AtomicReference<>();
        try (CoordinateClient client = client(ns)) {
            client.setWorkSpec(WorkSpec.named("s").build()).join();
            client.addWorkUnits(
                            "s",
                            List.of(
                                    WorkUnit.named("u1").build(),
                                    WorkUnit.named("u2").build(),
                                    WorkUnit.named("u3").build()))
                    .join();
            Worker worker = Worker.builder(client)
                    .name("wq")
                    .concurrency(1)
                    .prefetch(2)
                    .closeTimeout(Duration.ofMillis(500))
                    .handler(attempt -> {
                        running.compareAndSet(null, attempt.workUnitName());
                        started.countDown();
                        new CountDownLatch(1).await(); // until interrupted by close()
                        return null;
                    })
                    .build()
                    .start();
            started.await(); // the one request asked for all three: one runs, two wait behind it
            worker.close();
            assertThat(worker.retried()).isEqualTo(3);
            for (String name : List.of("u1", "u2", "u3")) {
                JsonNode unit = unit(ns, "s", name);
                assertThat(unit.path("status").asText()).as(name).isEqualTo("available");
                assertThat(unit.path("attempts")
                                .get(0)
                                .path("data")
                                .path("traceback")
                                .asText())
                        .as(name)
                        .isEqualTo(
                                name.equals(running.get())
                                        ? "the worker stopped while it ran"
                                        : "the worker stopped before it started");
            }
        }
    }

    /**
     * At the defaults a worker of short handlers holds a queue sized from what it measured, so its requests carry many
     * units each: a worker that asked only for its 2 handlers would send at least 1,500 requests for 3,000 units.
     */
    @Test
    void atTheDefaultsShortHandlersGetManyUnitsPerRequest() {
        String ns = "sdk-adaptive";
        int units = 3_000;
        try (CoordinateClient client = client(ns)) {
            specWithUnits(
                    client,
                    java.util.stream.IntStream.range(0, units)
                            .mapToObj(i -> String.format(Locale.ROOT, "u%04d", i))
                            .toArray(String[]::new));
            Worker worker = Worker.builder(client)
                    .name("wa")
                    .concurrency(2)
                    .handler(attempt -> {
                        Thread.sleep(1);
                        return null;
                    })
                    .build()
                    .start();
            try {
                Poll.until("every unit finished", WAIT, worker::finished, n -> n == units);
            } finally {
                worker.close();
            }
            assertThat(worker.requests()).isLessThan(300);
            assertThat(worker.failed()).isZero();
        }
    }

    /** {@code maxHeld(0)} queues nothing: each request asks for the one free handler only. */
    @Test
    void maxHeldBoundsTheQueueTheWorkerSizes() {
        String ns = "sdk-max-held";
        try (CoordinateClient client = client(ns)) {
            specWithUnits(client, "u1", "u2", "u3", "u4", "u5", "u6");
            Worker worker = Worker.builder(client)
                    .name("wm")
                    .maxHeld(0)
                    .handler(attempt -> null)
                    .build()
                    .start();
            try {
                Poll.until("every unit finished", WAIT, worker::finished, n -> n == 6);
            } finally {
                worker.close();
            }
            assertThat(worker.requests()).isGreaterThanOrEqualTo(6);
        }
    }
}
