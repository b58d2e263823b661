package io.coordinate.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import javax.management.AttributeNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * The app's stream threads during a phase (the app runs in this JVM in every mode): the share of a core they used
 * and how many commits they made per second, from their creation to the call. Near one core per thread, the
 * stream thread is the limit; the commits per second show what a phase's latency is made of, every output waiting
 * for the commit after it.
 */
final class StreamThreadMeter {

    private final long wallStarted = System.nanoTime();
    private final long cpuStarted = cpuNanos();
    private final long commitsStarted = commits();
    private final long blockedStarted = threadNanosTotal("blocked-time-ns-total");
    private final long commitWaitStarted = commitWaitNanos();

    /**
     * The stream threads since the meter was created: {@code busy}, the cores' worth of CPU they used; the commits
     * they made per second; {@code blocked}, their share of the wall time blocked on Kafka (Kafka Streams'
     * {@code blocked-time-ns-total}: polls that waited for input, the producer's flushes and transactions);
     * {@code commitWait}, the share their producers spent in a commit's waits (flushing, and the transaction's begin,
     * send-offsets and commit calls, from the producers' {@code *-time-ns-total} metrics), during which under
     * exactly-once the thread processes nothing.
     */
    record Reading(double busy, double commitsPerSecond, double blocked, double commitWait) {}

    /** What the stream threads did since this meter was created. */
    Reading read() {
        double seconds = seconds();
        return new Reading(
                (cpuNanos() - cpuStarted) / 1e9 / seconds,
                (commits() - commitsStarted) / seconds,
                (threadNanosTotal("blocked-time-ns-total") - blockedStarted) / 1e9 / seconds,
                (commitWaitNanos() - commitWaitStarted) / 1e9 / seconds);
    }

    private double seconds() {
        return (System.nanoTime() - wallStarted) / 1e9;
    }

    /** CPU time of the stream threads (Kafka Streams names them {@code <client id>-StreamThread-<n>}). */
    private static long cpuNanos() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getName().matches(".*-StreamThread-\\d+$")) {
                long cpu = threads.getThreadCpuTime(thread.getId());
                sum += Math.max(0, cpu);
            }
        }
        return sum;
    }

    private static long commitWaitNanos() {
        return sum(
                "kafka.producer:type=producer-metrics,client-id=*StreamThread*",
                "flush-time-ns-total",
                "txn-begin-time-ns-total",
                "txn-send-offsets-time-ns-total",
                "txn-commit-time-ns-total");
    }

    private static long threadNanosTotal(String metric) {
        return sum("kafka.streams:type=stream-thread-metrics,*", metric);
    }

    /** Commits made by all stream threads so far (Kafka Streams' {@code commit-total}, through JMX); 0 when none. */
    private static long commits() {
        return sum("kafka.streams:type=stream-thread-metrics,*", "commit-total");
    }

    /** The sum of numeric attributes over the beans that match {@code pattern}; beans without one count 0. */
    private static long sum(String pattern, String... attributes) {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        long total = 0;
        try {
            for (ObjectName name : server.queryNames(new ObjectName(pattern), null)) {
                for (String attribute : attributes) {
                    try {
                        if (server.getAttribute(name, attribute) instanceof Number number) {
                            total += number.longValue();
                        }
                    } catch (AttributeNotFoundException e) {
                        // Kafka Streams registers two beans per thread; one holds the thread's other metrics
                    }
                }
            }
        } catch (JMException e) {
            throw new IllegalStateException("reading the metrics " + pattern, e);
        }
        return total;
    }
}
