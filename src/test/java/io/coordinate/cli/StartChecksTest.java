package io.coordinate.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** What {@code run} and {@code dev} check before they start: a data dir they can write, the open-file limit. */
class StartChecksTest {

    private static final String RAISE_IT = "raise it (ulimit -n 65536; LimitNOFILE=65536 for systemd; "
            + "--ulimit nofile=65536 for Docker), see docs/operations.md, \"Open files\"";

    @TempDir
    Path tmp;

    @Test
    void anOpenFileLimitBelowTheMinimumIsRefusedInOneLine() {
        assertThatThrownBy(() -> StartChecks.checkOpenFiles(1023))
                .isInstanceOfSatisfying(
                        CliFailure.class, e -> assertThat(e.exitCode()).isEqualTo(ExitCodes.ENVIRONMENT))
                .hasMessage("the open-file limit is 1023, below the 1024 the app needs to start (4096 recommended); "
                        + RAISE_IT);
    }

    @Test
    void anOpenFileLimitBelowTheRecommendedOneIsAWarning() {
        assertThat(StartChecks.checkOpenFiles(1024))
                .isEqualTo("the open-file limit is 1024, below the 4096 "
                        + "recommended: each RocksDB file, Kafka connection and HTTP connection takes one, and at the limit the "
                        + "stream thread stops; " + RAISE_IT);
        assertThat(StartChecks.checkOpenFiles(4095))
                .startsWith("the open-file limit is 4095, below the 4096 recommended");
        assertThat(StartChecks.checkOpenFiles(4096)).isNull();
        assertThat(StartChecks.checkOpenFiles(-1))
                .as("a limit the JVM does not know")
                .isNull();
    }

    /** As root a read-only mode bit stops no write, so a file where the directory should be stands for it. */
    @Test
    void runWithADataDirItCannotWriteSaysSoInOneLine() throws IOException {
        Path file = Files.writeString(tmp.resolve("data"), "not a directory");
        assertOneLine(
                ExitCodes.ENVIRONMENT,
                "cannot write to the data dir " + file + " (--data-dir): not a directory",
                "run",
                "--bootstrap-servers",
                "127.0.0.1:1",
                "--data-dir",
                file.toString());
        assertOneLine(
                ExitCodes.ENVIRONMENT,
                "cannot write to the data dir " + file.resolve("below") + " (--data-dir): Not a directory",
                "run",
                "--bootstrap-servers",
                "127.0.0.1:1",
                "--data-dir",
                file.resolve("below").toString());
    }

    @Test
    void devWithADataDirItCannotWriteSaysSoInOneLine() throws IOException {
        Path file = Files.writeString(tmp.resolve("data"), "not a directory");
        assertOneLine(
                ExitCodes.ENVIRONMENT,
                "cannot write to the data dir " + file + " (--data-dir): not a directory",
                "dev",
                "--kafka-port",
                "0",
                "--http-port",
                "0",
                "--data-dir",
                file.toString());
    }

    /** A sub directory the app writes, here a file, is checked as well: the broker's log of {@code dev}. */
    @Test
    void aSubDirectoryItCannotWriteIsNamed() throws IOException {
        Path dataDir = Files.createDirectory(tmp.resolve("data"));
        Files.writeString(dataDir.resolve("kafka"), "not a directory");
        assertOneLine(
                ExitCodes.ENVIRONMENT,
                "cannot write to the data dir " + dataDir + " (--data-dir): kafka/: not a directory",
                "dev",
                "--kafka-port",
                "0",
                "--http-port",
                "0",
                "--data-dir",
                dataDir.toString());
    }

    private static void assertOneLine(int exitCode, String line, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = CoordinateCli.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        assertThat(cli.execute(args)).isEqualTo(exitCode);
        assertThat(err.toString()).isEqualTo(line + System.lineSeparator());
        assertThat(out.toString()).isEmpty();
    }
}
