package io.coordinate.query;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.cli.DevEnvironment;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.TopicNames;
import io.coordinate.testing.KafkaTestClient;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard in a real browser (headless Chromium driven by Selenium) against the app on a real broker, with an
 * HTTP token set: the numbers it shows are the API's, they move without a reload when units are added, and its
 * buttons pause a spec (asking for the token once) and reset failed units; a unit's page shows its retries and last
 * error. Saves target/dashboard.png, target/dashboard-phone.png and target/dashboard-unit.png.
 */
class DashboardIT {

    private static final Path CHROMIUM = Path.of(System.getProperty("dashboard.chromium", "/usr/bin/chromium"));
    private static final Path CHROMEDRIVER =
            Path.of(System.getProperty("dashboard.chromedriver", "/usr/bin/chromedriver"));
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final List<String> STATUSES =
            List.of("blocked", "delayed", "available", "pending", "waiting", "finished", "failed", "cancelled");

    private static final String NS = "dash";
    private static final String SPEC = "images";
    /** A name that is markup if the page ever treats names as HTML. */
    private static final String ODD = "<b>ünï</b> & \"co\" / 1";

    private static final String TOKEN = "dash-token-7";

    @TempDir
    static Path dataDir;

    private static DevEnvironment env;
    private static KafkaCommandGateway gateway;
    private static KafkaTestClient client;
    private static ChromeDriver browser;
    private static String base;

    @BeforeAll
    static void start() throws Exception {
        requireBrowser();
        env = DevEnvironment.start(
                0, 0, dataDir, config -> config.withHttp(config.httpBindHost(), config.httpHost(), TOKEN));
        gateway = new KafkaCommandGateway(env.bootstrapServers(), TopicNames.unprefixed());
        client = new KafkaTestClient(env.bootstrapServers(), env.httpPort());
        base = "http://127.0.0.1:" + env.httpPort();
        browser = startBrowser();
    }

    @AfterAll
    static void stop() {
        if (browser != null) {
            browser.quit();
        }
        if (client != null) {
            client.close();
        }
        if (gateway != null) {
            gateway.close();
        }
        if (env != null) {
            env.close();
        }
    }

    /** A clear failure, never a silent skip: the issue asks for this test in every {@code mvn verify}. */
    private static void requireBrowser() {
        List<String> missing = Stream.of(CHROMIUM, CHROMEDRIVER)
                .filter(p -> !Files.isExecutable(p))
                .map(Path::toString)
                .toList();
        if (!missing.isEmpty()) {
            throw new AssertionError("DashboardIT drives a real browser and found no " + String.join(" nor ", missing)
                    + ". Install Debian's Chromium and its driver (as root: apt-get install -y chromium chromium-driver), "
                    + "or point -Ddashboard.chromium and -Ddashboard.chromedriver at them.");
        }
    }

    private static ChromeDriver startBrowser() {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments(
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--user-data-dir=" + dataDir.resolve("chromium-profile"),
                "--window-size=1280,900");
        // Both paths given, so Selenium Manager never looks for (or downloads) a browser or driver.
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        return new ChromeDriver(service, options);
    }

