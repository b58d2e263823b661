package io.coordinate.client;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/** A client whose bootstrap address refuses connections names the cause, instead of timing out on metadata. */
class UnreachableKafkaTest {

    @Test
    void aRefusedAddressFailsTheBuildWithTheCause() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort(); // closed again: nothing listens there now
        }
        String address = "127.0.0.1:" + port;
        assertThatThrownBy(() -> CoordinateClient.builder()
                        .bootstrapServers(address)
                        .namespace("ns")
                        .build())
                .isInstanceOf(CoordinateUnreachableException.class)
                .hasMessage("cannot reach Kafka at " + address + ": Connection refused (" + address + ")");
    }

    @Test
    void anUnknownHostFailsTheBuildWithTheCause() {
        assertThatThrownBy(() -> CoordinateClient.builder()
                        .bootstrapServers("no-such-host.invalid:9092")
                        .namespace("ns")
                        .build())
                .isInstanceOf(CoordinateUnreachableException.class)
                .hasMessage("cannot reach Kafka at no-such-host.invalid:9092: unknown host no-such-host.invalid");
    }
}
