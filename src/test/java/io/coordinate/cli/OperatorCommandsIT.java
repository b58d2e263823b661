package io.coordinate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.client.Attempt;
import io.coordinate.client.AttemptRequest;
import io.coordinate.client.CoordinateClient;
import io.coordinate.protocol.Json;
import io.coordinate.testing.RunningApp;
import io.coordinate.testing.Poll;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The operator commands of {@code bin/coordinate} against a real broker and the app, as an operator runs them. */
class OperatorCommandsIT {

  private static final String NL = System.lineSeparator();
  private static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir static Path dataDir;
  private static RunningApp app;

  @BeforeAll
  static void start() throws Exception {
    app = RunningApp.start(dataDir.resolve("env"));
  }

  @AfterAll
  static void stop() {
    app.close();
  }

  /** What one command printed, and its exit code. */
  record Result(int exit, String out, String err) {
    JsonNode json() {
      return Json.parse(out);
    }
  }

  /** Runs {@code bin/coordinate args...} against the test's deployment, in namespace {@code ns}. */
  private static Result coordinate(String ns, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("-n", ns, "--bootstrap-servers", app.env().bootstrapServers(),
        "--http-url", "http://127.0.0.1:" + app.env().httpPort()));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = CoordinateCli.commandLine();
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    int exit = cli.execute(all.toArray(String[]::new));
    return new Result(exit, out.toString(), err.toString());
  }

  private static Result ok(String ns, String... args) {
    Result result = coordinate(ns, args);
    assertThat(result.exit()).as("exit of %s; stderr: %s", List.of(args), result.err()).isEqualTo(0);
    return result;
  }

  private static JsonNode counts(String ns, String spec) {
    return app.client().get("/api/namespaces/" + ns + "/work-specs/" + spec).body().path("counts");
  }

  @Test
  void anOperatorDefinesASpecAddsUnitsAndManagesThem() throws Exception {
    String ns = "ops";
    Path specFile = Files.writeString(dataDir.resolve("spec.json"),
        "{\"name\": \"s\", \"priority\": 10, \"max_retries\": 2, \"nice\": 5}");
    assertThat(ok(ns, "spec", "set", specFile.toString()).out()).isEqualTo("set spec \"s\"" + NL);

    JsonNode spec = ok(ns, "spec", "get", "s", "--json").json();
    assertThat(spec.get("data")).isEqualTo(Json.parse("{\"name\":\"s\",\"priority\":10,\"max_retries\":2,\"nice\":5}"));
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
    assertThat(ok(ns, "units", "add", "--spec", "s", "--batch-size", "7", unitsFile.toString()).out())
        .isEqualTo("added 50 units to spec \"s\"" + NL);
    Poll.until("50 available units", WAIT, () -> counts(ns, "s"), c -> c.path("available").asInt() == 50);
    assertThat(counts(ns, "s")).isEqualTo(Json.parse("{\"available\":50}"));

    JsonNode page = ok(ns, "units", "list", "--spec", "s", "--limit", "10", "--json").json();
    assertThat(page.get("work_units")).hasSize(10);
    assertThat(page.at("/work_units/0")).isEqualTo(Json.parse(
        "{\"name\":\"u00\",\"status\":\"available\",\"priority\":0,\"data\":{\"i\":0},\"not_before\":null,"
            + "\"active_attempt\":null}"));
    assertThat(page.get("next").asText()).isEqualTo("u09");
    JsonNode rest = ok(ns, "units", "list", "--spec", "s", "--after", "u09", "--limit", "100", "--json").json();
    assertThat(rest.get("work_units")).hasSize(40);
    assertThat(rest.at("/work_units/0/name").asText()).isEqualTo("u10");
    assertThat(rest.get("next").isNull()).isTrue();
    Result table = ok(ns, "units", "list", "--spec", "s", "--limit", "2");
    assertThat(table.out()).isEqualTo(
        "NAME  STATUS     PRIORITY  ATTEMPT  DATA" + NL
            + "u00   available         0  -        {\"i\":0}" + NL
            + "u01   available         1  -        {\"i\":1}" + NL);
    assertThat(table.err()).isEqualTo("more: pass --after u01" + NL);

    // A worker fails the three best units.
    try (CoordinateClient client = CoordinateClient.builder().bootstrapServers(app.env().bootstrapServers())
        .namespace(ns).timeout(WAIT).build()) {
      List<Attempt> attempts = client.requestAttempts(AttemptRequest.forWorker("w1").count(3).build()).join()
          .attempts();
      assertThat(attempts).extracting(Attempt::workUnitName).containsExactly("u49", "u48", "u47");
      for (Attempt attempt : attempts) {
        client.failAttempt(attempt.attemptId(), Map.of("traceback", "boom")).join();
      }
    }
    Poll.until("3 failed units", WAIT, () -> counts(ns, "s"), c -> c.path("failed").asInt() == 3);
    JsonNode u49 = ok(ns, "units", "status", "--spec", "s", "u49", "--json").json();
    assertThat(u49.get("status").asText()).isEqualTo("failed");
    assertThat(u49.get("data")).isEqualTo(Json.parse("{\"traceback\":\"boom\"}"));
    assertThat(u49.get("attempts")).hasSize(1);
    assertThat(u49.at("/attempts/0/worker").asText()).isEqualTo("w1");
    String status = ok(ns, "units", "status", "--spec", "s", "u49").out();
    assertThat(status).contains("status          failed" + NL).contains("data            {\"traceback\":\"boom\"}" + NL)
        .contains("ATTEMPT  WORKER  STATUS  START");
    JsonNode failed = ok(ns, "units", "list", "--spec", "s", "--status", "failed", "--json").json();
    assertThat(failed.findValuesAsText("name")).containsExactly("u47", "u48", "u49");

    assertThat(ok(ns, "summary").out()).isEqualTo(
        "SPEC   BLOCKED  DELAYED  AVAILABLE  PENDING  WAITING  FINISHED  FAILED  TOTAL" + NL
            + "s            0        0         47        0        0         0       3     50" + NL
            + "(all)        0        0         47        0        0         0       3     50" + NL);
    assertThat(ok(ns, "summary", "--json").json().get("counts"))
        .isEqualTo(Json.parse("{\"available\":47,\"failed\":3}"));

    JsonNode workers = ok(ns, "workers", "list", "--json").json().get("workers");
    assertThat(workers.findValuesAsText("name")).containsExactly("w1");
    assertThat(ok(ns, "workers", "list").out()).startsWith("NAME  ACTIVE  EXPIRED  MODE  PARENT  ATTEMPTS  LAST_UPDATE"
        + NL + "w1    true    false");

    // Reset every unit: the failed ones run again.
    assertThat(ok(ns, "units", "reset", "--spec", "s", "--all").out()).isEqualTo("reset 50 units" + NL);
    Poll.until("50 available units again", WAIT, () -> counts(ns, "s"), c -> c.path("available").asInt() == 50);

    // Delete the available units but two handed out.
    try (CoordinateClient client = CoordinateClient.builder().bootstrapServers(app.env().bootstrapServers())
        .namespace(ns).timeout(WAIT).build()) {
      assertThat(client.requestAttempts(AttemptRequest.forWorker("w2").count(2).build()).join().attempts())
          .hasSize(2);
    }
    assertThat(ok(ns, "units", "delete", "--spec", "s", "--status", "available", "--json").json())
        .isEqualTo(Json.parse("{\"deleted\":48}"));
    Poll.until("2 pending units left", WAIT, () -> counts(ns, "s"),
        c -> c.equals(Json.parse("{\"pending\":2}")));

    assertThat(ok(ns, "spec", "pause", "s").out()).isEqualTo("paused spec \"s\"" + NL);
    assertThat(ok(ns, "spec", "get", "s", "--json").json().at("/meta/paused").asBoolean()).isTrue();
    assertThat(ok(ns, "spec", "resume", "s", "--json").json().at("/meta/paused").asBoolean()).isFalse();
    assertThat(ok(ns, "spec", "get", "s").out()).contains("paused                 false" + NL)
        .contains("units pending          2" + NL);
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
    Result tail = Poll.until("the dead letter", WAIT,
        () -> ok("dl", "dead-letters", "tail", "--from-beginning", "--json"), r -> !r.out().isEmpty());
    assertThat(tail.out().lines()).hasSize(1);
    JsonNode record = tail.json();
    assertThat(record.get("key").asText()).isEqualTo("dl");
    assertThat(record.get("value").asText()).isEqualTo("{oops");
    assertThat(record.at("/headers/error.code").asText()).isEqualTo("malformed_json");
    assertThat(record.at("/headers/source.topic").asText()).isEqualTo("coordinate.commands");
    String human = ok("dl", "dead-letters", "tail", "--from-beginning").out();
    assertThat(human).startsWith("key=dl error.code=malformed_json source=coordinate.commands/"
        + record.at("/headers/source.partition").asText() + "@" + record.at("/headers/source.offset").asText()
        + " error.message=value is not JSON: ");
    assertThat(human.lines()).hasSize(1);
    assertThat(ok("dl", "dead-letters", "tail", "--last", "0").out()).isEmpty();
    // Without --from-beginning: the last records (10 by default), oldest first.
    app.client().send("coordinate.commands", "dl", "{oops2");
    app.client().send("coordinate.commands", "dl", "{oops3");
    Poll.until("three dead letters", WAIT, () -> ok("dl", "dead-letters", "tail", "--json"),
        r -> r.out().lines().count() == 3);
    assertThat(ok("dl", "dead-letters", "tail", "--last", "2", "--json").out().lines()
        .map(line -> Json.parse(line).get("value").asText()).toList()).containsExactly("{oops2", "{oops3");
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
    assertThat(err.toString()).isEqualTo("cannot reach Kafka at " + address + ": Connection refused (" + address + ")"
        + NL);
  }
}
