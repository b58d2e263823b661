package io.coordinate.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.client.CoordinateClient;
import io.coordinate.protocol.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * What the operator commands share: where the deployment is ({@link ClientOptions}), {@code --json}, output on the
 * command line's writers (stdout for results, stderr for the rest), mutations through a {@link CoordinateClient}
 * and reads through the {@link HttpReader}.
 */
abstract class OperatorCommand implements Callable<Integer> {

    @Mixin
    ClientOptions options;

    @Option(names = "--json", description = "Print JSON for scripts (the HTTP answer or the reply) instead of a table.")
    boolean json;

    @Spec
    CommandSpec command;

    @Override
    public final Integer call() throws Exception {
        run();
        return ExitCodes.OK;
    }

    /** Does the work; a failure is an exception, which {@link CoordinateCli}'s handler maps to an exit code. */
    abstract void run() throws Exception;

    PrintWriter out() {
        return command.commandLine().getOut();
    }

    PrintWriter err() {
        return command.commandLine().getErr();
    }

    void printJson(JsonNode node) {
        out().println(Json.text(node));
        out().flush();
    }

    void printLine(String line) {
        out().println(line);
        out().flush();
    }

    /** For a page of a list that has more ({@code next} is set): what to pass for the next page, on stderr. */
    void printNextPageHint(JsonNode page) {
        if (page.hasNonNull("next")) {
            err().println("more: pass --after " + page.get("next").asText());
            err().flush();
        }
    }

    /** GETs a path of this namespace ({@link HttpReader#namespacePath}). */
    JsonNode read(Map<String, List<String>> query, String... segments) {
        return new HttpReader(options.httpUrl(), ClientOptions.TIMEOUT)
                .get(HttpReader.namespacePath(options.namespace(), segments), query);
    }

    JsonNode read(String... segments) {
        return read(Map.of(), segments);
    }

    /** The query parameters of a read: each name with its values, absent ones left out. */
    static Map<String, List<String>> parameters(Object... namesAndValues) {
        Map<String, List<String>> parameters = new LinkedHashMap<>();
        for (int i = 0; i + 1 < namesAndValues.length; i += 2) {
            Object value = namesAndValues[i + 1];
            if (value instanceof List<?> list && !list.isEmpty()) {
                parameters.put(
                        (String) namesAndValues[i],
                        list.stream().map(String::valueOf).toList());
            } else if (value != null && !(value instanceof List<?>)) {
                parameters.put((String) namesAndValues[i], List.of(String.valueOf(value)));
            }
        }
        return parameters;
    }

    /** Connects, sends one command and waits for its reply. */
    <T> T send(Function<CoordinateClient, CompletableFuture<T>> call) {
        try (CoordinateClient client = options.client()) {
            return await(call.apply(client));
        }
    }

    /** The unit statuses in the order of docs/reference.md "Unit statuses": the count columns of tables. */
    static final List<String> STATUSES =
            List.of("blocked", "delayed", "available", "pending", "waiting", "finished", "failed", "cancelled");

    /** The counts of {@link #STATUSES} in a {@code counts} object (zero counts are omitted there). */
    static Object[] countCells(JsonNode counts) {
        return STATUSES.stream()
                .map(status -> (Object) counts.path(status).asLong())
                .toArray();
    }

    /** These headers, then one per unit status. */
    static String[] headers(String... first) {
        return concat(first, STATUSES.stream().map(String::toUpperCase).toArray(String[]::new));
    }

    /** The two arrays as one, of the first's type. */
    static <T> T[] concat(T[] first, Object[] rest) {
        T[] all = Arrays.copyOf(first, first.length + rest.length);
        System.arraycopy(rest, 0, all, first.length, rest.length);
        return all;
    }

    /** A JSON value as a table cell: numbers stay numbers (right-aligned), null is {@code -}, objects are JSON. */
    static Object cell(JsonNode value) {
        if (value == null || value.isNull() || value.isMissingNode()) {
            return null;
        }
        if (value.isNumber()) {
            return value.numberValue();
        }
        return value.isValueNode() ? value.asText() : Json.text(value);
    }

    /** At most {@code max} characters, with {@code ...} when cut. */
    static String shorten(Object text, int max) {
        String value = text == null ? "-" : String.valueOf(text);
        return value.length() <= max ? value : value.substring(0, max - 3) + "...";
    }

    /** The file, or stdin for {@code -}; one that cannot be opened is a usage error. */
    static BufferedReader open(String file) {
        if ("-".equals(file)) {
            return new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        }
        try {
            return Files.newBufferedReader(Path.of(file), StandardCharsets.UTF_8);
        } catch (IOException | InvalidPathException e) {
            throw new CliFailure(ExitCodes.USAGE, "error: cannot read " + file + ": " + e.getMessage());
        }
    }

    /** The reply; no reply in time is exit 3, since the app (or Kafka) did not answer. */
    <T> T await(CompletableFuture<T> reply) {
        try {
            return reply.join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            if (cause instanceof java.util.concurrent.TimeoutException
                    || cause instanceof org.apache.kafka.common.errors.TimeoutException) {
                throw new CliFailure(
                        ExitCodes.UNREACHABLE,
                        "no reply within " + ClientOptions.TIMEOUT.toSeconds() + " s through Kafka at "
                                + options.bootstrapServers() + " (is the app running?)");
            }
            throw cause instanceof RuntimeException runtime ? runtime : e;
        }
    }
}
