package io.coordinate.query;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** Real HTTP calls to a {@link QueryServer} under test. */
final class Http {

  private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  private final int port;

  Http(int port) {
    this.port = port;
  }

  /** Percent-encodes one path segment (a space as %20, not +). */
  static String enc(String name) {
    return URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20");
  }

  HttpResponse<String> get(String pathAndQuery) {
    return send(HttpRequest.newBuilder(uri(pathAndQuery)).GET());
  }

  HttpResponse<String> post(String path, String body) {
    return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body)));
  }

  HttpResponse<String> send(HttpRequest.Builder request) {
    try {
      return CLIENT.send(request.timeout(Duration.ofSeconds(20)).build(),
          HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (Exception e) {
      throw new AssertionError("request failed: " + e, e);
    }
  }

  URI uri(String pathAndQuery) {
    return URI.create("http://127.0.0.1:" + port + pathAndQuery);
  }
}
