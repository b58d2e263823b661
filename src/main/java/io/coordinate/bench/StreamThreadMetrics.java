package io.coordinate.bench;

import java.lang.management.ManagementFactory;
import javax.management.AttributeNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * The app's stream threads as Kafka Streams counts them, through JMX (the app runs in this JVM in every mode):
 * how many commits they made. A phase's commits per second show what its latency is made of: every output waits
 * for the commit after it.
 */
final class StreamThreadMetrics {

  private StreamThreadMetrics() {}

  /** Commits made by all stream threads so far ({@code commit-total}); 0 when none runs. */
  static long commits() {
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
