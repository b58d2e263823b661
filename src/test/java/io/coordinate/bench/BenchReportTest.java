package io.coordinate.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.protocol.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

class BenchReportTest {

    private static BenchReport.Config config() {
        return new BenchReport.Config(
                "2026-01-01T00:00:00Z",
                "abc123",
                false,
                "embedded",
                200_000,
                5.0,
                8,
                100,
                2,
                2,
                100,
                "exactly_once_v2",
                2,
                "17",
                List.of("-XX:+UseTransparentHugePages"),
                0.5);
    }

    private static BenchReport full() {
        return new BenchReport(config())
                .baseline(new BenchReport.Baseline(200_000, 5.0, 1.0, 0.01)) // 40,000 records/s
                .share(new BenchReport.Share(200_000, 2.0, 5.0, 2, 0.02)) // 100,000 records/s
                .lifecycle(new BenchReport.Lifecycle(
                        200_000,
                        4.0,
                        10.0,
                        4_000,
                        0,
                        1.9,
                        0.3,
                        100,
                        1_600,
                        new double[] {30_000, 28_000, 26_000, 24_000, 22_000, 20_000, 18_000, 16_000, 14_000, 12_000},
                        new StreamThreadMeter.Reading(0.97, 9.5, 0.21, 0.142))) // 20,000 units/s
                .latency(
                        new BenchReport.Latency(
                                10_000,
                                9_990,
                                20,
                                4,
                                new LatencyRecorder.Summary(500, 120, 190, 250),
                                new LatencyRecorder.Summary(500, 20, 45, 60),
                                new LatencyRecorder.Summary(500, 100, 150, 190),
                                new LatencyRecorder.Summary(9_000, 180, 260, 300),
                                0.05,
                                new StreamThreadMeter.Reading(0.45, 14.2, 0.5, 0.1),
                                0.08),
                        2)
                .latencyAtHalfBurnDown(new BenchReport.Latency(
                        10_000,
                        9_950,
                        20,
                        4,
                        new LatencyRecorder.Summary(480, 125, 230, 260),
                        new LatencyRecorder.Summary(480, 30, 120, 150),
                        new LatencyRecorder.Summary(480, 95, 140, 170),
                        new LatencyRecorder.Summary(9_000, 190, 280, 310),
                        0.06,
                        new StreamThreadMeter.Reading(0.6, 9.8, 0.35, 0.09),
                        0.1))
                .resources(new BenchReport.Resources(
                        800L << 20, 900L << 20, true, 220_000, 22L << 20, 44L << 20, 11L << 20))
                .scale(List.of(
                        new BenchReport.ScaleFigure(10_000, 1e5, 20, 400),
                        new BenchReport.ScaleFigure(10_000_000, 9e4, 30, 1000)))
                .memory(memory(10_000_000, 700L << 20));
    }

    /** The app alone: {@code units} added in 400 s, then {@code rss} of RSS. */
    private static BenchReport.Memory memory(long units, long rss) {
        long[] byTenth = new long[10];
        for (int i = 0; i < 10; i++) {
            byTenth[i] = (400L + 30 * i) << 20;
        }
        return new BenchReport.Memory(
                units,
                1000,
                "512m",
                400.0,
                rss,
                900L << 20,
                600L << 20,
                100L << 20,
                300L << 20,
                90L << 20,
                3_500L << 20,
                256L << 20,
                byTenth,
                new LatencyRecorder.Summary(20, 120.5, 180, 190),
                new LatencyRecorder.Summary(20, 110, 150, 160),
                1.25,
                0.4);
    }

