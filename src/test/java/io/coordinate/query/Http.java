package io.coordinate.query;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** Real HTTP calls to a {@link QueryServer} under test. */
final class Http {

    private static final HttpClient CLIENT =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

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
        return send(HttpRequest.newBuilder(uri(path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return CLIENT.send(
                    request.timeout(Duration.ofSeconds(20)).build(),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (Exception e) {
            throw new AssertionError("request failed: " + e, e);
        }
    }

    /** An answer read off the wire: the status, the headers (names in lower case) and the body. */
    record Raw(int status, Map<String, String> headers, String body) {}

    /**
     * Sends {@code request} byte for byte (any {@code Host}, malformed lines), which should ask the server to close
     * ({@code Connection: close}) or be one it cannot parse, and reads the answer until the server closes.
     */
    Raw raw(String request) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(20_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            return parse(socket.getInputStream());
        } catch (IOException e) {
            throw new AssertionError("raw request failed: " + e, e);
        }
    }

    private static Raw parse(InputStream in) throws IOException {
        String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        int end = text.indexOf("\r\n\r\n");
        if (end < 0) {
            throw new AssertionError("no complete answer: " + text);
        }
        String[] lines = text.substring(0, end).split("\r\n");
        Map<String, String> headers = new TreeMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.put(
                    lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT),
                    lines[i].substring(colon + 1).strip());
        }
        return new Raw(Integer.parseInt(lines[0].split(" ")[1]), headers, text.substring(end + 4));
    }

    URI uri(String pathAndQuery) {
        return URI.create("http://127.0.0.1:" + port + pathAndQuery);
    }
}
