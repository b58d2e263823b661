package io.coordinate.query;

import java.time.Duration;
import org.eclipse.jetty.server.ConnectionLimit;
import org.eclipse.jetty.server.Connector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Jetty's {@link ConnectionLimit} on the API's connector: at the limit it stops accepting, so further connections
 * wait in the kernel's accept queue, where they hold no file descriptor of this process, until one closes (an idle one
 * after the idle timeout). Each time the limit is reached it says so, at most once a minute.
 */
final class ConnectionCap extends ConnectionLimit {

    private static final Logger LOG = LoggerFactory.getLogger(ConnectionCap.class);
    static final Duration LOG_INTERVAL = Duration.ofMinutes(1);

    private final int max;
    private final Duration idleTimeout;
    private long timesReached;
    private long lastLogged;
    private boolean logged;

    ConnectionCap(int max, Duration idleTimeout, Connector connector) {
        super(max, connector);
        this.max = max;
        this.idleTimeout = idleTimeout;
    }

    /** Called under the limit's lock, once each time the open connections reach the limit. */
    @Override
    protected void limit() {
        super.limit();
        String line = reached(System.nanoTime());
        if (line != null) {
            LOG.warn(line);
        }
    }

    /** Counts one more time the limit was reached: the line to log, or null within a minute of the last one. */
    String reached(long nanos) {
        timesReached++;
        if (logged && nanos - lastLogged < LOG_INTERVAL.toNanos()) {
            return null;
        }
        String line = "HTTP reached its limit of " + max + " open connections (--http-max-connections): new ones wait "
                + "until one closes, and idle ones close after " + idleTimeout.toSeconds() + " s (" + timesReached
                + " time(s) since the last such line)";
        timesReached = 0;
        lastLogged = nanos;
        logged = true;
        return line;
    }
}