    @Test
    void repeatedRunsReportTheirMedianAndEveryRateInRunOrder() {
        BenchReport.Lifecycle slow = lifecycle(20.0); // 10,000 units/s
        BenchReport.Lifecycle middle = lifecycle(10.0); // 20,000
        BenchReport.Lifecycle fast = lifecycle(8.0); // 25,000
        BenchReport report = new BenchReport(config())
                .baselineRuns(
                        List.of(
                                new BenchReport.Baseline(200_000, 2.0, 1.0, 0), // 100,000 records/s
                                new BenchReport.Baseline(200_000, 4.0, 1.0, 0), // 50,000
                                new BenchReport.Baseline(200_000, 2.5, 1.0, 0)), // 80,000
                        new BenchReport.Warmup(2, new double[] {0.1, 0.05, Double.NaN}))
                .lifecycleRuns(List.of(fast, slow, middle), new BenchReport.Warmup(4, new double[] {0.12, 0.0, 0.31}));

        JsonNode json = report.toJson();

        assertThat(json.get("baseline_records_per_s").asDouble()).isEqualTo(80_000.0);
        assertThat(json.get("units_per_s").asDouble()).isEqualTo(20_000.0);
        assertThat(json.get("ratio").asDouble()).isEqualTo(0.25);
        assertThat(json.at("/details/baseline/records_per_s_of_each_run").toString())
                .isEqualTo("[100000.0,50000.0,80000.0]");
        assertThat(json.at("/details/lifecycle/units_per_s_of_each_run").toString())
                .isEqualTo("[25000.0,10000.0,20000.0]");
        assertThat(json.at("/details/baseline/warmup_runs").asInt()).isEqualTo(2);
        assertThat(json.at("/details/baseline/jit_cores_of_each_run").toString())
                .isEqualTo("[0.1,0.05,null]");
        assertThat(json.at("/details/lifecycle/warmup_runs").asInt()).isEqualTo(4);
        assertThat(json.at("/details/lifecycle/jit_cores_of_each_run").toString())
                .isEqualTo("[0.12,0.0,0.31]");
        // each lifecycle run over the baseline run just before it: 25/100, 10/50, 20/80
        assertThat(json.at("/details/lifecycle/ratio_of_each_run").toString()).isEqualTo("[0.25,0.2,0.25]");
        assertThat(report.table()).contains("run by run (each after its baseline run): 0.250 / 0.200 / 0.250");
        assertThat(report.table())
                .contains(
                        "100,000 / 50,000 / 80,000 records/s",
                        "25,000 / 10,000 / 20,000 units/s",
                        "after 2 warm-up run(s); JIT 0.10 / 0.05 / ? cores",
                        "after 4 warm-up run(s); JIT 0.12 / 0.00 / 0.31 cores");
    }

    private static BenchReport.Lifecycle lifecycle(double workSeconds) {
        return new BenchReport.Lifecycle(
                200_000,
                4.0,
                workSeconds,
                4_000,
                0,
                1.9,
                0.0,
                100,
                1_600,
                new double[0],
                new StreamThreadMeter.Reading(0.9, 9.0, 0.1, 0.1));
    }

    @Test
    void eachLanguageClientsMedianRunIsReportedWithItsRatioToTheLifecycle() {
        BenchReport report = full().languageRuns(
                        BenchRun.PYTHON,
                        List.of(
                                new BenchReport.LanguageRun(200_000, 50.0, 8, 16), // 4,000 units/s
                                new BenchReport.LanguageRun(200_000, 40.0, 8, 16), // 5,000 units/s
                                new BenchReport.LanguageRun(200_000, 80.0, 8, 16))) // 2,500 units/s
                .languageRuns(BenchRun.NODE, List.of(new BenchReport.LanguageRun(200_000, 25.0, 8, 16)));
        JsonNode json = report.toJson();
        // the lifecycle: 20,000 units/s
        assertThat(json.get("python_units_per_s").asDouble()).isEqualTo(4000.0);
        assertThat(json.get("python_window_s").asDouble()).isEqualTo(50.0);
        assertThat(json.get("python_ratio").asDouble()).isEqualTo(0.2);
        assertThat(json.get("node_units_per_s").asDouble()).isEqualTo(8000.0);
        assertThat(json.get("node_window_s").asDouble()).isEqualTo(25.0);
        assertThat(json.get("node_ratio").asDouble()).isEqualTo(0.4);
        assertThat(report.table())
                .contains("200,000 units in 50.00 s by 8 runners x concurrency 16; runs 4,000 / 5,000 / 2,500 units/s;"
                        + " ratio to lifecycle 0.200");
        assertThat(new BenchReport(config()).toJson().get("python_ratio").isNull())
                .isTrue();
    }

