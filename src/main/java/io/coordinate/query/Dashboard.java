package io.coordinate.query;

import io.javalin.config.JavalinConfig;
import io.javalin.http.staticfiles.Location;
import java.util.Map;

/**
 * The operators' dashboard: plain HTML, CSS and JavaScript modules from the classpath's {@code dashboard/} folder,
 * served at {@code /} ({@code index.html}). Nothing is built or fetched from elsewhere at run time; the page reads
 * the API routes of this same server. API routes match first, so a file can never shadow one.
 */
final class Dashboard {

    static final String CLASSPATH_FOLDER = "/dashboard";

    /** Only this server's own files and API: a name shown on the page can never load or run anything. */
    static final String CONTENT_SECURITY_POLICY = "default-src 'self'; img-src 'self' data:; object-src 'none'; "
            + "base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

    private Dashboard() {}

    static void serve(JavalinConfig config) {
        config.staticFiles.add(files -> {
            files.hostedPath = "/";
            files.directory = CLASSPATH_FOLDER;
            files.location = Location.CLASSPATH;
            // Revalidate every time (ETags make that cheap): an upgraded app never runs with an old script.
            files.headers = Map.of(
                    "Cache-Control",
                    "no-cache",
                    "Content-Security-Policy",
                    CONTENT_SECURITY_POLICY,
                    "X-Content-Type-Options",
                    "nosniff");
        });
    }
}
