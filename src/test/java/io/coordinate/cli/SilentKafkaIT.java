package io.coordinate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code run} against an address that accepts connections but never answers a Kafka request (a firewall that
 * swallows, a wrong service): the first Admin call gives up on its own timeout instead of the Admin API's 60 s, and
 * the CLI says so in one line.
 */
class SilentKafkaIT {

    @Test
    void runAgainstAClusterThatNeverAnswersFailsWithOneLineNamingTheAddress(@TempDir Path tmp) throws Exception {
        List<Socket> held = new CopyOnWriteArrayList<>();
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        held.add(silent.accept()); // read nothing, answer nothing
                    }
                } catch (IOException closed) {
                    // the test is over
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            String address = "127.0.0.1:" + silent.getLocalPort();
            StringWriter err = new StringWriter();
            CommandLine cli = CoordinateCli.commandLine();
            cli.setErr(new PrintWriter(err));
            int exit = cli.execute(
                    "run", "--bootstrap-servers", address, "--data-dir", tmp.toString(), "--http-port", "0");
            assertThat(exit).isEqualTo(ExitCodes.UNREACHABLE);
            assertThat(err.toString())
                    .startsWith("cannot reach Kafka at " + address + ": ")
                    .endsWith(System.lineSeparator());
            assertThat(err.toString().lines()).hasSize(1);
        } finally {
            for (Socket socket : held) {
                socket.close();
            }
        }
    }
}
