package io.coordinate.query;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.protocol.Json;
import io.javalin.http.Context;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Talks to the other instances: relays a GET to the namespace's owner, and collects their local namespace
 * lists. A forwarded request carries {@link #FORWARDED_HEADER} so it is never forwarded a second time (two
 * instances with stale metadata would otherwise bounce it back and forth). With a token configured, every request
 * to another instance carries it: the instances of one application share one token.
 */
final class Forwarder {

    static final String FORWARDED_HEADER = "X-Coordinate-Forwarded";

    private final HttpClient client;
    private final Duration timeout;
    private final BearerToken token;

    /** @param token sent along to the other instances; null: none */
    Forwarder(Duration timeout, BearerToken token) {
        this.timeout = timeout;
        this.token = token;
        this.client = HttpClient.newBuilder()
                .connectTimeout(timeout)
                .version(HttpClient.Version.HTTP_1_1)
                .build();
    }

    static boolean isForwarded(Context ctx) {
        return ctx.header(FORWARDED_HEADER) != null;
    }

    /** Answers {@code ctx} with the owner's answer to the same path and query; 503 when the owner does not answer. */
    void forward(Context ctx, String hostAndPort) {
        if (isForwarded(ctx)) {
            throw QueryError.unavailable("namespace moved again while the request was forwarded to this instance");
        }
        String query = ctx.queryString();
        // The raw (still percent-encoded) path, so names reach the owner exactly as the client encoded them.
        URI uri = URI.create("http://" + hostAndPort + ctx.req().getRequestURI() + (query == null ? "" : "?" + query));
        HttpResponse<byte[]> response = send(uri, hostAndPort);
        ctx.status(response.statusCode());
        response.headers().firstValue("Content-Type").ifPresent(ctx::contentType);
        response.headers().firstValue("Retry-After").ifPresent(value -> ctx.header("Retry-After", value));
        ctx.result(response.body());
    }

    /** The names of the namespaces held by each instance's local stores, asked in parallel. */
    List<String> remoteNamespaces(List<String> instances) {
        List<CompletableFuture<HttpResponse<byte[]>>> calls = new ArrayList<>();
        for (String instance : instances) {
            URI uri = URI.create("http://" + instance + "/api/namespaces?local=true");
            calls.add(client.sendAsync(request(uri), HttpResponse.BodyHandlers.ofByteArray()));
        }
        List<String> names = new ArrayList<>();
        for (int i = 0; i < calls.size(); i++) {
            HttpResponse<byte[]> response;
            try {
                response = calls.get(i).join();
            } catch (CompletionException e) {
                throw QueryError.unavailable("instance " + instances.get(i) + " did not answer: " + e.getCause());
            }
            if (response.statusCode() != 200) {
                throw QueryError.unavailable("instance " + instances.get(i) + " answered " + response.statusCode());
            }
            try {
                Json.parse(response.body()).path("namespaces").forEach((JsonNode n) -> names.add(n.asText()));
            } catch (IOException e) {
                throw QueryError.unavailable("instance " + instances.get(i) + " answered no JSON");
            }
        }
        return names;
    }

    private HttpResponse<byte[]> send(URI uri, String hostAndPort) {
        try {
            return client.send(request(uri), HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw QueryError.unavailable("owner " + hostAndPort + " did not answer: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw QueryError.unavailable("interrupted while asking " + hostAndPort);
        }
    }

    private HttpRequest request(URI uri) {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(uri).timeout(timeout).header(FORWARDED_HEADER, "1");
        if (token != null) {
            request.header(BearerToken.HEADER, token.headerValue());
        }
        return request.GET().build();
    }
}