    @Test
    void eachRateStandsNextToItsWindowInTheResultLine() {
        BenchReport report = full().sdkRuns(List.of(sdk(123_456, 12.3456)), null, IDLE);
        String line = report.resultLine();
        // the median runs' windows in seconds, two decimals, each right after its rate
        assertThat(line)
                .contains("\"units_per_s\":20000.0,\"lifecycle_window_s\":10.0,"
                        + "\"baseline_records_per_s\":40000.0,\"baseline_window_s\":5.0,\"ratio\":0.5,"
                        + "\"share_group_records_per_s\":100000.0,\"share_group_window_s\":2.0,");
        assertThat(line).contains("\"sdk_units_per_s\":10000.0,\"sdk_window_s\":12.35,");
        assertThat(line).contains("\"units\":200000,\"min_window_s\":5.0,");
    }

    @Test
    void eachMeasuredRunsWindowIsInTheDetailsAndTheTable() {
        BenchReport report = new BenchReport(config())
                .baselineRuns(
                        List.of(
                                new BenchReport.Baseline(1_500_000, 5.123, 1.0, 0),
                                new BenchReport.Baseline(1_500_000, 6.0, 1.0, 0),
                                new BenchReport.Baseline(1_500_000, 5.5, 1.0, 0)),
                        new BenchReport.Warmup(2, new double[] {0.1, 0.1, 0.1}))
                .lifecycleRuns(
                        List.of(lifecycle(8.0), lifecycle(10.0), lifecycle(9.996)),
                        new BenchReport.Warmup(2, new double[] {0.1, 0.1, 0.1}))
                .sdkRuns(List.of(sdk(200_000, 5.0), sdk(200_000, 7.25), sdk(200_000, 6.0)), null, IDLE);
        JsonNode json = report.toJson();
        assertThat(json.get("baseline_window_s").asDouble()).isEqualTo(5.5); // the median run, 272,727 records/s
        assertThat(json.get("lifecycle_window_s").asDouble()).isEqualTo(10.0); // the median run, 20,008 units/s
        assertThat(json.get("sdk_window_s").asDouble()).isEqualTo(6.0);
        assertThat(json.at("/details/baseline/window_s_of_each_run").toString()).isEqualTo("[5.12,6.0,5.5]");
        assertThat(json.at("/details/lifecycle/window_s_of_each_run").toString())
                .isEqualTo("[8.0,10.0,10.0]");
        assertThat(json.at("/details/sdk/window_s_of_each_run").toString()).isEqualTo("[5.0,7.25,6.0]");
        assertThat(report.table())
                .contains(
                        "the median one is the figure; windows 5.12 / 6.00 / 5.50 s; after 2",
                        "the median one is the figure; windows 8.00 / 10.00 / 10.00 s; after 2",
                        "the median one is the figure; windows 5.00 / 7.25 / 6.00 s");
    }