    @Test
    void showsTheApiNumbersFollowsChangesAndPausesASpec() throws IOException {
        call("{'command':'set_work_spec','work_spec':{'name':'" + SPEC + "'}}");
        ObjectNode odd = (ObjectNode) Json.parse("{\"command\":\"set_work_spec\",\"work_spec\":{}}");
        ((ObjectNode) odd.get("work_spec")).put("name", ODD);
        call(odd);
        call("{'command':'add_work_units','work_spec_name':'" + SPEC + "','work_units':" + units(0, 10) + "}");
        ObjectNode oddUnits = (ObjectNode)
                Json.parse("{\"command\":\"add_work_units\",\"work_units\":[{\"name\":\"x\"},{\"name\":\"y\"}]}");
        oddUnits.put("work_spec_name", ODD);
        call(oddUnits);
        JsonNode attempts = call("{'command':'request_attempts','worker':'w1','count':5,'work_specs':['" + SPEC + "']}")
                .get("attempts");
        assertThat(attempts).hasSize(5);
        for (int i = 0; i < 5; i++) {
            String id = attempts.get(i).get("attempt_id").asText();
            call(
                    i < 3
                            ? "{'command':'finish_attempt','attempt_id':'" + id + "','data':{'thumbnail':'img-0" + i
                                    + ".png'}}"
                            : "{'command':'fail_attempt','attempt_id':'" + id + "','data':{'traceback':'boom'}}");
        }
        ObjectNode request = (ObjectNode) Json.parse("{\"command\":\"request_attempts\",\"worker\":\"w2\"}");
        request.putArray("work_specs").add(ODD);
        assertThat(call(request).get("attempts")).hasSize(1); // w2 keeps running the odd spec's unit x
        var deadLettered = client.send(TopicNames.unprefixed().commands(), NS, "{oops"); // a dead letter

        // The namespace list shows each namespace's units by status, as the API counts them, and its oldest waiting.
        browser.get(base + "/");
        String card = "[data-testid=namespace][data-namespace=" + NS + "] ";
        waitUntil(
                "the namespace's counts shown",
                () -> !browser.findElements(By.cssSelector(card + "dd")).isEmpty());
        Map<String, Long> shownTotals = new java.util.TreeMap<>();
        for (String status : STATUSES) {
            shownTotals.put(
                    status,
                    Long.parseLong(browser.findElement(By.cssSelector(card + "[data-testid=count-" + status + "]"))
                            .getText()));
        }
        assertThat(shownTotals)
                .isEqualTo(new java.util.TreeMap<>(
                        counts(Map.of("available", 6L, "pending", 1L, "finished", 3L, "failed", 2L))));
        assertThat(browser.findElement(By.cssSelector(card + "[data-testid=namespace-oldest-age]"))
                        .getText())
                .matches("\\d+ s");

        // Then the namespace: every count of every spec is the API's, and names are text.
        click(() -> browser.findElements(By.cssSelector("[data-testid=namespace-link]")).stream()
                .filter(link -> NS.equals(link.getText()))
                .findFirst()
                .orElse(null));
        Map<String, Map<String, Long>> expected = Map.of(
                SPEC, counts(Map.of("available", 5L, "finished", 3L, "failed", 2L)),
                ODD, counts(Map.of("available", 1L, "pending", 1L)));
        assertThat(apiCounts()).isEqualTo(expected);
        assertThat(waitForShown(expected)).isEqualTo(apiCounts());
        assertThat(js("return [...document.querySelectorAll('[data-testid=spec-link]')].map(a => a.textContent)"))
                .isEqualTo(List.of(ODD, SPEC));
        assertThat(browser.findElements(By.cssSelector("[data-testid=spec-card] b")))
                .isEmpty();
        assertThat(cardText(SPEC, "spec-state")).isEqualTo("running");

        // New units show up without a reload: the marker set on this page survives.
        js("window.dashboardItMarker = 'same page'; return null");
        call("{'command':'add_work_units','work_spec_name':'" + SPEC + "','work_units':" + units(10, 14) + "}");
        Map<String, Map<String, Long>> afterAdd = Map.of(
                SPEC, counts(Map.of("available", 9L, "finished", 3L, "failed", 2L)),
                ODD, counts(Map.of("available", 1L, "pending", 1L)));
        assertThat(waitForShown(afterAdd)).isEqualTo(apiCounts());
        assertThat(js("return window.dashboardItMarker")).isEqualTo("same page");

        // Pause: the first change meets 401, the page asks for the token, at once again when a wrong one is given, and
        // keeps the right one for the tab.
        click(() -> cardElement(SPEC, "pause-toggle"));
        WebDriverWait wait = new WebDriverWait(browser, WAIT);
        wait.until(d -> d.findElement(By.id("token-dialog")).isDisplayed());
        browser.findElement(By.cssSelector("[data-testid=token-input]")).sendKeys("not-" + TOKEN);
        browser.findElement(By.cssSelector("[data-testid=token-submit]")).click();
        waitUntil(
                "the prompt shown again",
                () -> browser.findElement(By.id("token-dialog")).isDisplayed()
                        && "The token was refused; enter it again."
                                .equals(browser.findElement(By.id("token-help")).getText()));
        browser.findElement(By.cssSelector("[data-testid=token-input]")).sendKeys(TOKEN);
        browser.findElement(By.cssSelector("[data-testid=token-submit]")).click();
        waitUntil("the spec shown paused", () -> "paused".equals(cardText(SPEC, "spec-state")));
        assertThat(client.get("/api/namespaces/" + NS + "/work-specs/" + SPEC)
                        .body()
                        .get("meta")
                        .get("paused")
                        .asBoolean())
                .isTrue();
        assertThat(cardText(SPEC, "pause-toggle")).isEqualTo("Resume");
        assertThat(js("return sessionStorage.getItem('coordinate.token')")).isEqualTo(TOKEN);

        // Reset failed: the kept token is sent, no question asked; the failed units are available again.
        click(() -> cardElement(SPEC, "reset-failed"));
        Map<String, Map<String, Long>> afterReset = Map.of(
                SPEC, counts(Map.of("available", 11L, "finished", 3L)),
                ODD, counts(Map.of("available", 1L, "pending", 1L)));
        assertThat(waitForShown(afterReset)).isEqualTo(apiCounts());
        assertThat(browser.findElement(By.id("token-dialog")).isDisplayed()).isFalse();
        waitUntil(
                "the outcome said",
                () -> ("2 failed units of " + SPEC + " reset.")
                        .equals(js("return document.querySelector('[data-testid=message]').textContent")));
        screenshot("dashboard.png");

        // Readable on a phone: nothing wider than the screen.
        browser.executeCdpCommand(
                "Emulation.setDeviceMetricsOverride",
                Map.of("width", 375, "height", 812, "deviceScaleFactor", 1, "mobile", true));
        waitUntil("a 375 px wide viewport", () -> Long.valueOf(375).equals(js("return window.innerWidth")));
        assertThat(js("return document.documentElement.scrollWidth")).isEqualTo(375L);
        screenshot("dashboard-phone.png");
        browser.executeCdpCommand("Emulation.clearDeviceMetricsOverride", Map.of());

        // A spec's finished units, then one unit with its attempt and result.
        click(() -> cardElement(SPEC, "spec-link"));
        new Select(wait.until(d -> d.findElement(By.cssSelector("[data-testid=status-filter]"))))
                .selectByValue("finished");
        waitUntil(
                "the finished units listed",
                () -> List.of("img-00", "img-01", "img-02")
                        .equals(js("return location.hash.endsWith('status=finished') ? [...document.querySelectorAll("
                                + "'[data-testid=unit-link]')].map(a => a.textContent) : []")));
        click(() -> browser.findElements(By.cssSelector("[data-testid=unit-link]")).stream()
                .filter(a -> "img-01".equals(a.getText()))
                .findFirst()
                .orElse(null));
        waitUntil(
                "the unit's attempt shown",
                () -> browser.findElements(By.cssSelector("[data-testid=attempt]"))
                                .size()
                        == 1);
        assertThat(Json.parse(browser.findElement(By.cssSelector("[data-testid=unit-data]"))
                        .getText()))
                .isEqualTo(Json.parse("{\"thumbnail\":\"img-01.png\"}"));
        assertThat(browser.findElement(By.cssSelector("[data-testid=unit-status]"))
                        .getText())
                .isEqualTo("finished");
        assertThat(browser.findElement(By.cssSelector("[data-testid=attempt]")).getText())
                .startsWith("Attempt " + attempts.get(1).get("attempt_id").asText() + " finished active · worker w1");

        // Workers with their running attempts: w2 holds the odd spec's unit x.
        browser.get(base + "/#/ns/" + NS + "/workers");
        waitUntil(
                "the workers listed",
                () -> browser.findElements(By.cssSelector("[data-testid=worker]"))
                                .size()
                        == 2);
        assertThat(js("return [...document.querySelectorAll('[data-testid=worker]')].map(w => w.innerText)"))
                .asString()
                .contains("w2", "Running attempts: 1", ODD + " / x");

        // Dead letters: the malformed record with its code, or a dash from a server without the route.
        browser.get(base + "/#/dead-letters");
        waitUntil(
                "the dead letters read",
                () -> !browser.findElements(
                                By.cssSelector("[data-testid=dead-letters], [data-testid=dead-letters-missing]"))
                        .isEmpty());
        List<WebElement> codes = browser.findElements(By.cssSelector("[data-testid=error-code]"));
        if (browser.findElements(By.cssSelector("[data-testid=dead-letters-missing]"))
                .isEmpty()) {
            assertThat(codes).extracting(WebElement::getText).containsExactly("malformed_json");
            // The card names where the record it replaces was, not the dead letter's own place.
            assertThat(browser.findElement(By.cssSelector("[data-testid=dead-letter-source]"))
                            .getText())
                    .isEqualTo("Key " + NS + " · from coordinate.commands, partition " + deadLettered.partition()
                            + ", offset " + deadLettered.offset());
            // Retry sends the record again (with the kept token); it is dead-lettered again, so there are two.
            click(() -> browser.findElement(By.cssSelector("[data-testid=retry-dead-letter]")));
            waitUntil(
                    "the retry said",
                    () -> String.valueOf(js("return document.querySelector('[data-testid=message]')" + ".textContent"))
                            .matches("Sent again to coordinate\\.commands, partition \\d+, offset \\d+\\."));
            waitUntil("the retried record dead-lettered again", () -> {
                browser.findElement(By.cssSelector("[data-testid=reload-dead-letters]"))
                        .click();
                return browser.findElements(By.cssSelector("[data-testid=error-code]"))
                                .size()
                        == 2;
            });
        } else {
            assertThat(browser.findElement(By.cssSelector("[data-testid=dead-letters-missing]"))
                            .getText())
                    .isEqualTo("—");
        }
        assertThat(browser.findElements(By.cssSelector(".message.error"))).isEmpty();
    }

