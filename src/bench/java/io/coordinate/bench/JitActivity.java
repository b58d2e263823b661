package io.coordinate.bench;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;

/**
 * How busy the JIT compilers were since a point in time, in cores (compile time over wall time). One JVM holds
 * the broker, the app, the baseline and the load, thousands of hot methods: on two cores C2 takes about a minute to
 * compile them, at most of a core, while the threads being measured wait for the CPU. Warm-up goes on until this
 * has settled ({@link BenchRun}), and each measured run reports it.
 */
final class JitActivity {

    /** Below this the compilers are taken as settled: a few late methods, not a backlog. */
    static final double SETTLED_CORES = 0.15;

    private static final CompilationMXBean JIT = ManagementFactory.getCompilationMXBean();

    private final long startCompileMs;
    private final long startNanos;

    private JitActivity() {
        this.startCompileMs = compileMs();
        this.startNanos = System.nanoTime();
    }

    static JitActivity start() {
        return new JitActivity();
    }

    /** Cores the compilers used since {@link #start}; NaN when this JVM does not tell. */
    double cores() {
        long now = compileMs();
        double wallMs = (System.nanoTime() - startNanos) / 1e6;
        return now < 0 || startCompileMs < 0 || wallMs <= 0 ? Double.NaN : (now - startCompileMs) / wallMs;
    }

    private static long compileMs() {
        return JIT != null && JIT.isCompilationTimeMonitoringSupported() ? JIT.getTotalCompilationTime() : -1;
    }
}
