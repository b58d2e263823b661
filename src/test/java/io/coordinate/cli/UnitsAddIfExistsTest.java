package io.coordinate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code units add --if-exists}: its values are the wire's; a bad one is a usage error before anything is sent (the
 * bootstrap address is a closed port, so a command that did try to send would exit 3 instead).
 */
class UnitsAddIfExistsTest {

    @TempDir
    Path tmp;

    @Test
    void theValuesAreTheWiresAndAnyOtherIsAUsageError() throws IOException {
        UnitsCommand.Add.IfExistsValue value = new UnitsCommand.Add.IfExistsValue();
        assertThat(value.convert("keep")).isEqualTo(io.coordinate.protocol.IfExists.KEEP);
        assertThat(value.convert("keep_unless_finished"))
                .isEqualTo(io.coordinate.protocol.IfExists.KEEP_UNLESS_FINISHED);
        assertThat(value.convert("replace")).isEqualTo(io.coordinate.protocol.IfExists.REPLACE);

        Path units = Files.writeString(tmp.resolve("units.jsonl"), "{\"name\":\"a\"}\n");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = CoordinateCli.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        String closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = "127.0.0.1:" + socket.getLocalPort();
        }

        int exit = cli.execute(
                "units",
                "add",
                "-n",
                "ns",
                "--spec",
                "s",
                "--if-exists",
                "KEEP",
                units.toString(),
                "--bootstrap-servers",
                closed);

        assertThat(exit).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString())
                .startsWith("Invalid value for option '--if-exists': not keep, keep_unless_finished or replace: KEEP");
        assertThat(out.toString()).isEmpty();
    }
}