    @Test
    void headlineFigures() {
        JsonNode json = full().toJson();
        assertThat(json.get("units_per_s").asDouble()).isEqualTo(20_000.0);
        assertThat(json.get("baseline_records_per_s").asDouble()).isEqualTo(40_000.0);
        assertThat(json.get("ratio").asDouble()).isEqualTo(0.5);
        assertThat(json.get("share_group_records_per_s").asDouble()).isEqualTo(100_000.0);
        assertThat(json.get("share_group_ratio").asDouble()).isEqualTo(0.2);
        assertThat(json.get("add_units_per_s").asDouble()).isEqualTo(50_000.0);
        assertThat(json.get("end_to_end_units_per_s").asDouble()).isEqualTo(14_285.7);
        assertThat(json.get("request_p50_ms").asDouble()).isEqualTo(120.0);
        assertThat(json.get("request_p99_ms").asDouble()).isEqualTo(190.0);
        assertThat(json.get("add_to_attempt_p50_ms").asDouble()).isEqualTo(180.0);
        assertThat(json.get("add_to_attempt_p99_ms").asDouble()).isEqualTo(260.0);
        assertThat(json.get("scale_request1_ratio").asDouble()).isEqualTo(1.5);
        assertThat(json.get("scale_request100_ratio").asDouble()).isEqualTo(2.5);
        assertThat(json.get("rss_mib").asDouble()).isEqualTo(800.0);
        assertThat(json.get("changelog_mib_per_million_units").asDouble()).isEqualTo(200.0);
        assertThat(json.get("other_processes_cpu_cores_max").asDouble()).isEqualTo(0.4); // the memory phase's
        assertThat(json.get("config").get("units").asInt()).isEqualTo(200_000);
        assertThat(json.get("config").get("jvm_options").toString()).isEqualTo("[\"-XX:+UseTransparentHugePages\"]");
        assertThat(json.get("details").get("lifecycle").get("client_bound").asBoolean())
                .isTrue(); // 100 ms < 2 x 100
        assertThat(json.get("details")
                        .get("lifecycle")
                        .get("units_per_s_by_tenth")
                        .get(9)
                        .asDouble())
                .isEqualTo(12_000.0);
        assertThat(json.at("/details/latency/request_to_processed_p99_ms").asDouble())
                .isEqualTo(45.0);
        assertThat(json.at("/details/latency/processed_to_seen_p50_ms").asDouble())
                .isEqualTo(100.0);
        assertThat(json.at("/details/latency/processed_to_seen_p99_ms").asDouble())
                .isEqualTo(150.0);
        assertThat(json.at("/details/latency/stream_thread_busy").asDouble()).isEqualTo(0.45);
        assertThat(json.at("/details/latency/commits_per_s").asDouble()).isEqualTo(14.2);
        assertThat(json.at("/details/latency/jit_cores").asDouble()).isEqualTo(0.08);
        assertThat(json.at("/details/latency/warmup_runs").asInt()).isEqualTo(2);
        assertThat(json.at("/details/latency_at_half_burn_down/jit_cores").asDouble())
                .isEqualTo(0.1);
        assertThat(json.at("/details/lifecycle/commits_per_s").asDouble()).isEqualTo(9.5);
        assertThat(json.at("/details/lifecycle/stream_thread_blocked").asDouble())
                .isEqualTo(0.21);
        assertThat(json.at("/details/lifecycle/stream_thread_commit_wait").asDouble())
                .isEqualTo(0.142);
        // the comparison at half the burn-down rate is reported apart and judges nothing
        assertThat(json.at("/details/latency_at_half_burn_down/request_p99_ms").asDouble())
                .isEqualTo(230.0);
        assertThat(json.at("/details/latency_at_half_burn_down/achieved_units_per_s")
                        .asDouble())
                .isEqualTo(9_950.0);
        assertThat(json.at("/details/latency_at_half_burn_down/request_to_processed_p99_ms")
                        .asDouble())
                .isEqualTo(120.0);
        assertThat(json.get("request_p99_ms").asDouble()).isEqualTo(190.0);
        assertThat(json.at("/targets/request_p99_le_2x_commit_interval").asBoolean())
                .isTrue();
        assertThat(json.get("git_commit").asText()).isEqualTo("abc123");
    }

    @Test
    void targetsAreJudgedOnlyWhereMeasured() {
        JsonNode targets = full().toJson().get("targets");
        assertThat(targets.get("units_per_s_ge_half_baseline").asBoolean()).isTrue();
        assertThat(targets.get("units_per_s_ge_28000").asBoolean()).isFalse();
        assertThat(targets.get("request_p99_le_2x_commit_interval").asBoolean()).isTrue();
        assertThat(targets.get("request_cost_10m_within_2x_of_10k").asBoolean()).isFalse(); // 2.5x at count 100
        assertThat(targets.get("rss_below_1gib_at_10m_units").asBoolean()).isTrue(); // the app alone: 700 MiB at 10M
    }

