package io.coordinate.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coordinate.cli.DevEnvironment;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The client's typed commands against a real broker and app: each reply, parsed, and a refusal's code. */
class CoordinateClientIT {

    @TempDir
    static Path dataDir;

    private static DevEnvironment env;
    private static CoordinateClient client;

    @BeforeAll
    static void start() throws Exception {
        env = DevEnvironment.start(0, 0, dataDir);
        client = CoordinateClient.builder()
                .bootstrapServers(env.bootstrapServers())
                .namespace("client-it")
                .build();
    }

    @AfterAll
    static void stop() {
        client.close();
        env.close();
    }

    @Test
    void specUnitsAndAttemptsThroughTypedCalls() {
        WorkSpecInfo spec = client.setWorkSpec(
                        WorkSpec.named("s").maxRetries(3).set("owner", "me").build())
                .join();
        assertThat(spec.name()).isEqualTo("s");
        assertThat(spec.data()).isEqualTo(Map.of("name", "s", "max_retries", 3, "owner", "me"));
        assertThat(spec.meta().get("max_retries")).isEqualTo(3);
        assertThat(spec.counts()).isEmpty();

        AddedUnits added = client.addWorkUnits(
                        "s",
                        List.of(
                                WorkUnit.named("a").data(Map.of("n", 1)).build(),
                                WorkUnit.named("b").priority(10).build()))
                .join();
        assertThat(added).isEqualTo(new AddedUnits(2, List.of("a", "b")));

        Assignment assignment = client.requestAttempts(AttemptRequest.forWorker("w1")
                        .count(2)
                        .lifetime(Duration.ofSeconds(60))
                        .build())
                .join();
        assertThat(assignment.worker()).isEqualTo("w1");
        assertThat(assignment.attempts()).extracting(Attempt::workUnitName).containsExactly("b", "a");
        Attempt a = assignment.attempts().get(1);
        assertThat(a.data()).isEqualTo(Map.of("n", 1));
        assertThat(Duration.between(a.startTime(), a.expirationTime())).isEqualTo(Duration.ofSeconds(60));

        AttemptInfo renewed = client.renewAttempt(a.attemptId(), Duration.ofSeconds(120), Map.of("progress", 1))
                .join();
        assertThat(renewed.status()).isEqualTo("pending");
        assertThat(renewed.data()).isEqualTo(Map.of("progress", 1));

        FinishedAttempts finished = client.finishAttempts(List.of(
                        new CoordinateClient.Finish(a.attemptId(), Map.of("out", "x")),
                        new CoordinateClient.Finish("999999", null)))
                .join();
        assertThat(finished.finished()).isEqualTo(1);
        assertThat(finished.errors())
                .extracting(FinishedAttempts.Refused::attemptId, FinishedAttempts.Refused::code)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("999999", "no_such_attempt"));

        AttemptInfo failed = client.failAttempt(assignment.attempts().get(0).attemptId(), Map.of("traceback", "t"))
                .join();
        assertThat(failed.status()).isEqualTo("failed");
        assertThat(failed.worker()).isEqualTo("w1");

        assertThat(client.resetWorkUnits("s", UnitQuery.statuses(List.of("failed")))
                        .join())
                .isEqualTo(1);
        assertThat(client.prioritizeWorkUnits("s", UnitQuery.names(List.of("a", "b")), 5)
                        .join())
                .isEqualTo(2);
        WorkSpecInfo paused = client.setWorkSpecMeta(
                        "s", WorkSpecChange.change().paused(true))
                .join();
        assertThat(paused.paused()).isTrue();
        assertThat(paused.counts()).isEqualTo(Map.of("available", 1L, "finished", 1L));
        assertThat(client.deleteWorkUnits("s", UnitQuery.all()).join()).isEqualTo(2);

