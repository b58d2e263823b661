package io.coordinate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.config.AppConfig;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class MembershipOptionsTest {

    private static AppConfig run(String... args) {
        CommandLine.ParseResult parsed = new CommandLine(new CoordinateCli()).parseArgs(args);
        return ((RunCommand) parsed.subcommand().commandSpec().userObject()).config();
    }

    @Test
    void runTakesAnInstanceIdAndStandbyReplicas() {
        AppConfig config =
                run("run", "--bootstrap-servers", "k:9092", "--instance-id", "node-1", "--standby-replicas", "2");
        assertThat(config.instanceId()).isEqualTo("node-1");
        assertThat(config.standbyReplicas()).isEqualTo(2);
    }

    @Test
    void byDefaultOneStandbyAndTheDataDirsId() {
        AppConfig config = run("run", "--bootstrap-servers", "k:9092");
        assertThat(config.instanceId()).isNull(); // call() takes the data dir's (InstanceId.resolve)
        assertThat(config.standbyReplicas()).isEqualTo(1);
    }

    @Test
    void devTakesTheSameOptions() {
        CommandLine.ParseResult parsed =
                CoordinateCli.commandLine().parseArgs("dev", "--instance-id", "node-2", "--standby-replicas", "0");
        DevCommand dev = (DevCommand) parsed.subcommand().commandSpec().userObject();
        assertThat(dev.instanceId).isEqualTo("node-2");
        assertThat(dev.standbyReplicas).isEqualTo(0);
    }
}
