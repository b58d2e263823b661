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

  /** Cores' worth of CPU the stream threads used since this meter was created. */
  double busy() {
    return (cpuNanos() - cpuStarted) / 1e9 / seconds();
  }

  /** Commits per second since this meter was created. */
  double commitsPerSecond() {
    return (commits() - commitsStarted) / seconds();
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

  /** Commits made by all stream threads so far (Kafka Streams' {@code commit-total}, through JMX); 0 when none. */
  private static long commits() {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    long total = 0;
    try {
      for (ObjectName name : server.queryNames(new ObjectName("kafka.streams:type=stream-thread-metrics,*"), null)) {
        try {
          if (server.getAttribute(name, "commit-total") instanceof Number number) {
            total += number.longValue();
          }
        } catch (AttributeNotFoundException e) {
          // Kafka Streams registers two beans per thread; one holds the thread's other metrics
        }
      }
    } catch (JMException e) {
      throw new IllegalStateException("reading the stream threads' metrics", e);
    }
    return total;
  }
}
