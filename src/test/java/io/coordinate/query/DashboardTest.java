package io.coordinate.query;

import static io.coordinate.query.EngineFixture.T0;
import static io.coordinate.query.QueryTestSupport.assertAnswer;
import static io.coordinate.query.QueryTestSupport.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.testing.FixedLocator;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The dashboard's files at {@code /}, next to the API routes, which keep their JSON answers. */
class DashboardTest {

    private static final List<String> FILES = List.of(
            "index.html", "app.js", "api.js", "dom.js", "retries.js", "schedule.js", "limits.js", "dashboard.css");

    private final EngineFixture engine = new EngineFixture();
    private QueryServer server;
    private Http http;

    @BeforeEach
    void start() {
        engine.apply(T0, "{'command':'set_work_spec','namespace':'n','work_spec':{'name':'spec'}}");
        server = new QueryServer(
                        new FixedLocator(engine.store),
                        new FakeGateway(),
                        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
                        () -> T0,
                        Duration.ofSeconds(5),
                        "tok")
                .start(0);
        http = new Http(server.port());
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void servesThePageAtTheRootWithoutAToken() throws IOException {
        HttpResponse<String> page = http.get("/");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).hasValue("text/html");
        assertThat(page.body()).isEqualTo(resource("index.html"));
        assertThat(page.headers().firstValue("Content-Security-Policy")).hasValue(Dashboard.CONTENT_SECURITY_POLICY);
        assertThat(page.headers().firstValue("Cache-Control")).hasValue("no-cache");
    }

    @Test
    void servesEachFileWithItsType() throws IOException {
        for (String file : FILES) {
            HttpResponse<String> answer = http.get("/" + file);
            assertThat(answer.statusCode()).as(file).isEqualTo(200);
            assertThat(answer.body()).as(file).isEqualTo(resource(file));
            String type = file.endsWith(".html") ? "text/html" : file.endsWith(".css") ? "text/css" : "text/javascript";
            assertThat(answer.headers().firstValue("Content-Type")).as(file).hasValue(type);
            assertThat(answer.headers().firstValue("X-Content-Type-Options"))
                    .as(file)
                    .hasValue("nosniff");
        }
    }

    @Test
    void apiRoutesKeepTheirJsonAnswers() {
        assertAnswer(http.get("/api/namespaces"), 200, "{'namespaces':['n']}");
        assertError(http.get("/api/nope"), 404, "not_found", "Endpoint GET /api/nope not found");
        assertError(http.get("/nope.js"), 404, "not_found", "Endpoint GET /nope.js not found");
    }

    /** Nothing at run time comes from another host: every file the page loads is one of these. */
    @Test
    void thePageLoadsNothingFromElsewhere() throws IOException {
        Pattern url = Pattern.compile("(?:https?:)?//[a-z0-9.-]+", Pattern.CASE_INSENSITIVE);
        Pattern reference = Pattern.compile("(?:src|href)=\"([^\"#]+)\"|from '([^']+)'");
        for (String file : FILES) {
            String text = resource(file);
            Matcher urls = url.matcher(text);
            while (urls.find()) {
                assertThat(urls.group()).as("a URL in %s", file).isEqualTo("http://www.w3.org"); // the SVG namespace
            }
            Matcher refs = reference.matcher(text);
            while (refs.find()) {
                String target =
                        refs.group(1) != null ? refs.group(1) : refs.group(2).replaceFirst("^\\./", "");
                assertThat(target.equals("api/namespaces") || FILES.contains(target))
                        .as("%s in %s", target, file)
                        .isTrue();
            }
        }
    }

    private static String resource(String file) throws IOException {
        try (InputStream in = DashboardTest.class.getResourceAsStream(Dashboard.CLASSPATH_FOLDER + "/" + file)) {
            assertThat(in).as(file).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