    @Test
    void theAppsOwnMemoryFigures() {
        JsonNode json = full().toJson();
        assertThat(json.get("app_rss_mib").asDouble()).isEqualTo(700.0);
        assertThat(json.get("app_rss_peak_mib").asDouble()).isEqualTo(900.0);
        assertThat(json.get("app_memory_units").asLong()).isEqualTo(10_000_000L);
        assertThat(json.get("app_heap_max").asText()).isEqualTo("512m");
        assertThat(json.get("app_add_units_per_s").asDouble()).isEqualTo(25_000.0);
        assertThat(json.get("app_state_dir_mib").asDouble()).isEqualTo(3_500.0);
        assertThat(json.get("app_request_p50_ms").asDouble()).isEqualTo(120.5);
        assertThat(json.get("rss_mib").asDouble()).isEqualTo(800.0); // the bench JVM's, kept apart
        JsonNode details = json.get("details").get("memory");
        assertThat(details.get("units").asLong()).isEqualTo(10_000_000L);
        assertThat(details.get("batch").asInt()).isEqualTo(1000);
        assertThat(details.get("rss_anon_bytes").asLong()).isEqualTo(600L << 20);
        assertThat(details.get("rss_file_bytes").asLong()).isEqualTo(100L << 20);
        assertThat(details.get("rocksdb_cache_bytes").asLong()).isEqualTo(256L << 20);
        assertThat(details.get("heap_committed_bytes").asLong()).isEqualTo(300L << 20);
        assertThat(details.get("nonheap_committed_bytes").asLong()).isEqualTo(90L << 20);
        assertThat(details.get("rss_mib_by_tenth_of_units").get(0).asDouble()).isEqualTo(400.0);
        assertThat(details.get("rss_mib_by_tenth_of_units").get(9).asDouble()).isEqualTo(670.0);
        assertThat(details.get("round_trips").asInt()).isEqualTo(20);
        assertThat(details.get("finish_p50_ms").asDouble()).isEqualTo(110.0);
        assertThat(details.get("app_cpu_cores").asDouble()).isEqualTo(1.25);
        assertThat(details.get("other_processes_cpu_cores").asDouble()).isEqualTo(0.4);
    }

    @Test
    void theRssTargetIsJudgedOnTheAppAloneOnlyAt10MUnits() {
        BenchReport over = new BenchReport(config()).memory(memory(10_000_000, 1L << 30));
        assertThat(over.toJson()
                        .get("targets")
                        .get("rss_below_1gib_at_10m_units")
                        .asBoolean())
                .isFalse(); // not below
        assertThat(over.table())
                .contains("f. app alone: RSS at 10,000,000 units", "1024 MiB", "target < 1 GiB: MISSED");
        BenchReport small = new BenchReport(config()).memory(memory(9_999_999, 100L << 20));
        assertThat(small.toJson()
                        .get("targets")
                        .get("rss_below_1gib_at_10m_units")
                        .isNull())
                .isTrue();
        assertThat(small.toJson().get("app_memory_units").asLong()).isEqualTo(9_999_999L);
        assertThat(small.table()).doesNotContain("target < 1 GiB");
        // The bench JVM's own RSS never judges it, whatever it stored.
        BenchReport inProcess = new BenchReport(config())
                .resources(new BenchReport.Resources(800L << 20, 900L << 20, true, 10_000_000, 1, 1, 1));
        assertThat(inProcess
                        .toJson()
                        .get("targets")
                        .get("rss_below_1gib_at_10m_units")
                        .isNull())
                .isTrue();
    }

    /** {@code units} in {@code workSeconds} by 8 workers (concurrency 16, prefetch 200) in 1,000 requests. */
    private static BenchReport.Sdk sdk(long units, double workSeconds) {
        return new BenchReport.Sdk(
                units,
                2.0,
                workSeconds,
                8,
                16,
                200,
                1_000,
                1.7,
                0.05,
                new StreamThreadMeter.Reading(0.45, 9.5, 0.3, 0.125));
    }

    /** 7 idle requests in 10 s. */
    private static final BenchReport.Idle IDLE = new BenchReport.Idle(10.0, 7);

