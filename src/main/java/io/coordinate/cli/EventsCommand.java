package io.coordinate.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.protocol.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code coordinate events tail}: the namespace's events, read from the HTTP API's event feed. */
@Command(name = "events", description = "Read the namespace's events.", subcommands = EventsCommand.Tail.class)
final class EventsCommand {

    @Command(
            name = "tail",
            description = "Print the namespace's events, one line each: those that come from now on "
                    + "(the default), from the oldest kept, or from an offset; stop once caught up unless --follow.")
    static final class Tail extends OperatorCommand {

        /** The batch fields shown first, under a short name; the others follow as they come. */
        private static final Map<String, String> SHORT_NAMES =
                Map.of("work_spec_name", "spec", "work_unit_name", "unit");

        private static final Set<String> SHOWN_FIRST =
                Set.of("type", "work_spec_name", "work_unit_name", "status", "previous_status", "attempt_id");

        @Option(
                names = "--from",
                defaultValue = "now",
                paramLabel = "now|earliest|OFFSET",
                description =
                        "Where to start: now (default: only new events), earliest (every batch kept), or the offset "
                                + "of a batch in the events topic.")
        String from;

        @Option(names = "--follow", description = "Keep printing new events until interrupted (Ctrl-C).")
        boolean follow;

        @Option(
                names = "--http-token",
                paramLabel = "TOKEN",
                defaultValue = "${env:" + HttpOptions.TOKEN_ENV + "}",
                description =
                        "Sent as 'Authorization: Bearer TOKEN', for an instance whose feeds need it (default: the "
                                + "environment variable " + HttpOptions.TOKEN_ENV
                                + "). Prefer the variable: options show in ps.")
        String token;

        private static final Duration RECONNECT_DELAY = Duration.ofSeconds(1);

        /** The offset of the last batch printed: where a reconnect resumes ({@code Last-Event-ID}). */
        private String lastOffset;
        /** Whether a stream was ever opened: a feed that never answered is a wrong address, not a restart. */
        private boolean reachedOnce;

        @Override
        void run() throws InterruptedException {
            if (!from.equals("now") && !from.equals("earliest") && !from.matches("[0-9]{1,18}")) {
                throw new CliFailure(
                        ExitCodes.USAGE, "error: --from must be now, earliest or an offset, got \"" + from + "\"");
            }
            URI uri = URI.create(
                    options.httpUrl() + HttpReader.namespacePath(options.namespace(), "events") + "?from=" + from);
            HttpClient http = HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(ClientOptions.TIMEOUT)
                    .build();
            while (true) {
                String broke;
                try {
                    if (stream(http, uri)) {
                        return;
                    }
                    broke = "ended (the instance stopped?)";
                } catch (IOException | UncheckedIOException e) {
                    String reason = firstLine(e instanceof UncheckedIOException ? e.getCause() : e);
                    if (!reachedOnce) {
                        throw new CliFailure(
                                ExitCodes.UNREACHABLE,
                                "cannot reach the HTTP API at " + options.httpUrl() + ": " + reason);
                    }
                    broke = "broke off: " + reason;
                }
                if (!follow) {
                    throw new CliFailure(ExitCodes.UNREACHABLE, "the event feed at " + options.httpUrl() + " " + broke);
                }
                // A follower outlives a restart of the instance, as tail -F does a rotated file, and goes on after the
                // last
                // batch it printed (from where it started when it printed none).
                err().println("the event feed at " + options.httpUrl() + " " + broke + "; reconnecting in "
                        + RECONNECT_DELAY.toSeconds() + " s");
                err().flush();
                Thread.sleep(RECONNECT_DELAY.toMillis());
            }
        }

