package io.coordinate.streams;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The index rebuild's progress lines, with the clock set by the test. */
class RebuildLogTest {

    private final AtomicLong nanos = new AtomicLong(-5_000_000_000L);
    private final List<String> lines = new ArrayList<>();

    private void at(long millis) {
        nanos.set(-5_000_000_000L + TimeUnit.MILLISECONDS.toNanos(millis));
    }

    @Test
    void logsTheRecordsReadOfTheEstimateTheUnitsAndTheRateAtLeastEveryTenSeconds() {
        at(0);
        RebuildLog log = new RebuildLog("0_3", 3_000_000, nanos::get, lines::add);
        at(2_000);
        log.derived(10_000, 3_000);
        at(9_999);
        log.derived(400_000, 130_000);
        at(10_000);
        log.derived(410_000, 136_000);
        at(12_000);
        log.derived(500_000, 166_000);
        at(20_000);
        log.derived(800_000, 266_000);
        at(40_000);
        log.derived(3_200_000, 1_066_000); // the estimate was low

        assertThat(lines)
                .containsExactly(
                        "task 0_3: rebuilding the indexes: 410000 of about 3000000 records (13%) read, 136000 units, 41000 records/s",
                        "task 0_3: rebuilding the indexes: 800000 of about 3000000 records (26%) read, 266000 units, 40000 records/s",
                        "task 0_3: rebuilding the indexes: 3200000 of about 3000000 records (100%) read, 1066000 units,"
                                + " 80000 records/s");
    }

    @Test
    void withoutAnEstimateItSaysTheRecordsReadOnly() {
        at(0);
        RebuildLog log = new RebuildLog("1_0", 0, nanos::get, lines::add);
        at(10_000);
        log.derived(50_000, 20_000);

        assertThat(lines)
                .containsExactly("task 1_0: rebuilding the indexes: 50000 records read, 20000 units, 5000 records/s");
    }
}
