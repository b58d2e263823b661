package io.coordinate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

class WorkOptionsTest {

    private static WorkCommand parse(String... more) {
        String[] args = new String[more.length + 7];
        System.arraycopy(new String[] {"work", "-n", "ns", "--spec", "s", "--exec", "true"}, 0, args, 0, 7);
        System.arraycopy(more, 0, args, 7, more.length);
        return (WorkCommand) CoordinateCli.commandLine()
                .parseArgs(args)
                .subcommand()
                .commandSpec()
                .userObject();
    }

    @Test
    void permanentExitCodesAreACommaListAndTheGraceAlsoSeparatesSigtermFromSigkill() {
        assertThat(parse("--permanent-exit-codes", "2,64", "--grace", "5", "--timeout", "60")
                        .shellSettings())
                .isEqualTo(new ShellHandler.Settings(Duration.ofSeconds(60), Duration.ofSeconds(5), Set.of(2, 64)));
        assertThat(parse().shellSettings())
                .isEqualTo(new ShellHandler.Settings(null, Duration.ofSeconds(30), Set.of()));
    }

    @Test
    void anIdleShellWorkerAsksAtLeastTwiceASecond() {
        assertThat(parse().maxBackoff()).isEqualTo(Duration.ofMillis(500));
        assertThat(parse("--max-backoff", "2").maxBackoff()).isEqualTo(Duration.ofSeconds(2));
        assertThat(parse("--max-backoff", "0").maxBackoff()).isEqualTo(Duration.ofMillis(100));
    }
}