    @Test
    void sdkFiguresAndTheirRatioToTheLifecycleOfTheSameRun() {
        BenchReport report = full() // lifecycle: 20,000 units/s
                .sdkRuns(List.of(sdk(100_000, 50.0)), new BenchReport.Warmup(3, new double[] {0.08}), IDLE);
        JsonNode json = report.toJson();
        assertThat(json.get("sdk_units_per_s").asDouble()).isEqualTo(2_000.0);
        assertThat(json.get("sdk_ratio").asDouble()).isEqualTo(0.1);
        assertThat(json.get("sdk_workers").asInt()).isEqualTo(8);
        assertThat(json.get("sdk_concurrency").asInt()).isEqualTo(16);
        assertThat(json.get("sdk_prefetch").asInt()).isEqualTo(200);
        assertThat(json.get("sdk_requests").asLong()).isEqualTo(1_000L);
        assertThat(json.get("sdk_idle_requests_per_s").asDouble()).isEqualTo(0.7);
        assertThat(json.at("/targets/sdk_ratio_ge_0_7").asBoolean()).isFalse();
        assertThat(json.at("/targets/sdk_idle_requests_per_s_lt_20").asBoolean())
                .isTrue();
        assertThat(json.at("/details/sdk/work_seconds").asDouble()).isEqualTo(50.0);
        assertThat(json.at("/details/sdk/add_seconds").asDouble()).isEqualTo(2.0);
        assertThat(json.at("/details/sdk/units_per_request").asDouble()).isEqualTo(100.0);
        assertThat(json.at("/details/sdk/attempts_in_hand_max").asLong()).isEqualTo(1_728L); // 8 x (16 + 200)
        assertThat(json.at("/details/sdk/idle_requests").asLong()).isEqualTo(7L);
        assertThat(json.at("/details/sdk/idle_seconds").asDouble()).isEqualTo(10.0);
        assertThat(json.at("/details/sdk/warmup_runs").asInt()).isEqualTo(3);
        assertThat(json.at("/details/sdk/jit_cores_of_each_run").toString()).isEqualTo("[0.08]");
        assertThat(json.at("/details/sdk/units_per_s_of_each_run").toString()).isEqualTo("[2000.0]");
        assertThat(json.at("/details/sdk").has("ratio_of_each_run")).isFalse(); // one lifecycle figure, no runs
        assertThat(json.at("/details/sdk/stream_thread_busy").asDouble()).isEqualTo(0.45);
        assertThat(json.at("/details/sdk/cpu_cores_used").asDouble()).isEqualTo(1.7);
        assertThat(json.at("/details/sdk/other_processes_cpu_cores").asDouble()).isEqualTo(0.05);
        assertThat(json.at("/details/sdk/stream_thread_blocked").asDouble()).isEqualTo(0.3);
        assertThat(json.at("/details/sdk/stream_thread_commit_wait").asDouble()).isEqualTo(0.125);
        assertThat(json.at("/details/sdk/commits_per_s").asDouble()).isEqualTo(9.5);
        assertThat(report.table())
                .contains(
                        "g. sdk workers: request+finish",
                        "2,000 units/s",
                        "100,000 units in 50.00 s by 8 workers x concurrency 16, prefetch 200; 1,000 requests (100.0 units each);"
                                + " this process 1.70 cores (stream thread 45% busy); other processes 0.05 cores",
                        "ratio to lifecycle",
                        "0.100",
                        "target >= 0.7: MISSED",
                        "g. idle sdk worker",
                        "0.70 requests/s",
                        "7 request_attempts in 10.0 s on a spec without units; target < 20/s");
    }

