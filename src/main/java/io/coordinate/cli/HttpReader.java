package io.coordinate.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.protocol.Json;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * GETs of the HTTP API (docs/reference.md "HTTP") for the operator commands' reads. An error answer becomes
 * {@code error: <code>: <message>}: exit 2 for a 400 (a bad value on the command line), else exit 1 (404 for what
 * does not exist, 503); an API that cannot be reached within the timeout, exit 3 with one line naming the address.
 */
final class HttpReader {

    private final String baseUrl;
    private final Duration timeout;
    private final HttpClient http;

    HttpReader(String baseUrl, Duration timeout) {
        this.baseUrl = baseUrl;
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
    }

    /** {@code /api/namespaces/{ns}/{segments...}}, each name percent-encoded. */
    static String namespacePath(String namespace, String... segments) {
        StringBuilder path = new StringBuilder("/api/namespaces/").append(encode(namespace));
        for (String segment : segments) {
            path.append('/').append(encode(segment));
        }
        return path.toString();
    }

    /** GETs {@code path} with the query parameters that are set (a list repeats its parameter); answers the JSON. */
    JsonNode get(String path, Map<String, List<String>> query) {
        StringJoiner parameters = new StringJoiner("&", "?", "").setEmptyValue("");
        query.forEach((name, values) -> values.forEach(value -> parameters.add(name + "=" + encode(value))));
        URI uri = URI.create(baseUrl + path + parameters);
        HttpResponse<String> response;
        try {
            response = http.send(
                    HttpRequest.newBuilder(uri).timeout(timeout).GET().build(),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new CliFailure(
                    ExitCodes.UNREACHABLE, "cannot reach the HTTP API at " + baseUrl + ": " + reason(e), true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliFailure(ExitCodes.UNREACHABLE, "interrupted while reading " + uri);
        }
        JsonNode body;
        try {
            body = Json.parse(response.body());
        } catch (IllegalArgumentException e) {
            throw new CliFailure(
                    ExitCodes.REFUSED,
                    "error: HTTP " + response.statusCode() + " from " + uri
                            + " is not JSON (is --http-url the app's?)");
        }
        if (response.statusCode() != 200) {
            JsonNode error = body.path("error");
            // A 400 is about a value the command line gave (a status, a limit): a usage error, as the docs say.
            int exitCode = response.statusCode() == 400 ? ExitCodes.USAGE : ExitCodes.REFUSED;
            throw new CliFailure(
                    exitCode,
                    "error: " + error.path("code").asText("http_" + response.statusCode()) + ": "
                            + error.path("message").asText("HTTP " + response.statusCode() + " from " + uri),
                    response.statusCode() == 503);
        }
        return body;
    }

    /** Percent-encoded UTF-8, as the API reads names in paths and parameters ({@code +} is a plus sign there). */
    static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private String reason(IOException e) {
        if (e instanceof java.net.http.HttpTimeoutException) {
            return "no answer within " + timeout.toSeconds() + " s";
        }
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof java.nio.channels.UnresolvedAddressException) {
                return "unknown host";
            }
            if (cause.getMessage() != null && !cause.getMessage().isBlank()) {
                return cause.getMessage().lines().findFirst().orElse("");
            }
        }
        // The HTTP client's ConnectException says nothing: refused is what it means.
        return e instanceof java.net.ConnectException
                ? "Connection refused"
                : e.getClass().getSimpleName();
    }
}