        /** One stream: true once caught up without {@code --follow}, false when it ends; resumes after the last batch. */
        private boolean stream(HttpClient http, URI uri) throws IOException, InterruptedException {
            HttpRequest.Builder request = HttpRequest.newBuilder(uri)
                    .header("Accept", "text/event-stream")
                    .GET();
            if (lastOffset != null) {
                request.header("Last-Event-ID", lastOffset);
            }
            if (token != null && !token.isBlank()) {
                request.header("Authorization", "Bearer " + token.strip());
            }
            HttpResponse<Stream<String>> response = http.send(request.build(), HttpResponse.BodyHandlers.ofLines());
            try (Stream<String> lines = response.body()) {
                int status = response.statusCode();
                if ((status == 503 || status == 429) && follow && reachedOnce) {
                    // Busy (every stream taken), restarting, or this machine's streams not yet closed: retry.
                    throw new IOException("HTTP " + status + ": " + lines.collect(Collectors.joining(" ")));
                }
                if (response.statusCode() != 200) {
                    throw refused(response.statusCode(), lines.collect(Collectors.joining("\n")));
                }
                reachedOnce = true;
                return read(lines.iterator());
            }
        }

        private static String firstLine(Throwable e) {
            return e.getMessage() == null
                    ? e.getClass().getSimpleName()
                    : e.getMessage().lines().findFirst().orElse("");
        }

        /** Prints the stream's batches; true once caught up without {@code --follow}, false when the stream ends. */
        private boolean read(Iterator<String> lines) {
            SseParser parser = new SseParser();
            while (lines.hasNext()) {
                SseParser.Message message = parser.line(lines.next());
                if (message == null) {
                    continue;
                }
                if (message.event().equals("batch")) {
                    print(message.id(), message.data());
                    lastOffset = message.id();
                } else if (message.event().equals("caught_up") && !follow) {
                    return true;
                }
            }
            return false;
        }

        private void print(String offset, String data) {
            if (json) {
                printLine(data);
                return;
            }
            JsonNode batch = Json.parse(data);
            for (JsonNode event : batch.path("events")) {
                printLine(line(batch.path("time").asText("-"), offset, event));
            }
        }

        /** {@code <time> @<offset> <type> spec=S unit=U status=OLD->NEW attempt=A <other fields>}, what is set. */
        static String line(String time, String offset, JsonNode event) {
            StringBuilder line = new StringBuilder(time)
                    .append(" @")
                    .append(offset)
                    .append(' ')
                    .append(event.path("type").asText("?"));
            for (String field : new String[] {"work_spec_name", "work_unit_name"}) {
                if (event.has(field)) {
                    line.append(' ').append(SHORT_NAMES.get(field)).append('=').append(text(event.get(field)));
                }
            }
            if (event.has("status")) {
                line.append(" status=");
                if (event.has("previous_status")) {
                    line.append(text(event.get("previous_status"))).append("->");
                }
                line.append(text(event.get("status")));
            }
            if (event.has("attempt_id")) {
                line.append(" attempt=").append(text(event.get("attempt_id")));
            }
            event.fields().forEachRemaining(field -> {
                if (!SHOWN_FIRST.contains(field.getKey())) {
                    line.append(' ').append(field.getKey()).append('=').append(text(field.getValue()));
                }
            });
            return line.toString();
        }

        private static String text(JsonNode value) {
            return value.isTextual() ? value.asText() : Json.text(value);
        }

        /** An error answer: {@code error: <code>: <message>}, exit 1, as {@link HttpReader} reports one. */
        private CliFailure refused(int status, String body) {
            try {
                JsonNode error = Json.parse(body).path("error");
                return new CliFailure(
                        ExitCodes.REFUSED,
                        "error: " + error.path("code").asText("http_" + status) + ": "
                                + error.path("message").asText("HTTP " + status));
            } catch (IllegalArgumentException e) {
                return new CliFailure(
                        ExitCodes.REFUSED,
                        "error: HTTP " + status + " from " + options.httpUrl()
                                + " is not JSON (is --http-url the app's?)");
            }
        }
    }
}