    /** A namespace of its own, so that the other test's counts do not see its spec. */
    @Test
    void showsAUnitsRetriesAndLastError() throws IOException {
        String ns = "dash-retries";
        String traceback = "Traceback (most recent call last):\n  File \"job.py\"\nTimeoutError: slow";
        call(ns, "{'command':'set_work_spec','work_spec':{'name':'jobs'}}");
        call(ns, "{'command':'add_work_units','work_spec_name':'jobs','work_units':[{'name':'a'},{'name':'b'}]}");
        JsonNode attempts = call(ns, "{'command':'request_attempts','worker':'w1','count':2}")
                .get("attempts");
        ObjectNode retry = (ObjectNode) Json.parse("{\"command\":\"retry_attempt\",\"delay\":600}");
        retry.put("attempt_id", attempts.get(0).get("attempt_id").asText());
        retry.putObject("data").put("traceback", traceback);
        call(ns, retry);
        call(
                ns,
                "{'command':'fail_attempt','attempt_id':'"
                        + attempts.get(1).get("attempt_id").asText() + "','data':{'traceback':'boom'}}");

        // The spec's retrying units: a, with its next attempt.
        browser.get(base + "/#/ns/" + ns + "/specs/jobs?status=retrying");
        waitUntil(
                "the retrying units listed",
                () -> List.of("a")
                        .equals(js("return [...document.querySelectorAll('[data-testid=unit-link]')]"
                                + ".map(a => a.textContent)")));
        assertThat(browser.findElement(By.cssSelector("[data-testid=units-table] [data-testid=unit-next-attempt]"))
                        .getText())
                .isNotEqualTo("—");

        // The unit: its attempts counted, when it runs next, its last error and its attempt's error.
        browser.get(base + "/#/ns/" + ns + "/specs/jobs/units/a");
        waitUntil(
                "the unit's attempt shown",
                () -> browser.findElements(By.cssSelector("[data-testid=attempt]"))
                                .size()
                        == 1);
        assertThat(browser.findElement(By.cssSelector("[data-testid=unit-attempt-count]"))
                        .getText())
                .isEqualTo("1");
        assertThat(browser.findElement(By.cssSelector("[data-testid=unit-next-attempt]"))
                        .getText())
                .endsWith(" (retrying)");
        assertThat(js("return document.querySelector('[data-testid=last-error]').textContent"))
                .isEqualTo(traceback);
        assertThat(js("return document.querySelector('[data-testid=attempt-error]').textContent"))
                .isEqualTo(traceback);
        assertThat(browser.findElement(By.cssSelector("[data-testid=attempt]")).getText())
                .startsWith("Attempt " + attempts.get(0).get("attempt_id").asText() + " retryable · worker w1");
        screenshot("dashboard-unit.png");

        // A failed unit: its error, and no next attempt.
        browser.get(base + "/#/ns/" + ns + "/specs/jobs/units/b");
        waitUntil(
                "the failed unit's last error shown",
                () -> "boom".equals(js("return document.querySelector('[data-testid=last-error]')?.textContent")));
        assertThat(browser.findElements(By.cssSelector("[data-testid=unit-next-attempt]")))
                .isEmpty();
        assertThat(browser.findElements(By.cssSelector(".message.error"))).isEmpty();
    }

