package io.coordinate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.cli.CliRun.Result;
import io.coordinate.client.Attempt;
import io.coordinate.client.AttemptRequest;
import io.coordinate.client.CoordinateClient;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.Times;
import io.coordinate.testing.KafkaTestClient;
import io.coordinate.testing.Poll;
import io.coordinate.testing.RunningApp;
import io.coordinate.testing.SseStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The operator commands of {@code bin/coordinate} against a real broker and the app, as an operator runs them. */
class OperatorCommandsIT {

    private static final String NL = System.lineSeparator();
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    static Path dataDir;

    private static RunningApp app;

    @BeforeAll
    static void start() throws Exception {
        app = RunningApp.start(dataDir.resolve("env"));
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    /** Runs {@code bin/coordinate args...} against the test's deployment, in namespace {@code ns}. */
    private static Result coordinate(String ns, String... args) {
        return CliRun.run(app, ns, args);
    }

    private static Result ok(String ns, String... args) {
        Result result = coordinate(ns, args);
        assertThat(result.exit())
                .as("exit of %s; stderr: %s", List.of(args), result.err())
                .isEqualTo(0);
        return result;
    }

    private static JsonNode counts(String ns, String spec) {
        return app.client()
                .get("/api/namespaces/" + ns + "/work-specs/" + spec)
                .body()
                .path("counts");
    }

    @Test
    void anOperatorDefinesASpecAddsUnitsAndManagesThem() throws Exception {
        String ns = "ops";
        Path specFile = Files.writeString(
                dataDir.resolve("spec.json"), "{\"name\": \"s\", \"priority\": 10, \"max_retries\": 2, \"nice\": 5}");
        assertThat(ok(ns, "spec", "set", specFile.toString()).out()).isEqualTo("set spec \"s\"" + NL);

        JsonNode spec = ok(ns, "spec", "get", "s", "--json").json();
        assertThat(spec.get("data"))
                .isEqualTo(Json.parse("{\"name\":\"s\",\"priority\":10,\"max_retries\":2,\"nice\":5}"));
        assertThat(spec.at("/meta/priority").asInt()).isEqualTo(10);
        assertThat(spec.at("/meta/max_retries").asInt()).isEqualTo(2);
        assertThat(spec.at("/meta/paused").asBoolean()).isFalse();
        JsonNode specs = ok(ns, "spec", "list", "--json").json().get("work_specs");
        assertThat(specs).hasSize(1);
        assertThat(specs.get(0).get("name").asText()).isEqualTo("s");

        // 50 units, u00..u49, priority = number: sent in 8 batches of at most 7.
        String lines = IntStream.range(0, 50)
                .mapToObj(i -> String.format("{\"name\": \"u%02d\", \"priority\": %d, \"data\": {\"i\": %d}}", i, i, i))
                .collect(Collectors.joining("\n", "", "\n"));
        Path unitsFile = Files.writeString(dataDir.resolve("units.jsonl"), lines);
        assertThat(ok(ns, "units", "add", "--spec", "s", "--batch-size", "7", unitsFile.toString())
                        .out())
                .isEqualTo("added 50 units to spec \"s\"" + NL);
        Poll.until(
                "50 available units",
                WAIT,
                () -> counts(ns, "s"),
                c -> c.path("available").asInt() == 50);
        assertThat(counts(ns, "s")).isEqualTo(Json.parse("{\"available\":50}"));

        JsonNode page = ok(ns, "units", "list", "--spec", "s", "--limit", "10", "--json")
                .json();
        assertThat(page.get("work_units")).hasSize(10);
        assertThat(page.at("/work_units/0"))
                .isEqualTo(Json.parse(
                        "{\"name\":\"u00\",\"status\":\"available\",\"priority\":0,\"data\":{\"i\":0},\"not_before\":null,"
                                + "\"active_attempt\":null,\"attempt_count\":0,\"last_error\":null,"
                                + "\"next_attempt_at\":null,\"retrying\":false}"));
        assertThat(page.get("next").asText()).isEqualTo("u09");
        JsonNode rest = ok(ns, "units", "list", "--spec", "s", "--after", "u09", "--limit", "100", "--json")
                .json();
        assertThat(rest.get("work_units")).hasSize(40);
        assertThat(rest.at("/work_units/0/name").asText()).isEqualTo("u10");
        assertThat(rest.get("next").isNull()).isTrue();
        Result table = ok(ns, "units", "list", "--spec", "s", "--limit", "2");
        assertThat(table.out())
                .isEqualTo("NAME  STATUS     PRIORITY  ATTEMPT  DATA" + NL
                        + "u00   available         0  -        {\"i\":0}" + NL
                        + "u01   available         1  -        {\"i\":1}" + NL);
        assertThat(table.err()).isEqualTo("more: pass --after u01" + NL);

        // A worker fails the three best units.
        try (CoordinateClient client = CoordinateClient.builder()
                .bootstrapServers(app.env().bootstrapServers())
                .namespace(ns)
                .timeout(WAIT)
                .build()) {
            List<Attempt> attempts = client.requestAttempts(
                            AttemptRequest.forWorker("w1").count(3).build())
                    .join()
                    .attempts();
            assertThat(attempts).extracting(Attempt::workUnitName).containsExactly("u49", "u48", "u47");
            for (Attempt attempt : attempts) {
                client.failAttempt(attempt.attemptId(), Map.of("traceback", "boom"))
                        .join();
            }
        }
        Poll.until(
                "3 failed units",
                WAIT,
                () -> counts(ns, "s"),
                c -> c.path("failed").asInt() == 3);
        JsonNode u49 = ok(ns, "units", "status", "--spec", "s", "u49", "--json").json();
        assertThat(u49.get("status").asText()).isEqualTo("failed");
        assertThat(u49.get("data")).isEqualTo(Json.parse("{\"traceback\":\"boom\"}"));
        assertThat(u49.get("attempts")).hasSize(1);
        assertThat(u49.at("/attempts/0/worker").asText()).isEqualTo("w1");
        String status = ok(ns, "units", "status", "--spec", "s", "u49").out();
        assertThat(status)
                .contains("status           failed" + NL)
                .contains("attempt_count    1" + NL)
                .contains("data             {\"traceback\":\"boom\"}" + NL)
                .contains(NL + "last_error:" + NL + "  boom" + NL)
                .contains("ATTEMPT  WORKER  STATUS  START");
        JsonNode failed = ok(ns, "units", "list", "--spec", "s", "--status", "failed", "--json")
                .json();
        assertThat(failed.findValuesAsText("name")).containsExactly("u47", "u48", "u49");

        assertThat(ok(ns, "summary").out())
                .isEqualTo(
                        "SPEC   BLOCKED  DELAYED  AVAILABLE  PENDING  WAITING  FINISHED  FAILED  CANCELLED  TOTAL" + NL
                                + "s            0        0         47        0        0         0       3          0     50"
                                + NL
                                + "(all)        0        0         47        0        0         0       3          0     50"
                                + NL);
        assertThat(ok(ns, "summary", "--json").json().get("counts"))
                .isEqualTo(Json.parse("{\"available\":47,\"failed\":3}"));

        JsonNode workers = ok(ns, "workers", "list", "--json").json().get("workers");
        assertThat(workers.findValuesAsText("name")).containsExactly("w1");
        assertThat(ok(ns, "workers", "list").out())
                .startsWith("NAME  ACTIVE  EXPIRED  MODE  PARENT  ATTEMPTS  LAST_UPDATE" + NL + "w1    true    false");

        // Reset every unit: the failed ones run again.
        assertThat(ok(ns, "units", "reset", "--spec", "s", "--all").out()).isEqualTo("reset 50 units" + NL);
        Poll.until(
                "50 available units again",
                WAIT,
                () -> counts(ns, "s"),
                c -> c.path("available").asInt() == 50);

        // Delete the available units but two handed out.
        try (CoordinateClient client = CoordinateClient.builder()
                .bootstrapServers(app.env().bootstrapServers())
                .namespace(ns)
                .timeout(WAIT)
                .build()) {
            assertThat(client.requestAttempts(
                                    AttemptRequest.forWorker("w2").count(2).build())
                            .join()
                            .attempts())
                    .hasSize(2);
        }
        assertThat(ok(ns, "units", "delete", "--spec", "s", "--status", "available", "--json")
                        .json())
                .isEqualTo(Json.parse("{\"deleted\":48}"));
        Poll.until("2 pending units left", WAIT, () -> counts(ns, "s"), c -> c.equals(Json.parse("{\"pending\":2}")));

        assertThat(ok(ns, "spec", "pause", "s").out()).isEqualTo("paused spec \"s\"" + NL);
        assertThat(ok(ns, "spec", "get", "s", "--json")
                        .json()
                        .at("/meta/paused")
                        .asBoolean())
                .isTrue();
        assertThat(ok(ns, "spec", "resume", "s", "--json")
                        .json()
                        .at("/meta/paused")
                        .asBoolean())
                .isFalse();
        assertThat(ok(ns, "spec", "get", "s").out())
                .contains("paused                 false" + NL)
                .contains("units pending          2" + NL);

        // Cancel the pending units: they are settled at once, as cancelled.
        assertThat(ok(ns, "units", "cancel", "--spec", "s", "--status", "pending")
                        .out())
                .isEqualTo("cancelled 2 units" + NL);
        Poll.until("2 cancelled units", WAIT, () -> counts(ns, "s"), c -> c.equals(Json.parse("{\"cancelled\":2}")));
    }

    @Test
    void aValueTheApiCallsBadIsExit2() {
        app.call("ops-bad-status", "{\"command\":\"set_work_spec\",\"work_spec\":{\"name\":\"s\"}}");
        Result bad = coordinate("ops-bad-status", "units", "list", "--spec", "s", "--status", "nosuch");
        assertThat(bad.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(bad.err()).isEqualTo("error: bad_request: unknown status \"nosuch\"" + NL);
        assertThat(bad.out()).isEmpty();
    }

    @Test
    void whatDoesNotExistIsExit1WithTheErrorCode() {
        Result refused = coordinate("ops-missing", "spec", "pause", "nosuch");
        assertThat(refused.exit()).isEqualTo(ExitCodes.REFUSED);
        assertThat(refused.err()).startsWith("error: no_such_work_spec: ");
        assertThat(refused.err().lines()).hasSize(1);
        assertThat(refused.out()).isEmpty();
        Result missing = coordinate("ops-missing", "units", "status", "--spec", "s", "u1");
        assertThat(missing.exit()).isEqualTo(ExitCodes.REFUSED);
        assertThat(missing.err()).isEqualTo("error: no_such_namespace: no namespace \"ops-missing\"" + NL);
    }

    @Test
    void deadLettersTailShowsAMalformedRecord() {
        app.client().send("coordinate.commands", "dl", "{oops");
        Result tail = Poll.until(
                "the dead letter",
                WAIT,
                () -> ok("dl", "dead-letters", "tail", "--from-beginning", "--json"),
                r -> !r.out().isEmpty());
        assertThat(tail.out().lines()).hasSize(1);
        JsonNode record = tail.json();
        assertThat(record.get("key").asText()).isEqualTo("dl");
        assertThat(record.get("value").asText()).isEqualTo("{oops");
        assertThat(record.at("/headers/error.code").asText()).isEqualTo("malformed_json");
        assertThat(record.at("/headers/source.topic").asText()).isEqualTo("coordinate.commands");
        String human = ok("dl", "dead-letters", "tail", "--from-beginning").out();
        assertThat(human)
                .startsWith("key=dl error.code=malformed_json source=coordinate.commands/"
                        + record.at("/headers/source.partition").asText() + "@"
                        + record.at("/headers/source.offset").asText()
                        + " error.message=value is not JSON: ");
        assertThat(human.lines()).hasSize(1);
        assertThat(ok("dl", "dead-letters", "tail", "--last", "0").out()).isEmpty();
        // Without --from-beginning: the last records (10 by default), oldest first.
        app.client().send("coordinate.commands", "dl", "{oops2");
        app.client().send("coordinate.commands", "dl", "{oops3");
        Poll.until(
                "three dead letters",
                WAIT,
                () -> ok("dl", "dead-letters", "tail", "--json"),
                r -> r.out().lines().count() == 3);
        assertThat(ok("dl", "dead-letters", "tail", "--last", "2", "--json")
                        .out()
                        .lines()
                        .map(line -> Json.parse(line).get("value").asText())
                        .toList())
                .containsExactly("{oops2", "{oops3");
    }

    /** The committed batch records of {@code ns} on the events topic, in offset order, once there are {@code n}. */
    private static List<ConsumerRecord<byte[], byte[]>> batches(String ns, int n) {
        return app
                .client()
                .readUntil(
                        "coordinate.events",
                        records -> records.stream()
                                        .filter(r -> ns.equals(KafkaTestClient.keyOf(r)))
                                        .count()
                                >= n)
                .stream()
                .filter(r -> ns.equals(KafkaTestClient.keyOf(r)))
                .toList();
    }

    private static String value(ConsumerRecord<byte[], byte[]> record) {
        return new String(record.value(), StandardCharsets.UTF_8);
    }

    private static URI events(String ns, String query) {
        return URI.create("http://127.0.0.1:" + app.env().httpPort() + "/api/namespaces/" + ns + "/events" + query);
    }

    @Test
    void theEventFeedSendsTheNamespacesBatchesInOrderAndResumesAfterTheLastEventId() {
        String ns = "feed";
        List<SseParser.Message> live = new ArrayList<>();
        try (SseStream stream = SseStream.open(events(ns, ""), null)) {
            assertThat(stream.status()).isEqualTo(200);
            // From now: the namespace has no events yet, so the stream is caught up at once, before any command.
            SseParser.Message caughtUp = stream.next(WAIT);
            assertThat(caughtUp.event()).isEqualTo("caught_up");
            assertThat(caughtUp.id()).isNull();
            app.call(ns, "{\"command\":\"set_work_spec\",\"work_spec\":{\"name\":\"s\"}}");
            app.call(
                    ns,
                    "{\"command\":\"add_work_units\",\"work_spec_name\":\"s\","
                            + "\"work_units\":[{\"name\":\"u1\"},{\"name\":\"u2\",\"priority\":5}]}");
            live.add(stream.next(WAIT));
            live.add(stream.next(WAIT));
        }
        List<ConsumerRecord<byte[], byte[]>> onTopic = batches(ns, 2);
        assertThat(onTopic).hasSize(2);
        assertThat(live)
                .containsExactly(
                        new SseParser.Message(
                                "batch", Long.toString(onTopic.get(0).offset()), value(onTopic.get(0))),
                        new SseParser.Message(
                                "batch", Long.toString(onTopic.get(1).offset()), value(onTopic.get(1))));
        JsonNode first = Json.parse(live.get(0).data());
        assertThat(first.get("namespace").asText()).isEqualTo(ns);
        assertThat(first.get("events"))
                .isEqualTo(Json.parse("[{\"type\":\"work_spec_set\",\"work_spec_name\":\"s\",\"created\":true}]"));
        assertThat(Json.parse(live.get(1).data()).get("events").findValuesAsText("work_unit_name"))
                .containsExactly("u1", "u2");

        // A reconnecting EventSource sends the last id it saw: the stream goes on after it.
        try (SseStream resumed =
                SseStream.open(events(ns, "?from=earliest"), live.get(0).id())) {
            assertThat(resumed.next(WAIT)).isEqualTo(live.get(1));
            SseParser.Message caughtUp = resumed.next(WAIT);
            assertThat(caughtUp.event()).isEqualTo("caught_up");
            assertThat(Json.parse(caughtUp.data()).get("end_offset").asLong())
                    .isGreaterThan(onTopic.get(1).offset());
        }
        // From the oldest batch kept, or from an offset: the namespace's batches only, though the partition has others.
        try (SseStream all = SseStream.open(events(ns, "?from=earliest"), null)) {
            assertThat(List.of(all.next(WAIT), all.next(WAIT))).isEqualTo(live);
            assertThat(all.next(WAIT).event()).isEqualTo("caught_up");
        }
        try (SseStream fromSecond =
                SseStream.open(events(ns, "?from=" + live.get(1).id()), null)) {
            assertThat(fromSecond.next(WAIT)).isEqualTo(live.get(1));
            assertThat(fromSecond.next(WAIT).event()).isEqualTo("caught_up");
        }
    }

    @Test
    void eventsTailPrintsTheBatchesUpToTheEndAndStops() {
        String ns = "tail";
        app.call(ns, "{\"command\":\"set_work_spec\",\"work_spec\":{\"name\":\"s\"}}");
        app.call(ns, "{\"command\":\"add_work_units\",\"work_spec_name\":\"s\",\"work_units\":[{\"name\":\"u1\"}]}");
        List<ConsumerRecord<byte[], byte[]>> onTopic = batches(ns, 2);
        String time0 = Json.parse(value(onTopic.get(0))).get("time").asText();
        String time1 = Json.parse(value(onTopic.get(1))).get("time").asText();

        Result lines = ok(ns, "events", "tail", "--from", "earliest");
        assertThat(lines.out())
                .isEqualTo(time0 + " @" + onTopic.get(0).offset() + " work_spec_set spec=s created=true" + NL + time1
                        + " @" + onTopic.get(1).offset() + " unit_added spec=s unit=u1 status=available priority=0"
                        + NL);
        assertThat(ok(ns, "events", "tail", "--from", "earliest", "--json").out())
                .isEqualTo(value(onTopic.get(0)) + NL + value(onTopic.get(1)) + NL);
        assertThat(ok(
                                ns,
                                "events",
                                "tail",
                                "--from",
                                Long.toString(onTopic.get(1).offset()),
                                "--json")
                        .out())
                .isEqualTo(value(onTopic.get(1)) + NL);
        assertThat(ok(ns, "events", "tail").out()).isEmpty(); // from now: nothing has come yet
    }

    @Test
    void deadLettersOverHttpAreListedAndRetried() {
        String ns = "dlh";
        var sent = app.client().send("coordinate.commands", ns, "{broken");
        JsonNode listed = Poll.until(
                "the dead letter over HTTP",
                WAIT,
                () -> app.client()
                        .get("/api/dead-letters?namespace=" + ns)
                        .body()
                        .get("dead_letters"),
                l -> l.size() == 1);
        ConsumerRecord<byte[], byte[]> original = deadLetters(ns, 1).get(0);
        JsonNode entry = listed.get(0);
        assertThat(entry.get("error_message").asText()).startsWith("value is not JSON: ");
        ((ObjectNode) entry).remove("error_message");
        assertThat(entry)
                .isEqualTo(Json.parse("{\"partition\":" + original.partition() + ",\"offset\":"
                        + original.offset() + ",\"timestamp\":\"" + Times.format(original.timestamp())
                        + "\",\"key\":\"dlh\","
                        + "\"error_code\":\"malformed_json\",\"source_topic\":\"coordinate.commands\",\"source_partition\":"
                        + sent.partition() + ",\"source_offset\":" + sent.offset() + ",\"value_preview\":\"{broken\","
                        + "\"retryable\":true}"));

        KafkaTestClient.HttpAnswer retried =
                app.client().post("/api/dead-letters/" + original.partition() + "/" + original.offset() + "/retry", "");
        assertThat(retried.status()).as("%s", retried.body()).isEqualTo(200);
        JsonNode sentTo = retried.body().get("sent_to");
        assertThat(retried.body())
                .isEqualTo(Json.parse("{\"retried\":{\"partition\":" + original.partition()
                        + ",\"offset\":" + original.offset()
                        + "},\"sent_to\":{\"topic\":\"coordinate.commands\",\"partition\":"
                        + sentTo.get("partition").asInt() + ",\"offset\":"
                        + sentTo.get("offset").asLong() + "}}"));
        // Sent again as it was, key and value, to the namespace's partition; still malformed: a second dead letter.
        ConsumerRecord<byte[], byte[]> again = deadLetters(ns, 2).get(1);
        assertThat(again.offset()).isGreaterThan(original.offset());
        assertThat(value(again)).isEqualTo("{broken");
        assertThat(header(again, "source.partition"))
                .isEqualTo(sentTo.get("partition").asText());
        assertThat(header(again, "source.offset"))
                .isEqualTo(sentTo.get("offset").asText());
        assertThat(again.headers().lastHeader("coordinate.rerouted")).isNull();
        JsonNode both = Poll.until(
                "two dead letters over HTTP",
                WAIT,
                () -> app.client()
                        .get("/api/dead-letters?namespace=" + ns)
                        .body()
                        .get("dead_letters"),
                l -> l.size() == 2);
        assertThat(both.findValuesAsText("offset"))
                .containsExactly(Long.toString(again.offset()), Long.toString(original.offset())); // newest first
        assertThat(app.client()
                        .get("/api/dead-letters?namespace=" + ns + "&limit=1")
                        .body()
                        .get("dead_letters")
                        .findValuesAsText("offset"))
                .containsExactly(Long.toString(again.offset()));

        KafkaTestClient.HttpAnswer missing = app.client()
                .post("/api/dead-letters/" + original.partition() + "/" + (again.offset() + 1000) + "/retry", "");
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.body().at("/error/code").asText()).isEqualTo("no_such_dead_letter");
        assertThat(app.client().post("/api/dead-letters/999/0/retry", "").status())
                .isEqualTo(404);
    }

    @Test
    void aDeadLetterCutOnCopyIsNotRetryable() throws Exception {
        String ns = "dlcut";
        // Headers over 64 KiB: the dead letter keeps a cut copy, without them (docs/reference.md "Dead-letter record").
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, app.env().bootstrapServers()),
                new StringSerializer(),
                new StringSerializer())) {
            ProducerRecord<String, String> record = new ProducerRecord<>("coordinate.commands", ns, "{cut");
            record.headers().add("big", new byte[70 * 1024]);
            producer.send(record).get();
        }
        ConsumerRecord<byte[], byte[]> cut = deadLetters(ns, 1).get(0);
        assertThat(header(cut, "error.original.value.bytes")).isEqualTo("4");
        JsonNode listed =
                app.client().get("/api/dead-letters?namespace=" + ns).body().get("dead_letters");
        assertThat(listed.findValuesAsText("retryable")).containsExactly("false");
        KafkaTestClient.HttpAnswer refused =
                app.client().post("/api/dead-letters/" + cut.partition() + "/" + cut.offset() + "/retry", "");
        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.body().at("/error/code").asText()).isEqualTo("not_retryable");
    }

    private static List<ConsumerRecord<byte[], byte[]>> deadLetters(String ns, int n) {
        return app
                .client()
                .readUntil(
                        "coordinate.dead-letter",
                        records -> records.stream()
                                        .filter(r -> ns.equals(KafkaTestClient.keyOf(r)))
                                        .count()
                                >= n)
                .stream()
                .filter(r -> ns.equals(KafkaTestClient.keyOf(r)))
                .toList();
    }

    private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }

    @Test
    void aClosedKafkaPortIsExit3WithOneLine() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        String address = "127.0.0.1:" + port;
        StringWriter err = new StringWriter();
        CommandLine cli = CoordinateCli.commandLine();
        cli.setErr(new PrintWriter(err));
        int exit = cli.execute("spec", "pause", "s", "-n", "ops", "--bootstrap-servers", address);
        assertThat(exit).isEqualTo(ExitCodes.UNREACHABLE);
        assertThat(err.toString())
                .isEqualTo("cannot reach Kafka at " + address + ": Connection refused (" + address + ")" + NL);
    }
}