    @Test
    void sdkDefaultFiguresAndTheirRatioToTheTunedSdkPhaseOfTheSameRun() {
        BenchReport.Sdk tuned = sdk(100_000, 10.0); // 10,000 units/s
        BenchReport.Sdk defaults = new BenchReport.Sdk(
                100_000, 2.0, 16.0, 8, 8, -1, 400, 1.2, 0.1, new StreamThreadMeter.Reading(0.3, 9.0, 0.2, 0.1));
        BenchReport report = new BenchReport(config())
                .sdkRuns(List.of(tuned), new BenchReport.Warmup(1, new double[] {0.1}), IDLE)
                .sdkDefaultRuns(
                        List.of(defaults, sdk(100_000, 25.0), defaults),
                        new BenchReport.Warmup(2, new double[] {0.1, 0.05, 0.02}));
        JsonNode json = report.toJson();
        assertThat(json.get("sdk_default_units_per_s").asDouble()).isEqualTo(6_250.0);
        assertThat(json.get("sdk_default_window_s").asDouble()).isEqualTo(16.0);
        assertThat(json.get("sdk_default_ratio").asDouble()).isEqualTo(0.625);
        assertThat(json.at("/targets/sdk_default_ratio_ge_0_5").asBoolean()).isTrue();
        assertThat(json.at("/details/sdk_default/units_per_s_of_each_run").toString())
                .isEqualTo("[6250.0,4000.0,6250.0]");
        assertThat(json.at("/details/sdk_default/requests").asLong()).isEqualTo(400L);
        assertThat(json.at("/details/sdk_default/units_per_request").asDouble()).isEqualTo(250.0);
        assertThat(json.at("/details/sdk_default/warmup_runs").asInt()).isEqualTo(2);
        assertThat(report.table())
                .contains(
                        "g. sdk workers at defaults",
                        "6,250 units/s",
                        "100,000 units in 16.00 s by 8 workers x concurrency 8, 1 ms handlers, no prefetch; 400 requests"
                                + " (250.0 units each); ratio to the sdk phase 0.625, target >= 0.5: met");
        assertThat(full().toJson().get("sdk_default_ratio").isNull()).isTrue();
        assertThat(full().toJson().at("/targets/sdk_default_ratio_ge_0_5").isNull())
                .isTrue();
    }

    @Test
    void sdkRunsAlternateWithTheLifecycleRunsAndTheMedianIsTheFigure() {
        BenchReport report = new BenchReport(config())
                .lifecycleRuns(
                        List.of(lifecycle(4.0), lifecycle(5.0), lifecycle(10.0)), // 50,000, 40,000, 20,000 units/s
                        new BenchReport.Warmup(2, new double[] {0.1, 0.1, 0.1}))
                .sdkRuns(
                        List.of(sdk(200_000, 5.0), sdk(200_000, 8.0), sdk(200_000, 10.0)), // 40,000, 25,000, 20,000
                        new BenchReport.Warmup(4, new double[] {0.1, 0.2, 0.05}),
                        IDLE);
        JsonNode json = report.toJson();
        assertThat(json.get("sdk_units_per_s").asDouble()).isEqualTo(25_000.0); // the median run
        assertThat(json.get("sdk_ratio").asDouble()).isEqualTo(0.625); // over the lifecycle's median, 40,000
        assertThat(json.at("/details/sdk/units_per_s_of_each_run").toString()).isEqualTo("[40000.0,25000.0,20000.0]");
        assertThat(json.at("/details/sdk/ratio_of_each_run").toString()).isEqualTo("[0.8,0.625,1.0]");
        assertThat(json.at("/details/sdk/warmup_runs").asInt()).isEqualTo(4);
        assertThat(report.table())
                .contains(
                        "40,000 / 25,000 / 20,000 units/s",
                        "target >= 0.7: MISSED; run by run (each after its lifecycle run): 0.800 / 0.625 / 1.000");
    }

    @Test
    void theSdkRatioNeedsTheLifecycle() {
        BenchReport report = new BenchReport(config()).sdkRuns(List.of(sdk(100_000, 50.0)), null, IDLE);
        JsonNode json = report.toJson();
        assertThat(json.get("sdk_units_per_s").asDouble()).isEqualTo(2_000.0);
        assertThat(json.get("sdk_ratio").isNull()).isTrue();
        assertThat(json.at("/targets/sdk_ratio_ge_0_7").isNull()).isTrue();
        assertThat(report.table()).doesNotContain("ratio to lifecycle");
        BenchReport met = new BenchReport(config())
                .lifecycle(lifecycle(100.0))
                .sdkRuns(List.of(sdk(100_000, 50.0)), null, IDLE); // 2,000 units/s each
        assertThat(met.toJson().get("sdk_ratio").asDouble()).isEqualTo(1.0);
        assertThat(met.toJson().at("/targets/sdk_ratio_ge_0_7").asBoolean()).isTrue();
        assertThat(met.table()).contains("target >= 0.7: met");
    }