    /** The spec page shows the spec's cron schedule and its next fire, as the API gives it. */
    @Test
    void showsASpecsScheduleAndItsNextFire() throws IOException {
        String ns = "dash-schedule";
        call(
                ns,
                "{'command':'set_work_spec','work_spec':{'name':'nightly','schedule':{'cron':'0 2 * * *',"
                        + "'timezone':'Europe/Berlin','catch_up':'all'}}}");
        String nextFire = client.get("/api/namespaces/" + ns + "/work-specs/nightly")
                .body()
                .path("meta")
                .path("schedule")
                .path("next_fire_time")
                .asText();
        assertThat(nextFire).matches("\\d{4}-\\d{2}-\\d{2}T0[01]:00:00.000Z");

        browser.get(base + "/#/ns/" + ns + "/specs/nightly");
        waitUntil(
                "the schedule shown",
                () -> "0 2 * * * (Europe/Berlin), catch-up all"
                        .equals(js("return document.querySelector('[data-testid=schedule-cron]')?.textContent")));
        assertThat(js("return document.querySelector('[data-testid=schedule-next-fire]').title"))
                .isEqualTo(nextFire);
        assertThat(browser.findElements(By.cssSelector(".message.error"))).isEmpty();
    }

    /** The spec page shows the spec's rate limit with its tokens, its group cap with the groups at it, its group limit. */
    @Test
    void showsASpecsLimitsWithItsTokensAndGroupsAtCap() {
        String ns = "dash-limits";
        call(
                ns,
                "{'command':'set_work_spec','work_spec':{'name':'calls','rate_limit':{'max':5,'per_seconds':3600},"
                        + "'group_max_running':1,'group_rate_limit':{'max':2,'per_seconds':60}}}");
        call(
                ns,
                "{'command':'add_work_units','work_spec_name':'calls','work_units':[{'name':'a1','group':'a'},"
                        + "{'name':'a2','group':'a'},{'name':'b1','group':'b'}]}");
        call(ns, "{'command':'request_attempts','worker':'w1','count':1}");

        browser.get(base + "/#/ns/" + ns + "/specs/calls");
        waitUntil(
                "the limits shown",
                () -> "5 per 3600 s, burst 5; 4 tokens now"
                        .equals(js("return document.querySelector('[data-testid=rate-limit]')?.textContent")));
        assertThat(js("return document.querySelector('[data-testid=group-cap]').textContent"))
                .isEqualTo("1 running per group; 1 groups at it");
        assertThat(js("return document.querySelector('[data-testid=group-rate-limit]').textContent"))
                .isEqualTo("2 per 60 s, burst 2, per group");
        assertThat(browser.findElements(By.cssSelector("[data-testid=spec-schedule]")))
                .isEmpty();
        assertThat(browser.findElements(By.cssSelector(".message.error"))).isEmpty();
    }

