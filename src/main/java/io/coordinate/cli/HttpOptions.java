package io.coordinate.cli;

import io.coordinate.config.AppConfig;
import io.coordinate.config.HttpSettings;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Where the HTTP API listens, the name others reach it by, its token, its connection bounds and whom it answers:
 * options of {@code dev} and {@code run}.
 */
final class HttpOptions {

    /** The token's environment variable: unlike an option, it does not show in the process list. */
    static final String TOKEN_ENV = "COORDINATE_HTTP_TOKEN";

    static final String FEEDS_NEED_TOKEN_ENV = "COORDINATE_FEEDS_NEED_TOKEN";

    private static final Logger LOG = LoggerFactory.getLogger(HttpOptions.class);

    @Option(
            names = "--http-host",
            defaultValue = AppConfig.DEFAULT_HTTP_HOST,
            paramLabel = "ADDRESS",
            description =
                    "Address the HTTP API listens on; 0.0.0.0 (or ::) for every interface (default: ${DEFAULT-VALUE}, "
                            + "this machine only)")
    String bindHost;

    @Option(
            names = "--advertised-host",
            paramLabel = "HOST",
            description = "Host name other instances use to reach this one's HTTP API (default: --http-host, or this "
                    + "machine's host name when that is 0.0.0.0 or ::)")
    String advertisedHost;

    @Option(
            names = "--http-token",
            paramLabel = "TOKEN",
            description =
                    "Every HTTP request but GET, HEAD and OPTIONS then needs 'Authorization: Bearer TOKEN' (default: "
                            + "the environment variable " + TOKEN_ENV
                            + ", else none). Prefer the variable: options show in ps.")
    String token;

    @Option(
            names = "--feeds-need-token",
            description =
                    "Reading the event feed and the dead letters over HTTP then needs the token too: each such read "
                            + "holds a Kafka consumer. Needs a token (default: the environment variable "
                            + FEEDS_NEED_TOKEN_ENV
                            + "=true, else off: the dashboard's live feed cannot send a token).")
    boolean feedsNeedToken;

    // The connection bounds and whom the API answers (docs/operations.md, "Security").
    @Option(
            names = "--http-max-connections",
            paramLabel = "N",
            defaultValue = "${env:COORDINATE_HTTP_MAX_CONNECTIONS:-" + HttpSettings.DEFAULT_MAX_CONNECTIONS + "}",
            description = "Open HTTP connections at most; more wait until one closes (default: ${DEFAULT-VALUE}; env "
                    + "COORDINATE_HTTP_MAX_CONNECTIONS)")
    int maxConnections;

    @Option(
            names = "--http-idle-timeout",
            paramLabel = "SECONDS",
            defaultValue = "${env:COORDINATE_HTTP_IDLE_TIMEOUT:-" + HttpSettings.DEFAULT_IDLE_TIMEOUT_SECONDS + "}",
            description = "Close an HTTP connection that sends nothing this long between requests (default: "
                    + "${DEFAULT-VALUE}; env COORDINATE_HTTP_IDLE_TIMEOUT)")
    long idleTimeoutSeconds;

    @Option(
            names = "--http-allowed-hosts",
            paramLabel = "NAME",
            split = ",",
            defaultValue = "${env:COORDINATE_HTTP_ALLOWED_HOSTS}",
            description = "Host names clients may reach the API by, besides localhost, IP addresses, --http-host and "
                    + "--advertised-host; * for any (default: none; env COORDINATE_HTTP_ALLOWED_HOSTS)")
    List<String> allowedHosts;

    @Option(
            names = "--http-allowed-origins",
            paramLabel = "ORIGIN",
            split = ",",
            defaultValue = "${env:COORDINATE_HTTP_ALLOWED_ORIGINS}",
            description =
                    "Web origins (https://host[:port]) whose pages may call the API, with CORS; * for any (default: "
                            + "none, only the dashboard; env COORDINATE_HTTP_ALLOWED_ORIGINS)")
    List<String> allowedOrigins;

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    /** Reads the environment; a test gives a map instead. */
    Function<String, String> environment = System::getenv;

    AppConfig apply(AppConfig config) {
        String token = token();
        boolean needToken = feedsNeedToken || "true".equalsIgnoreCase(environment.apply(FEEDS_NEED_TOKEN_ENV));
        if (needToken && token == null) {
            throw new CliFailure(
                    ExitCodes.USAGE,
                    "error: --feeds-need-token (" + FEEDS_NEED_TOKEN_ENV + ") needs a token: " + "set " + TOKEN_ENV
                            + " or --http-token");
        }
        return config.withHttp(bindHost, advertisedHost(), token)
                .withHttpSettings(settings())
                .withFeedsNeedToken(needToken);
    }

    HttpSettings settings() {
        try {
            return new HttpSettings(
                    maxConnections, Duration.ofSeconds(idleTimeoutSeconds), allowedHosts, allowedOrigins);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    /** The option, else the environment variable; blank means none. */
    String token() {
        String value = token != null ? token : environment.apply(TOKEN_ENV);
        return value == null || value.isBlank() ? null : value;
    }

    String advertisedHost() {
        if (advertisedHost != null) {
            return advertisedHost;
        }
        if (!isWildcard(bindHost)) {
            return bindHost;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            LOG.warn(
                    "this machine's host name is unknown ({}); other instances cannot forward queries here: set "
                            + "--advertised-host",
                    e.getMessage());
            return AppConfig.DEFAULT_HTTP_HOST;
        }
    }

    /** Where a client on this machine reaches the API: the bind address, or the loopback one for a wildcard. */
    String localHost() {
        return isWildcard(bindHost) ? AppConfig.DEFAULT_HTTP_HOST : bindHost;
    }

    /** 0.0.0.0, ::, [::] and the like: every interface. Only literals: a name is never looked up here. */
    static boolean isWildcard(String host) {
        String literal = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        if (!literal.matches("[0-9.:]+")) {
            return false;
        }
        try {
            return InetAddress.getByName(literal).isAnyLocalAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
