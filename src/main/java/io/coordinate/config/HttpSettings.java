package io.coordinate.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The HTTP API's bounds and whom it answers (docs/operations.md, "Security").
 *
 * @param maxConnections  open connections at most; beyond, new ones wait in the kernel's queue until one closes, so
 *                        that clients can never take the file descriptors the state stores need
 * @param idleTimeout     a connection with no request in progress (before its first request, between two) that sends
 *                        nothing for this long is closed
 * @param allowedHosts    names, besides this instance's own and IP addresses, that the {@code Host} header may give;
 *                        {@code *}: any
 * @param allowedOrigins  origins ({@code scheme://host[:port]}) of other sites whose pages may call the API; {@code *}:
 *                        any
 */
public record HttpSettings(
        int maxConnections, Duration idleTimeout, List<String> allowedHosts, List<String> allowedOrigins) {

    /** Well inside the smallest open-file limit the app starts with, shared with the stores and Kafka clients. */
    public static final int DEFAULT_MAX_CONNECTIONS = 256;

    public static final long DEFAULT_IDLE_TIMEOUT_SECONDS = 10;
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(DEFAULT_IDLE_TIMEOUT_SECONDS);
    public static final String ANY = "*";
    /** {@code scheme://host[:port]}, as a browser sends it in {@code Origin}: no path, no user. */
    private static final Pattern ORIGIN = Pattern.compile("[a-z][a-z0-9+.-]*://[^/?#@\\s]+");

    public static final HttpSettings DEFAULTS =
            new HttpSettings(DEFAULT_MAX_CONNECTIONS, DEFAULT_IDLE_TIMEOUT, List.of(), List.of());

    public HttpSettings {
        if (maxConnections < 1) {
            throw new IllegalArgumentException("the HTTP connection limit must be 1 or more, got " + maxConnections);
        }
        if (idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException(
                    "the HTTP idle timeout must be positive, got " + idleTimeout.toMillis() + " ms");
        }
        allowedHosts = names(allowedHosts);
        allowedOrigins = names(allowedOrigins);
        for (String origin : allowedOrigins) {
            if (!origin.equals(ANY) && !ORIGIN.matcher(origin).matches()) {
                throw new IllegalArgumentException(
                        "an allowed origin is scheme://host[:port] (as https://ops.example.com), got \"" + origin
                                + "\"");
            }
        }
    }

    /** The same, with {@code host} allowed too (this instance's advertised name, which other instances forward to). */
    public HttpSettings allowingHost(String host) {
        List<String> hosts = new ArrayList<>(allowedHosts);
        hosts.add(host);
        return new HttpSettings(maxConnections, idleTimeout, hosts, allowedOrigins);
    }

    /** Lower case, blanks dropped: names and origins compare without regard to case. */
    private static List<String> names(List<String> values) {
        return Objects.requireNonNullElse(values, List.<String>of()).stream()
                .filter(Objects::nonNull)
                .map(String::strip)
                .filter(value -> !value.isEmpty())
                .map(value -> value.toLowerCase(Locale.ROOT))
                .distinct()
                .toList();
    }
}
