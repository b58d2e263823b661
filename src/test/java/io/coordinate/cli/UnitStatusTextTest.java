package io.coordinate.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.coordinate.protocol.Json;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code units status} and {@code units list --status retrying} against an HTTP API that answers as the app's. */
class UnitStatusTextTest {

    private static final String NL = System.lineSeparator();

    private static final String ATTEMPT_1 = "{\"attempt_id\":\"1\",\"worker\":\"w1\",\"status\":\"retryable\","
            + "\"data\":{\"traceback\":\"Traceback:\\n  File x\\nValueError: bad\"},"
            + "\"start_time\":\"2026-11-22T10:00:00.000Z\",\"end_time\":\"2026-11-22T10:00:01.000Z\"}";

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private final List<String> requests = new ArrayList<>();
    private String answer;
    private HttpServer server;
    private String url;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            requests.add(exchange.getRequestURI().toString());
            byte[] body = answer.getBytes(UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        url = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private int run(String... args) {
        CommandLine cli = CoordinateCli.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        return cli.execute(args);
    }

    /** The output of {@code units status} for unit u1, which must succeed. */
    private String status() {
        assertThat(run("units", "status", "-n", "ns", "--spec", "s", "u1", "--http-url", url))
                .isEqualTo(ExitCodes.OK);
        return out.toString();
    }

    private static String unit(String retryFields, String attempts) {
        return "{\"name\":\"u1\",\"status\":\"delayed\",\"priority\":5,\"data\":{\"k\":1},"
                + "\"not_before\":\"2026-11-22T10:01:01.000Z\",\"active_attempt\":null," + retryFields
                + ",\"work_spec_name\":\"s\",\"attempts\":[" + attempts + "],\"parent\":null,\"predecessor\":null}";
    }

    @Test
    void statusShowsTheRetriesTheLastErrorAndTheLatestAttemptsProgress() {
        answer = unit(
                "\"attempt_count\":2,\"last_error\":\"Traceback:\\n  File y\\nTimeoutError\","
                        + "\"next_attempt_at\":\"2026-11-22T10:01:01.000Z\",\"retrying\":true",
                ATTEMPT_1 + ",{\"attempt_id\":\"2\",\"worker\":\"w2\",\"status\":\"retryable\","
                        + "\"data\":{\"traceback\":\"Traceback:\\n  File y\\nTimeoutError\"},"
                        + "\"start_time\":\"2026-11-22T10:00:02.000Z\",\"end_time\":\"2026-11-22T10:00:03.000Z\","
                        + "\"progress\":{\"fraction\":0.4567,\"message\":\"resizing\","
                        + "\"time\":\"2026-11-22T10:00:02.500Z\"}}");

        assertThat(status())
                .isEqualTo("name             u1" + NL
                        + "work_spec_name   s" + NL
                        + "status           delayed" + NL
                        + "priority         5" + NL
                        + "not_before       2026-11-22T10:01:01.000Z" + NL
                        + "active_attempt   -" + NL
                        + "attempt_count    2" + NL
                        + "next_attempt_at  2026-11-22T10:01:01.000Z" + NL
                        + "retrying         true" + NL
                        + "data             {\"k\":1}" + NL
                        + "parent           -" + NL
                        + "predecessor      -" + NL
                        + "progress         45.6% resizing (2026-11-22T10:00:02.500Z)" + NL
                        + NL
                        + "last_error:" + NL
                        + "  Traceback:" + NL
                        + "    File y" + NL
                        + "  TimeoutError" + NL
                        + NL
                        + "ATTEMPT  WORKER  STATUS     START                     END" + NL
                        + "1        w1      retryable  2026-11-22T10:00:00.000Z  2026-11-22T10:00:01.000Z" + NL
                        + "2        w2      retryable  2026-11-22T10:00:02.000Z  2026-11-22T10:00:03.000Z" + NL);
        assertThat(requests).containsExactly("/api/namespaces/ns/work-specs/s/work-units/u1");
    }

    @Test
    void statusLeavesOutWhatTheUnitDoesNotHave() {
        // no last error; the latest attempt reported no progress (an earlier one did: not shown)
        answer = unit(
                "\"attempt_count\":1,\"last_error\":null,\"next_attempt_at\":null,\"retrying\":false",
                "{\"attempt_id\":\"1\",\"worker\":\"w1\",\"status\":\"finished\",\"data\":{},"
                        + "\"start_time\":\"2026-11-22T10:00:00.000Z\",\"end_time\":null,"
                        + "\"progress\":{\"fraction\":1,\"time\":\"2026-11-22T10:00:00.500Z\"}},"
                        + "{\"attempt_id\":\"2\",\"worker\":\"w1\",\"status\":\"pending\",\"data\":{},"
                        + "\"start_time\":\"2026-11-22T10:00:01.000Z\",\"end_time\":null}");

        assertThat(status())
                .contains("retrying         false" + NL + "data")
                .endsWith("predecessor      -" + NL
                        + NL
                        + "ATTEMPT  WORKER  STATUS    START                     END" + NL
                        + "1        w1      finished  2026-11-22T10:00:00.000Z  -" + NL
                        + "2        w1      pending   2026-11-22T10:00:01.000Z  -" + NL)
                .doesNotContain("progress")
                .doesNotContain("last_error");
    }

    @Test
    void progressShowsWhatTheAttemptReported() {
        assertThat(UnitStatusText.progress(Json.parse("{\"fraction\":1,\"message\":\"done\",\"time\":\"t\"}")))
                .isEqualTo("100% done (t)");
        assertThat(UnitStatusText.progress(Json.parse("{\"fraction\":0.9999,\"time\":\"t\"}")))
                .isEqualTo("99.9% (t)");
        assertThat(UnitStatusText.progress(Json.parse("{\"fraction\":0,\"time\":\"t\"}")))
                .isEqualTo("0% (t)");
        assertThat(UnitStatusText.progress(Json.parse("{\"message\":\"step 2 of 3\",\"time\":\"t\"}")))
                .isEqualTo("step 2 of 3 (t)");
    }

    @Test
    void listTakesTheRetryingFilterToTheApi() {
        answer = "{\"work_units\":[{\"name\":\"u1\",\"status\":\"delayed\",\"priority\":5,\"data\":{},"
                + "\"not_before\":\"2026-11-22T10:01:01.000Z\",\"active_attempt\":null,\"attempt_count\":2,"
                + "\"last_error\":\"boom\",\"next_attempt_at\":\"2026-11-22T10:01:01.000Z\",\"retrying\":true}],"
                + "\"next\":null}";

        assertThat(run("units", "list", "-n", "ns", "--spec", "s", "--status", "retrying", "--http-url", url))
                .isEqualTo(ExitCodes.OK);

        assertThat(requests).containsExactly("/api/namespaces/ns/work-specs/s/work-units?status=retrying");
        assertThat(out.toString())
                .isEqualTo("NAME  STATUS   PRIORITY  ATTEMPT  DATA" + NL + "u1    delayed         5  -        {}" + NL);
    }
}
