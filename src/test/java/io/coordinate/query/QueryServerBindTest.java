package io.coordinate.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.coordinate.testing.FixedLocator;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.SocketException;
import java.util.Collections;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Where the server listens: the loopback address unless told otherwise. */
class QueryServerBindTest {

    private QueryServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private QueryServer server() {
        return new QueryServer(
                new FixedLocator(new EngineFixture().store),
                new FakeGateway(),
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
    }

    @Test
    void byDefaultOnlyTheLoopbackAddressAnswers() {
        server = server().start(0);
        assertThat(new Http(server.port()).get("/health").statusCode()).isEqualTo(200);
        Optional<InetAddress> other = nonLoopbackAddress();
        assumeThat(other)
                .as("this machine has an address other than the loopback one")
                .isPresent();
        assertThat(accepts(other.get(), server.port())).isFalse();
    }

    @Test
    void theWildcardAddressListensOnEveryInterface() {
        server = server().start("0.0.0.0", 0);
        assertThat(new Http(server.port()).get("/health").statusCode()).isEqualTo(200);
        Optional<InetAddress> other = nonLoopbackAddress();
        assumeThat(other)
                .as("this machine has an address other than the loopback one")
                .isPresent();
        assertThat(accepts(other.get(), server.port())).isTrue();
    }

    /** An IPv4 address of an interface that is up and not the loopback one, if the machine has one. */
    static Optional<InetAddress> nonLoopbackAddress() {
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (!nic.isUp() || nic.isLoopback()) {
                    continue;
                }
                for (InetAddress address : Collections.list(nic.getInetAddresses())) {
                    if (address instanceof Inet4Address && !address.isLoopbackAddress()) {
                        return Optional.of(address);
                    }
                }
            }
        } catch (SocketException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    /** Whether a TCP connection to the address and port is accepted (refused: nothing listens there). */
    static boolean accepts(InetAddress address, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(address, port), 5_000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