    // ---- The app side

    private static JsonNode call(String singleQuoted) {
        return call(NS, singleQuoted);
    }

    private static JsonNode call(String ns, String singleQuoted) {
        return call(ns, (ObjectNode) Json.parse(singleQuoted.replace('\'', '"')));
    }

    private static JsonNode call(ObjectNode command) {
        return call(NS, command);
    }

    private static JsonNode call(String ns, ObjectNode command) {
        command.put("namespace", ns);
        JsonNode reply = gateway.submit(ns, command, WAIT).join();
        assertThat(reply.get("ok").asBoolean())
                .as("reply to %s: %s", command, reply)
                .isTrue();
        return reply.get("result");
    }

    private static String units(int from, int to) {
        List<String> units = new ArrayList<>();
        for (int i = from; i < to; i++) {
            units.add(String.format("{'name':'img-%02d'}", i));
        }
        return "[" + String.join(",", units) + "]";
    }

    /** Every status with a number, zero when absent (the API omits zero counts, the page shows them). */
    private static Map<String, Long> counts(Map<String, Long> nonZero) {
        Map<String, Long> all = new LinkedHashMap<>();
        STATUSES.forEach(status -> all.put(status, nonZero.getOrDefault(status, 0L)));
        return all;
    }

    private static Map<String, Map<String, Long>> apiCounts() {
        JsonNode summary = client.get("/api/namespaces/" + URLEncoder.encode(NS, StandardCharsets.UTF_8) + "/summary")
                .body();
        Map<String, Map<String, Long>> bySpec = new TreeMap<>();
        summary.get("work_specs").forEach(spec -> {
            Map<String, Long> nonZero = new TreeMap<>();
            spec.get("counts")
                    .properties()
                    .forEach(e -> nonZero.put(e.getKey(), e.getValue().asLong()));
            bySpec.put(spec.get("name").asText(), counts(nonZero));
        });
        return bySpec;
    }

