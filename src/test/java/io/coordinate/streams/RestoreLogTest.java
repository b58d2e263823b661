package io.coordinate.streams;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** The restore's lines, with the clock set by the test: progress at the first batch ten seconds after the last line. */
class RestoreLogTest {

    private static final TopicPartition P3 = new TopicPartition("coordinate-coordinate-state-changelog", 3);
    private static final TopicPartition P5 = new TopicPartition("coordinate-coordinate-state-changelog", 5);

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final List<String> lines = new ArrayList<>();
    private final RestoreLog log = new RestoreLog(nanos::get, lines::add);

    private void at(double seconds) {
        nanos.set(1_000_000_000L + (long) (seconds * TimeUnit.SECONDS.toNanos(1)));
    }

    @Test
    void logsProgressAtLeastEveryTenSecondsWithTheRate() {
        at(0);
        log.onRestoreStart(P3, "coordinate-state", 100, 1_000_100);
        at(4);
        log.onBatchRestored(P3, "coordinate-state", 200_100, 200_000);
        at(9.999);
        log.onBatchRestored(P3, "coordinate-state", 400_100, 200_000);
        at(10);
        log.onBatchRestored(P3, "coordinate-state", 500_100, 100_000);
        at(19);
        log.onBatchRestored(P3, "coordinate-state", 700_100, 200_000);
        at(20.5);
        log.onBatchRestored(P3, "coordinate-state", 900_000, 199_900);
        at(25);
        log.onRestoreEnd(P3, "coordinate-state", 999_900);

        assertThat(lines)
                .containsExactly(
                        "restoring coordinate-state from coordinate-coordinate-state-changelog-3 offsets 100 to 1000100",
                        "restoring coordinate-state from coordinate-coordinate-state-changelog-3: 500000 of about 1000000 records"
                                + " (50%), 50000 records/s",
                        "restoring coordinate-state from coordinate-coordinate-state-changelog-3: 899900 of about 1000000 records"
                                + " (89%), 43897 records/s",
                        "restored coordinate-state from coordinate-coordinate-state-changelog-3: 999900 records in 25000 ms");
    }

    @Test
    void eachPartitionHasItsOwnClockAndTheProbeSeesTheirSum() {
        assertThat(log.restoring()).isNull();
        at(0);
        log.onRestoreStart(P3, "coordinate-state", 0, 1000);
        at(5);
        log.onRestoreStart(P5, "coordinate-state", 50, 3050);
        log.onBatchRestored(P3, "coordinate-state", 400, 400);
        log.onBatchRestored(P5, "coordinate-state", 1050, 1000);
        assertThat(log.restoring())
                .isEqualTo("restoring 2 store partitions from the changelog: 1400 of about 4000 records (35%)");
        at(10);
        log.onBatchRestored(P3, "coordinate-state", 600, 200);
        log.onBatchRestored(P5, "coordinate-state", 1250, 200);
        log.onRestoreSuspended(P3, "coordinate-state", 600);
        assertThat(log.restoring())
                .isEqualTo("restoring 1 store partition from the changelog: 1200 of about 3000 records (40%)");
        at(15);
        log.onBatchRestored(P5, "coordinate-state", 1450, 200);
        log.onRestoreEnd(P5, "coordinate-state", 1400);
        assertThat(log.restoring()).isNull();

        assertThat(lines)
                .containsExactly(
                        "restoring coordinate-state from coordinate-coordinate-state-changelog-3 offsets 0 to 1000",
                        "restoring coordinate-state from coordinate-coordinate-state-changelog-5 offsets 50 to 3050",
                        "restoring coordinate-state from coordinate-coordinate-state-changelog-3: 600 of about 1000 records (60%),"
                                + " 60 records/s",
                        "stopped restoring coordinate-state from coordinate-coordinate-state-changelog-3 after 600 records"
                                + " (the task moved)",
                        "restoring coordinate-state from coordinate-coordinate-state-changelog-5: 1400 of about 3000 records (46%),"
                                + " 140 records/s",
                        "restored coordinate-state from coordinate-coordinate-state-changelog-5: 1400 records in 10000 ms");
    }
}