    @Test
    void phasesNotRunAreNull() {
        JsonNode json = new BenchReport(config()).toJson();
        assertThat(json.get("units_per_s").isNull()).isTrue();
        assertThat(json.get("ratio").isNull()).isTrue();
        assertThat(json.get("request_p99_ms").isNull()).isTrue();
        assertThat(json.get("scale").isEmpty()).isTrue();
        assertThat(json.get("targets").get("units_per_s_ge_28000").isNull()).isTrue();
        assertThat(json.get("details").isEmpty()).isTrue();
        assertThat(json.get("app_rss_mib").isNull()).isTrue();
        assertThat(json.get("app_memory_units").isNull()).isTrue();
        assertThat(json.get("app_heap_max").isNull()).isTrue();
        assertThat(json.get("targets").get("rss_below_1gib_at_10m_units").isNull())
                .isTrue();
        assertThat(json.get("sdk_units_per_s").isNull()).isTrue();
        assertThat(json.get("sdk_ratio").isNull()).isTrue();
        assertThat(json.get("sdk_prefetch").isNull()).isTrue();
        assertThat(json.get("sdk_requests").isNull()).isTrue();
        assertThat(json.get("sdk_idle_requests_per_s").isNull()).isTrue();
        assertThat(json.at("/targets/sdk_idle_requests_per_s_lt_20").isNull()).isTrue();
        assertThat(json.get("lifecycle_window_s").isNull()).isTrue();
        assertThat(json.get("baseline_window_s").isNull()).isTrue();
        assertThat(json.get("share_group_window_s").isNull()).isTrue();
        assertThat(json.get("sdk_window_s").isNull()).isTrue();
    }

    @Test
    void resultLineIsOneLineOfTheSameJson() {
        BenchReport report = full();
        String line = report.resultLine();
        assertThat(line).startsWith("RESULT {").doesNotContain("\n");
        assertThat(line).isEqualTo("RESULT " + Json.text(report.toJson()));
        assertThat(Json.parse(line.substring("RESULT ".length())).get("ratio").asDouble())
                .isEqualTo(0.5);
    }

    @Test
    void tableNamesEveryMeasuredFigure() {
        String table = full().table();
        assertThat(table)
                .contains(
                        "a. baseline",
                        "40,000 records/s",
                        "b. peer",
                        "100,000 records/s",
                        "c. lifecycle: request+finish",
                        "20,000 units/s",
                        "ratio to baseline",
                        "0.500",
                        "CLIENT-BOUND",
                        "30,000 / 12,000 units/s",
                        "stream thread 97% busy",
                        "d. request -> assignment",
                        "p50 120.0 / p99 190.0 ms",
                        "until the app processed it",
                        "p50 20.0 / p99 45.0 ms",
                        "2 run(s)",
                        "JIT 0.08 cores during the measured load",
                        "then until the worker read it: p50 100.0 / p99 150.0 ms",
                        "d. request -> assignment at half c",
                        "p50 125.0 / p99 230.0 ms",
                        "at 9,950 units/s, half the burn-down; not judged",
                        "e. request_attempts @ 10,000,000 units",
                        "e. RSS of the whole bench JVM",
                        "not the app's: broker + app + load generator in one JVM",
                        "e. disk per million units",
                        "f. app alone: add",
                        "25,000 units/s",
                        "f. app alone: RSS at 10,000,000 units",
                        "700 MiB",
                        "peak 900 MiB; heap 300 MiB committed (-Xmx512m) + non-heap 90 MiB; RocksDB cache 256 MiB; "
                                + "state dir 3500 MiB; target < 1 GiB: met",
                        "f. app alone: request / finish",
                        "p50 120.5 / 110.0 ms");
        assertThat(new BenchReport(config()).table().lines()).hasSize(1); // just the header
    }
}