    // ---- The browser side

    /** The counts on the page, read in one script so that a refresh cannot tear them. */
    private static Map<String, Map<String, Long>> shownCounts() {
        String json = (String) js("return JSON.stringify([...document.querySelectorAll('[data-testid=spec-card]')]"
                + ".map(card => [card.dataset.spec, Object.fromEntries([...card.querySelectorAll('[data-testid^=count-]')]"
                + ".map(dd => [dd.dataset.testid.slice(6), dd.textContent]))]))");
        Map<String, Map<String, Long>> bySpec = new TreeMap<>();
        Json.parse(json).forEach(card -> {
            Map<String, Long> counts = new LinkedHashMap<>();
            STATUSES.forEach(status ->
                    counts.put(status, Long.parseLong(card.get(1).get(status).asText())));
            bySpec.put(card.get(0).asText(), counts);
        });
        return bySpec;
    }

    private static Map<String, Map<String, Long>> waitForShown(Map<String, Map<String, Long>> expected) {
        new WebDriverWait(browser, WAIT)
                .withMessage(() -> "the page to show " + expected + "; it shows " + shownCounts())
                .ignoring(StaleElementReferenceException.class)
                .until(d -> expected.equals(shownCounts()));
        return shownCounts();
    }

    private static WebElement cardElement(String spec, String testId) {
        return browser.findElements(By.cssSelector("[data-testid=spec-card]")).stream()
                .filter(card -> spec.equals(card.getDomAttribute("data-spec")))
                .findFirst()
                .map(card -> card.findElement(By.cssSelector("[data-testid=" + testId + "]")))
                .orElse(null);
    }

    private static String cardText(String spec, String testId) {
        WebElement element = cardElement(spec, testId);
        return element == null ? null : element.getText();
    }

    /** Clicks the element once it is there and enabled; a refresh that replaced it in between is tried again. */
    private static void click(Supplier<WebElement> element) {
        new WebDriverWait(browser, WAIT)
                .ignoring(StaleElementReferenceException.class)
                .until(d -> {
                    WebElement target = element.get();
                    if (target == null || !target.isEnabled()) {
                        return false;
                    }
                    target.click();
                    return true;
                });
    }

    private static void waitUntil(String what, BooleanSupplier condition) {
        new WebDriverWait(browser, WAIT)
                .withMessage(what)
                .ignoring(StaleElementReferenceException.class)
                .until(d -> condition.getAsBoolean());
    }

    private static Object js(String script) {
        return ((JavascriptExecutor) browser).executeScript(script);
    }

    private static void screenshot(String name) throws IOException {
        Path target = Path.of("target", name);
        Files.createDirectories(target.getParent());
        Files.write(target, browser.getScreenshotAs(OutputType.BYTES));
    }
}