        WorkerInfo worker = client.workerHeartbeat("w1", "host-a", "run", Map.of("pid", 7), Duration.ofSeconds(60))
                .join();
        assertThat(worker.parent()).isEqualTo("host-a");
        assertThat(worker.data()).isEqualTo(Map.of("pid", 7));
        assertThat(client.deactivateWorker("w1").join().active()).isFalse();
    }

    @Test
    void aRefusedCommandFailsWithItsCode() {
        assertThatThrownBy(() -> client.addWorkUnits(
                                "nope", List.of(WorkUnit.named("x").build()))
                        .join())
                .isInstanceOf(CompletionException.class)
                .cause()
                .isInstanceOf(CommandRefusedException.class)
                .extracting(e -> ((CommandRefusedException) e).code())
                .isEqualTo("no_such_work_spec");
        client.setWorkSpec(WorkSpec.named("q").build()).join();
        assertThatThrownBy(() -> client.deleteWorkUnits("q", UnitQuery.all().after("a"))
                        .thenCompose(n -> client.inNamespace("other").finishAttempt("1", null))
                        .join())
                .cause()
                .isInstanceOf(CommandRefusedException.class)
                .hasMessage("no_such_attempt: no attempt \"1\"");
    }

    @Test
    void aHundredThousandUnitsInOneCallAreAllAddedInOrder() throws Exception {
        // Far over Kafka's 1 MB record limit in one command: the client sends it in commands that fit, in order (the
        // last unit's parent is the first, added by an earlier command), and answers with the whole result.
        CoordinateClient big = client.inNamespace("client-big");
        big.setWorkSpec(WorkSpec.named("s").build()).join();
        int n = 100_000;
        List<WorkUnit> units = new java.util.ArrayList<>();
        List<String> names = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            String name = String.format(java.util.Locale.ROOT, "unit-%06d", i);
            names.add(name);
            WorkUnit.Builder unit = WorkUnit.named(name).data(Map.of("i", i));
            units.add((i == n - 1 ? unit.parent("s", names.get(0)) : unit).build());
        }
        AddedUnits added = big.addWorkUnits("s", units).join();
        assertThat(added.added()).isEqualTo(n);
        assertThat(added.workUnitNames()).isEqualTo(names);
        java.net.http.HttpResponse<String> spec = java.net.http.HttpClient.newHttpClient()
                .send(
                        java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + env.httpPort()
                                        + "/api/namespaces/client-big/work-specs/s"))
                                .build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
        // The child waits for its parent (docs/children-and-heirs.md): blocked.
        assertThat(io.coordinate.protocol.Json.parse(spec.body()).get("counts").toString())
                .isEqualTo("{\"blocked\":1,\"available\":" + (n - 1) + "}");
    }

    @Test
    void manyFinishesInOneCallAreSplitAndMerged() {
        CoordinateClient many = client.inNamespace("client-finishes");
        many.setWorkSpec(WorkSpec.named("s").build()).join();
        int n = 2_500;
        List<WorkUnit> units = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            units.add(WorkUnit.named("u" + i).build());
        }
        many.addWorkUnits("s", units).join();
        List<CoordinateClient.Finish> finishes = new java.util.ArrayList<>();
        while (finishes.size() < n) {
            for (Attempt attempt : many.requestAttempts(
                            AttemptRequest.forWorker("w").count(1000).build())
                    .join()
                    .attempts()) {
                finishes.add(new CoordinateClient.Finish(attempt.attemptId(), Map.of("ok", true)));
            }
        }
        finishes.add(new CoordinateClient.Finish("999999", null));
        FinishedAttempts done = many.finishAttempts(finishes).join();
        assertThat(done.finished()).isEqualTo(n);
        assertThat(done.errors())
                .extracting(FinishedAttempts.Refused::attemptId, FinishedAttempts.Refused::code)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("999999", "no_such_attempt"));
    }

    @Test
    void anUnreachableClusterIsOneErrorWithinTheTimeout() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort(); // closed again: nothing listens there
        }
        String address = "127.0.0.1:" + port;
        assertThatThrownBy(() -> CoordinateClient.builder()
                        .bootstrapServers(address)
                        .namespace("x")
                        .timeout(Duration.ofSeconds(3))
                        .build())
                .isInstanceOf(CoordinateUnreachableException.class)
                .hasMessageStartingWith("cannot reach Kafka at " + address + ": ");
    }

    // The bench's idle worker, started on a client just built, once failed with a WakeupException: the poller took
    // the watch before its wakeup() was consumed by a poll, and position() threw it.
    @Test
    void aWorkerStartsOnAClientJustBuilt() {
        for (int i = 0; i < 5; i++) {
            try (CoordinateClient fresh = CoordinateClient.builder()
                            .bootstrapServers(env.bootstrapServers())
                            .namespace("fresh")
                            .build();
                    Worker worker = Worker.builder(fresh)
                            .name("fresh-" + i)
                            .handler(attempt -> null)
                            .build()) {
                worker.start();
                assertThat(worker.name()).isEqualTo("fresh-" + i);
            }
        }
    }
}
