package io.coordinate.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.cli.CoordinateCli;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class AppProcessTest {

    @Test
    void theHttpPortComesFromTheReadyLineTheCliPrints() {
        assertThat(AppProcess.readyHttpPort(CoordinateCli.readyLine("127.0.0.1:35117", 43_210)))
                .isEqualTo(43_210);
        assertThat(AppProcess.readyHttpPort("READY bootstrap=broker-1:9092,broker-2:9092 http=http://127.0.0.1:8080\n"))
                .isEqualTo(8080);
    }

    @Test
    void otherLinesAreNotReady() {
        assertThat(AppProcess.readyHttpPort("")).isEqualTo(-1);
        assertThat(AppProcess.readyHttpPort(null)).isEqualTo(-1);
        assertThat(AppProcess.readyHttpPort("NOT READY bootstrap=127.0.0.1:9092 http=http://127.0.0.1:8080"))
                .isEqualTo(-1);
        assertThat(AppProcess.readyHttpPort("READY bootstrap=127.0.0.1:9092")).isEqualTo(-1);
        assertThat(AppProcess.readyHttpPort("READY bootstrap=127.0.0.1:9092 http=http://127.0.0.1:"))
                .isEqualTo(-1);
    }

    @Test
    void committedJvmMemoryIsSummedByAreaFromTheMetrics() {
        String metrics = String.join(
                "\n",
                "# HELP jvm_memory_committed_bytes The amount of memory in bytes that is committed for the JVM to use",
                "# TYPE jvm_memory_committed_bytes gauge",
                "jvm_memory_committed_bytes{area=\"heap\",id=\"G1 Eden Space\"} 2.89406976E8",
                "jvm_memory_committed_bytes{area=\"heap\",id=\"G1 Old Gen\"} 2.97795584E8",
                "jvm_memory_committed_bytes{area=\"heap\",id=\"G1 Survivor Space\"} 8388608.0",
                "jvm_memory_committed_bytes{area=\"nonheap\",id=\"CodeHeap 'profiled nmethods'\"} 9633792.0",
                "jvm_memory_committed_bytes{area=\"nonheap\",id=\"Metaspace\"} 6.7436544E7",
                "jvm_memory_used_bytes{area=\"heap\",id=\"G1 Old Gen\"} 1.74923264E8");
        assertThat(AppProcess.jvmCommitted(metrics, "heap")).isEqualTo(289_406_976L + 297_795_584L + 8_388_608L);
        assertThat(AppProcess.jvmCommitted(metrics, "nonheap")).isEqualTo(9_633_792L + 67_436_544L);
        assertThat(AppProcess.jvmCommitted("", "heap")).isEqualTo(-1);
    }

    @Test
    void theAppRunsAloneWithItsOwnHeapIdPrefixAndDataDir() {
        assertThat(AppProcess.command(
                        "/jdk/bin/java",
                        List.of("-XX:+UseTransparentHugePages"),
                        "512m",
                        "/repo/target/classes:/m2/a.jar",
                        "127.0.0.1:9092",
                        "bench-x-memory",
                        "bench-x-memory.",
                        Path.of("/tmp/b/memory")))
                .containsExactly(
                        "/jdk/bin/java",
                        "-XX:+UseTransparentHugePages",
                        "-Xmx512m",
                        "-cp",
                        "/repo/target/classes:/m2/a.jar",
                        "io.coordinate.cli.CoordinateCli",
                        "run",
                        "--bootstrap-servers",
                        "127.0.0.1:9092",
                        "--application-id",
                        "bench-x-memory",
                        "--topic-prefix",
                        "bench-x-memory.",
                        "--data-dir",
                        "/tmp/b/memory",
                        "--http-port",
                        "0");
    }

    @Test
    void theAppGetsTheJvmOptionsBinCoordinateGivesTheBench() {
        assertThat(AppProcess.inheritedJvmOptions(List.of(
                        "-XX:+UseTransparentHugePages",
                        "-Xmx4g",
                        "-Dcoordinate.home=/repo",
                        "-XX:StartFlightRecording=filename=x.jfr")))
                .containsExactly("-XX:+UseTransparentHugePages");
        assertThat(AppProcess.inheritedJvmOptions(List.of("-Xmx4g"))).isEmpty();
        // JAVA_OPTS turned it off after bin/coordinate turned it on: the app gets both, in order, and ends up off too
        assertThat(AppProcess.inheritedJvmOptions(
                        List.of("-XX:+UseTransparentHugePages", "-Xmx4g", "-XX:-UseTransparentHugePages")))
                .containsExactly("-XX:+UseTransparentHugePages", "-XX:-UseTransparentHugePages");
    }
}
