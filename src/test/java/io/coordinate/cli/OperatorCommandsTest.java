package io.coordinate.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.coordinate.protocol.Json;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The operator commands' parsing and checks that need no deployment: each case fails before anything is sent (the
 * bootstrap address is a closed port, so a command that did try to send would exit 3 instead).
 */
class OperatorCommandsTest {

    private static final String NL = System.lineSeparator();

    @TempDir
    Path tmp;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = CoordinateCli.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        return cli.execute(args);
    }

    private static String closedAddress() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return "127.0.0.1:" + socket.getLocalPort();
        }
    }

    @Test
    void resetCancelAndDeleteWithoutAFilterAreRefusedAsUsageErrors() throws IOException {
        for (String verb : new String[] {"reset", "cancel", "delete"}) {
            err.getBuffer().setLength(0);
            int exit = run("units", verb, "-n", "ns", "--spec", "s", "--bootstrap-servers", closedAddress());
            assertThat(exit).as(verb).isEqualTo(ExitCodes.USAGE);
            assertThat(err.toString())
                    .as(verb)
                    .startsWith("units " + verb + " needs a filter: pass --status S or --name N "
                            + "(both repeatable), or --all to " + verb + " every unit of the spec" + NL);
            assertThat(out.toString()).isEmpty();
        }
    }

    @Test
    void aKafkaConfigFileThatCannotBeReadIsOneLineAndExit2() throws IOException {
        Path missing = tmp.resolve("client.properties");
        Path units = Files.writeString(tmp.resolve("units.jsonl"), "{\"name\":\"a\"}\n");
        for (String[] command : new String[][] {
            {
                "units",
                "add",
                "-n",
                "ns",
                "--spec",
                "s",
                units.toString(),
                "--kafka-config",
                missing.toString(),
                "--bootstrap-servers",
                closedAddress()
            },
            {
                "run",
                "--bootstrap-servers",
                closedAddress(),
                "--kafka-config",
                missing.toString(),
                "--data-dir",
                tmp.resolve("data").toString()
            }
        }) {
            err.getBuffer().setLength(0);
            assertThat(run(command)).as(command[0]).isEqualTo(ExitCodes.USAGE);
            assertThat(err.toString())
                    .as(command[0])
                    .isEqualTo("cannot read the Kafka client properties file " + missing + ": no such file" + NL);
        }
    }

    @Test
    void aKafkaSettingKafkaRefusesIsOneLineAndExit2() throws IOException {
        Path config = Files.writeString(tmp.resolve("client.properties"), "security.protocol=BOGUS\n");
        try (ServerSocket listening = new ServerSocket(0)) { // accepts the probe's connection, so Kafka's check runs
            int exit = run(
                    "units",
                    "reset",
                    "-n",
                    "ns",
                    "--spec",
                    "s",
                    "--all",
                    "--kafka-config",
                    config.toString(),
                    "--bootstrap-servers",
                    "127.0.0.1:" + listening.getLocalPort());
            assertThat(exit).isEqualTo(ExitCodes.USAGE);
        }
        assertThat(err.toString())
                .isEqualTo("invalid Kafka client setting: Invalid value BOGUS for configuration "
                        + "security.protocol: String must be one of (case insensitive): SASL_SSL, PLAINTEXT, SSL, SASL_PLAINTEXT"
                        + NL);
    }

    @Test
    void allWithAFilterIsAUsageError() throws IOException {
        int exit = run(
                "units",
                "delete",
                "-n",
                "ns",
                "--spec",
                "s",
                "--all",
                "--status",
                "failed",
                "--bootstrap-servers",
                closedAddress());
        assertThat(exit).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).startsWith("--all selects every unit: give it without --status or --name" + NL);
    }

    @Test
    void aFilterGoesOnToKafka() throws IOException {
        String address = closedAddress();
        int exit = run(
                "units",
                "reset",
                "-n",
                "ns",
                "--spec",
                "s",
                "--status",
                "failed",
                "--status",
                "finished",
                "--bootstrap-servers",
                address);
        assertThat(exit).isEqualTo(ExitCodes.UNREACHABLE);
        assertThat(err.toString())
                .isEqualTo("cannot reach Kafka at " + address + ": Connection refused (" + address + ")" + NL);
    }

    @Test
    void aBadJsonLineIsAUsageErrorNamingItsLineAndNothingIsSent() throws IOException {
        Path units = Files.writeString(
                tmp.resolve("units.jsonl"), "{\"name\":\"a\"}\n\n{\"name\":\"b\",\"priority\":\"high\"}\n{oops\n");
        int exit = run(
                "units", "add", "-n", "ns", "--spec", "s", units.toString(), "--bootstrap-servers", closedAddress());
        assertThat(exit).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).isEqualTo("error: line 3: \"priority\" must be a number; nothing was sent" + NL);
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void eachKindOfBadLineIsNamed() {
        assertThat(badLine("{oops")).startsWith("error: line 1: not JSON: ");
        assertThat(badLine("[1]")).isEqualTo("error: line 1: not a JSON object; nothing was sent");
        assertThat(badLine("{\"nmae\":\"a\"}"))
                .isEqualTo("error: line 1: unknown key \"nmae\" (known: name, data, "
                        + "priority, group, delay, not_before, parent, predecessor); nothing was sent");
        assertThat(badLine("{\"group\":7}")).isEqualTo("error: line 1: \"group\" must be a string; nothing was sent");
        assertThat(badLine("{\"name\":1}")).isEqualTo("error: line 1: \"name\" must be a string; nothing was sent");
        assertThat(badLine("{\"data\":[]}")).isEqualTo("error: line 1: \"data\" must be an object; nothing was sent");
        assertThat(badLine("{\"not_before\":\"tomorrow\"}"))
                .isEqualTo("error: line 1: \"not_before\" is not an RFC "
                        + "3339 time such as 2026-11-22T10:00:00Z; nothing was sent");
        assertThat(badLine("{\"parent\":\"p\"}"))
                .isEqualTo("error: line 1: \"parent\" must be {\"work_spec_name\": "
                        + "..., \"work_unit_name\": ...}; nothing was sent");
    }

    private static String badLine(String line) {
        try {
            UnitLines.parse(new java.io.BufferedReader(new java.io.StringReader(line)), "s");
        } catch (CliFailure failure) {
            assertThat(failure.exitCode()).isEqualTo(ExitCodes.USAGE);
            return failure.getMessage();
        }
        throw new AssertionError("accepted: " + line);
    }

    @Test
    void goodLinesParseWithBlankLinesSkipped() {
        String lines = "{\"name\":\"a\",\"data\":{\"k\":[1,2]},\"priority\":10,\"delay\":5}\n\n"
                + "{\"name\":\"b\",\"not_before\":\"2026-11-22T10:00:00Z\",\"parent\":{\"work_unit_name\":\"a\"}}\n{}\n"
                + "{\"name\":\"c\",\"group\":\"customer-7\"}\n";
        assertThat(UnitLines.parse(new java.io.BufferedReader(new java.io.StringReader(lines)), "s"))
                .hasSize(4);
    }

    @Test
    void aSpecFileMustBeAnObjectWithAName() throws IOException {
        Path spec = Files.writeString(tmp.resolve("spec.json"), "{\"priority\": 3}");
        int exit = run("spec", "set", "-n", "ns", spec.toString(), "--bootstrap-servers", closedAddress());
        assertThat(exit).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).isEqualTo("error: " + spec + ": the spec needs a \"name\" string" + NL);
    }

    @Test
    void aMissingFileIsAUsageError() throws IOException {
        Path missing = tmp.resolve("missing.jsonl");
        int exit = run(
                "units", "add", "-n", "ns", "--spec", "s", missing.toString(), "--bootstrap-servers", closedAddress());
        assertThat(exit).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).isEqualTo("error: cannot read " + missing + ": " + missing + NL);
    }

    @Test
    void theNamespaceAndTheSpecAreRequired() {
        assertThat(run("units", "list", "--spec", "s")).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).startsWith("Missing required option: '--namespace=<namespace>'");
        err.getBuffer().setLength(0);
        assertThat(run("units", "list", "-n", "ns")).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).startsWith("Missing required option: '--spec=NAME'");
        err.getBuffer().setLength(0);
        assertThat(run("spec")).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).startsWith("Missing required subcommand");
    }

    @Test
    void anUnreachableHttpApiIsOneLineAndExit3() throws IOException {
        String address = closedAddress();
        int exit = run("spec", "list", "-n", "ns", "--http-url", "http://" + address + "/");
        assertThat(exit).isEqualTo(ExitCodes.UNREACHABLE);
        assertThat(err.toString())
                .isEqualTo("cannot reach the HTTP API at http://" + address + ": Connection refused" + NL);
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void tablesAlignColumnsAndRightAlignNumbers() {
        Table table = new Table("NAME", "STATUS", "PRIORITY", "ATTEMPT", "DATA")
                .row("a", "available", 10, null, null)
                .row("long-name", "failed", 5.5, null, "{\"k\":1}");
        assertThat(table.toString())
                .isEqualTo("NAME       STATUS     PRIORITY  ATTEMPT  DATA" + NL
                        + "a          available        10  -        -" + NL
                        + "long-name  failed          5.5  -        {\"k\":1}" + NL);
        assertThat(new Table().row("name", "s").row("max_running", 5).toString())
                .isEqualTo("name         s" + NL + "max_running  5" + NL);
    }

    @Test
    void namesInPathsArePercentEncoded() {
        assertThat(HttpReader.namespacePath("n s", "work-specs", "a/b+c"))
                .isEqualTo("/api/namespaces/n%20s/work-specs/a%2Fb%2Bc");
    }

    @Test
    void eventsTailShowsTheFieldsOfAnEventOnOneLine() {
        assertThat(EventsCommand.Tail.line(
                        "2026-11-26T05:10:09.920Z",
                        "16",
                        Json.parse("{\"type\":\"unit_status_changed\","
                                + "\"previous_status\":\"available\",\"work_spec_name\":\"s\",\"work_unit_name\":\"u 1\",\"status\":\"pending\","
                                + "\"priority\":10}")))
                .isEqualTo(
                        "2026-11-26T05:10:09.920Z @16 unit_status_changed spec=s unit=u 1 status=available->pending priority=10");
        assertThat(EventsCommand.Tail.line(
                        "t",
                        "3",
                        Json.parse("{\"type\":\"attempt_started\",\"work_spec_name\":\"s\","
                                + "\"work_unit_name\":\"u\",\"attempt_id\":\"7\",\"worker\":\"w\",\"status\":\"pending\","
                                + "\"parent\":{\"work_unit_name\":\"p\"}}")))
                .isEqualTo(
                        "t @3 attempt_started spec=s unit=u status=pending attempt=7 worker=w parent={\"work_unit_name\":\"p\"}");
        assertThat(EventsCommand.Tail.line("t", "4", Json.parse("{\"type\":\"namespace_destroyed\"}")))
                .isEqualTo("t @4 namespace_destroyed");
    }

    @Test
    void eventsTailRefusesAFromThatIsNoOffset() {
        assertThat(run("events", "tail", "-n", "ns", "--from", "1e3", "--http-url", "http://127.0.0.1:9"))
                .isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).isEqualTo("error: --from must be now, earliest or an offset, got \"1e3\"" + NL);
    }

    @Test
    void eventsTailSendsTheTokenForAnInstanceWhoseFeedsNeedIt() throws IOException {
        List<String> authorizations = new ArrayList<>();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            authorizations.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
            byte[] body = "{\"error\":{\"code\":\"unauthorized\",\"message\":\"no\"}}".getBytes(UTF_8);
            exchange.sendResponseHeaders(401, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        String url = "http://127.0.0.1:" + server.getAddress().getPort();
        try {
            assertThat(run("events", "tail", "-n", "ns", "--http-url", url, "--http-token", "t0k"))
                    .isEqualTo(ExitCodes.REFUSED);
        } finally {
            server.stop(0);
        }
        assertThat(authorizations).containsExactly("Bearer t0k");
        assertThat(err.toString()).isEqualTo("error: unauthorized: no" + NL);
    }

    @Test
    void eventsTailFollowReconnectsAfterTheLastBatchItPrinted() throws IOException {
        List<String> lastEventIds = new ArrayList<>();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            lastEventIds.add(String.valueOf(exchange.getRequestHeaders().getFirst("Last-Event-ID")));
            int call = lastEventIds.size();
            if (call == 3) { // the third stream is refused, which ends the command
                byte[] body = "{\"error\":{\"code\":\"bad_request\",\"message\":\"stop\"}}".getBytes(UTF_8);
                exchange.sendResponseHeaders(400, body.length);
                exchange.getResponseBody().write(body);
            } else { // one batch, then the stream ends as when the instance stops
                String offset = call == 1 ? "4" : "6";
                exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
                exchange.sendResponseHeaders(200, 0);
                exchange.getResponseBody()
                        .write(("id: " + offset + "\nevent: batch\ndata: {\"time\":\"t\",\"events\":"
                                        + "[{\"type\":\"worker_updated\",\"worker\":\"w" + call + "\"}]}\n\n")
                                .getBytes(UTF_8));
            }
            exchange.close();
        });
        server.start();
        String url = "http://127.0.0.1:" + server.getAddress().getPort();
        try {
            int exit = run("events", "tail", "-n", "ns", "--follow", "--http-url", url);
            assertThat(exit).isEqualTo(ExitCodes.REFUSED);
        } finally {
            server.stop(0);
        }
        assertThat(out.toString())
                .isEqualTo("t @4 worker_updated worker=w1" + NL + "t @6 worker_updated worker=w2" + NL);
        assertThat(lastEventIds).containsExactly("null", "4", "6");
        assertThat(err.toString())
                .isEqualTo("the event feed at " + url + " ended (the instance stopped?); reconnecting in 1 s" + NL
                        + "the event feed at " + url + " ended (the instance stopped?); reconnecting in 1 s" + NL
                        + "error: bad_request: stop" + NL);
    }
}
