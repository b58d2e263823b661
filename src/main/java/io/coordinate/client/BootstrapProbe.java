package io.coordinate.client;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.utils.Utils;

/**
 * A TCP connect to the bootstrap addresses before a Kafka client is made: Kafka's clients retry a refused
 * connection until their metadata timeout (tens of seconds) and then say only "timeout", while the cause (nothing
 * listens there, an unknown host) is known at once.
 */
public final class BootstrapProbe {

    /**
     * Said when the address accepted a connection but Kafka's client got no answer or failed to authenticate: the
     * likely cause is a client that speaks another security protocol than the listener.
     */
    public static final String HANDSHAKE_HINT = " (the address accepts connections: if the cluster uses TLS or SASL, "
            + "check security.protocol and the other settings of --kafka-config; a mismatch fails the handshake)";

    private BootstrapProbe() {}

    /**
     * Connects to the addresses, one after the other, until one accepts: null then, else why none did within
     * {@code timeout} (the last reason, naming its address). Addresses Kafka cannot parse are left to its clients,
     * which name them.
     */
    public static String unreachable(String bootstrapServers, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String reason = null;
        for (String server : bootstrapServers.split(",")) {
            String host = Utils.getHost(server.trim());
            Integer port = Utils.getPort(server.trim());
            if (host == null || port == null) {
                return null;
            }
            InetAddress[] addresses;
            try {
                addresses = InetAddress.getAllByName(host);
            } catch (IOException e) {
                reason = "unknown host " + host;
                continue;
            }
            for (InetAddress address : addresses) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    return "no connection within " + timeout.toSeconds() + " s"
                            + (reason == null ? "" : " (" + reason + ")");
                }
                try (Socket socket = new Socket()) {
                    socket.connect(new InetSocketAddress(address, port), (int) Math.min(left, Integer.MAX_VALUE));
                    return null;
                } catch (IOException e) {
                    reason = e.getMessage() + " (" + address.getHostAddress() + ":" + port + ")";
                }
            }
        }
        return reason;
    }
}
