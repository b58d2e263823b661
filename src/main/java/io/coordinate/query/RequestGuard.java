package io.coordinate.query;

import io.coordinate.config.HttpSettings;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Keeps web pages of other sites away from the API: a browser on this machine reaches 127.0.0.1 as well as any
 * client does. Two Javalin before-handlers: {@link #checkSite} before the token check, {@link #checkMediaType} after
 * it. In this order:
 *
 * <ol>
 *   <li>403 {@code forbidden_host}: the {@code Host} header names neither this instance (a loopback name, an IP
 *       address, the listening or advertised host) nor an allowed host. A page whose name was re-pointed at this
 *       machine (DNS rebinding) sends its own name there. A request without {@code Host} (HTTP/1.0: the image's
 *       health check) comes from no browser and passes.
 *   <li>403 {@code forbidden_origin}: the {@code Origin} header is neither this server's (the dashboard) nor an
 *       allowed origin. An allowed origin gets the CORS answer headers, and its preflight {@code OPTIONS} a 204.
 *   <li>415 {@code unsupported_media_type}: a mutation (any method but GET, HEAD and OPTIONS) without {@code
 *       Content-Type: application/json}. Browsers send that type across sites only after a preflight, which the
 *       origin check answers; forms and {@code no-cors} fetches cannot.
 * </ol>
 */
final class RequestGuard {

    static final String JSON = "application/json";
    /** The request headers the API reads, granted to allowed origins. */
    private static final String ALLOWED_HEADERS = "Authorization, Content-Type, Last-Event-ID";

    private static final Pattern IPV4 =
            Pattern.compile("(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}");
    private static final Pattern IPV6 = Pattern.compile("\\[[0-9a-f:.]+]");

    private final boolean anyHost;
    private final Set<String> hosts = new HashSet<>(List.of("localhost"));
    private final boolean anyOrigin;
    private final Set<String> origins = new HashSet<>();

    /** @param bindHost the address listened on: a name given there is this instance's too */
    RequestGuard(HttpSettings settings, String bindHost) {
        anyHost = settings.allowedHosts().contains(HttpSettings.ANY);
        hosts.add(name(bindHost));
        settings.allowedHosts().forEach(host -> hosts.add(name(host)));
        anyOrigin = settings.allowedOrigins().contains(HttpSettings.ANY);
        for (String origin : settings.allowedOrigins()) {
            if (!origin.equals(HttpSettings.ANY)) {
                String canonical = canonicalOrigin(origin);
                if (canonical == null) {
                    throw new IllegalArgumentException("not an origin (scheme://host[:port]): \"" + origin + "\"");
                }
                origins.add(canonical);
            }
        }
    }

    /** The host and origin checks, and the answer to an allowed origin's preflight. */
    void checkSite(Context ctx) {
        String host = ctx.header("Host");
        if (host != null && !hostAllowed(host)) {
            throw new QueryError(
                    403,
                    "forbidden_host",
                    "this instance does not answer to the name in \"Host: " + host
                            + "\": add it to --http-allowed-hosts (COORDINATE_HTTP_ALLOWED_HOSTS) if clients reach it by that name",
                    false);
        }
        String origin = ctx.header("Origin");
        if (origin != null && !sameOrigin(origin, host)) {
            if (!anyOrigin && !origins.contains(canonicalOrigin(origin))) {
                throw new QueryError(
                        403,
                        "forbidden_origin",
                        "requests from pages of " + origin + " are refused: add the "
                                + "origin to --http-allowed-origins (COORDINATE_HTTP_ALLOWED_ORIGINS) to let them in",
                        false);
            }
            ctx.header("Access-Control-Allow-Origin", origin);
            ctx.header("Vary", "Origin");
            if (ctx.method() == HandlerType.OPTIONS && ctx.header("Access-Control-Request-Method") != null) {
                ctx.header("Access-Control-Allow-Methods", "GET, POST");
                ctx.header("Access-Control-Allow-Headers", ALLOWED_HEADERS);
                ctx.header("Access-Control-Max-Age", "600");
                ctx.status(204).skipRemainingHandlers();
            }
        }
    }

    /** A mutation's body must be declared JSON. */
    void checkMediaType(Context ctx) {
        if (isMutation(ctx.method()) && !isJson(ctx.header("Content-Type"))) {
            String given = ctx.header("Content-Type");
            throw new QueryError(
                    415,
                    "unsupported_media_type",
                    ctx.req().getMethod() + " requests need the header " + "\"Content-Type: " + JSON + "\""
                            + (given == null ? "" : ", got \"" + given + "\""),
                    false);
        }
    }

    static boolean isMutation(HandlerType method) {
        return method != HandlerType.GET && method != HandlerType.HEAD && method != HandlerType.OPTIONS;
    }

    private static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        int parameters = contentType.indexOf(';');
        return (parameters < 0 ? contentType : contentType.substring(0, parameters))
                .strip()
                .equalsIgnoreCase(JSON);
    }

    private boolean hostAllowed(String hostHeader) {
        String name = name(hostPart(hostHeader));
        return anyHost || hosts.contains(name) || isIpAddress(name);
    }

    /**
     * An IP address in {@code Host} is safe to answer: DNS rebinding needs a name that its owner points here, and a
     * page on an address is that address's own. So is any address behind a port mapping or proxy.
     */
    static boolean isIpAddress(String host) {
        if (IPV4.matcher(host).matches()) {
            return true;
        }
        if (!IPV6.matcher(host).matches()) {
            return false;
        }
        try {
            InetAddress.getByName(host.substring(1, host.length() - 1)); // a literal: never looked up
            return true;
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** The dashboard's own requests: the {@code Origin} names the scheme's host and port the request was sent to. */
    private static boolean sameOrigin(String origin, String hostHeader) {
        URI uri = originUri(origin);
        if (uri == null || hostHeader == null) {
            return false;
        }
        int defaultPort = defaultPort(uri.getScheme());
        String host = hostPart(hostHeader);
        return name(uri.getHost()).equals(name(host)) && port(uri, defaultPort) == hostPort(hostHeader, defaultPort);
    }

    /** {@code scheme://host:port} with the scheme's default port written out; null for what is no origin. */
    static String canonicalOrigin(String origin) {
        URI uri = originUri(origin);
        return uri == null
                ? null
                : uri.getScheme().toLowerCase(Locale.ROOT) + "://" + name(uri.getHost()) + ":"
                        + port(uri, defaultPort(uri.getScheme()));
    }

    private static URI originUri(String origin) {
        try {
            URI uri = new URI(origin.strip());
            boolean bare = uri.getRawPath() == null || uri.getRawPath().isEmpty();
            return uri.getScheme() != null
                            && uri.getHost() != null
                            && uri.getRawUserInfo() == null
                            && bare
                            && uri.getRawQuery() == null
                            && uri.getRawFragment() == null
                    ? uri
                    : null;
        } catch (Exception e) {
            return null; // "null" (a sandboxed page, a file) and anything else that is no origin
        }
    }

    private static int defaultPort(String scheme) {
        return "https".equalsIgnoreCase(scheme) ? 443 : 80;
    }

    private static int port(URI uri, int defaultPort) {
        return uri.getPort() < 0 ? defaultPort : uri.getPort();
    }

    /** {@code name}, {@code 1.2.3.4} or {@code [::1]} from {@code host[:port]}. */
    private static String hostPart(String authority) {
        String value = authority.strip();
        int end = value.startsWith("[") ? value.indexOf(']') + 1 : value.indexOf(':');
        return end <= 0 ? value : value.substring(0, end);
    }

    private static int hostPort(String authority, int defaultPort) {
        String rest = authority.strip().substring(hostPart(authority).length());
        if (!rest.startsWith(":") || rest.length() == 1) {
            return defaultPort;
        }
        try {
            return Integer.parseInt(rest.substring(1));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Names compare without case and without the root's trailing dot. */
    private static String name(String host) {
        String lower = host.toLowerCase(Locale.ROOT);
        return lower.endsWith(".") ? lower.substring(0, lower.length() - 1) : lower;
    }
}
