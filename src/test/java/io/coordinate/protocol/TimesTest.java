package io.coordinate.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TimesTest {

    private static final DateTimeFormatter REFERENCE =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    @Test
    void writesTheWireFormat() {
        assertThat(Times.format(0)).isEqualTo("1970-01-01T00:00:00.000Z");
        assertThat(Times.format(Instant.parse("2026-11-22T10:00:00.007Z").toEpochMilli()))
                .isEqualTo("2026-11-22T10:00:00.007Z");
        assertThat(Times.format(Instant.parse("2000-02-29T23:59:59.999Z").toEpochMilli()))
                .isEqualTo("2000-02-29T23:59:59.999Z");
        assertThat(Times.format(-1)).isEqualTo("1969-12-31T23:59:59.999Z");
        assertThat(Times.format(Instant.parse("0001-01-01T00:00:00Z").toEpochMilli()))
                .isEqualTo("0001-01-01T00:00:00.000Z");
        assertThat(Times.format(Instant.parse("9999-12-31T23:59:59.999Z").toEpochMilli()))
                .isEqualTo("9999-12-31T23:59:59.999Z");
    }

    @Test
    void agreesWithJavaTimeOverTheWholeRangeAndBeyond() {
        SplittableRandom random = new SplittableRandom(11);
        for (int i = 0; i < 200_000; i++) {
            long millis = random.nextLong(-70_000_000_000_000L, 260_000_000_000_000L);
            assertThat(Times.format(millis)).as("%d", millis).isEqualTo(REFERENCE.format(Instant.ofEpochMilli(millis)));
        }
    }

    @Test
    void timesWrittenAgainComeOutTheSameWhateverCameBetween() {
        // a request writes its start and expiration times a hundred times over; the recent ones are kept by slot
        SplittableRandom random = new SplittableRandom(7);
        long[] times = new long[64];
        for (int i = 0; i < times.length; i++) {
            times[i] = 1_800_000_000_000L + random.nextLong(0, 1_000_000_000L);
        }
        for (int round = 0; round < 50; round++) {
            for (long millis : times) {
                assertThat(Times.format(millis)).isEqualTo(REFERENCE.format(Instant.ofEpochMilli(millis)));
                long next = millis + 900_000;
                assertThat(Times.format(next)).isEqualTo(REFERENCE.format(Instant.ofEpochMilli(next)));
            }
        }
    }

    @Test
    void parsesWhatItWrites() {
        long millis = Instant.parse("2026-11-22T10:00:00.123Z").toEpochMilli();
        assertThat(Times.parse(Times.format(millis))).isEqualTo(millis);
    }

    @Test
    void plusSaturatesAtTheYearsRfc3339CanWrite() {
        long now = Instant.parse("2026-11-22T10:00:00Z").toEpochMilli();
        assertThat(Times.plus(now, 1.5)).isEqualTo(now + 1500);
        assertThat(Times.format(Times.plus(now, 1e300))).isEqualTo("9999-12-31T23:59:59.999Z");
        assertThat(Times.format(Times.plus(now, -1e300))).isEqualTo("0001-01-01T00:00:00.000Z");
        assertThat(Times.plus(now, Double.POSITIVE_INFINITY)).isEqualTo(Times.LATEST);
        assertThat(Times.plus(now, Double.NaN)).isEqualTo(now);
        assertThat(Times.plusMillis(Long.MAX_VALUE - 1, Long.MAX_VALUE)).isEqualTo(Times.LATEST);
        assertThat(Times.plusMillis(Long.MIN_VALUE + 1, Long.MIN_VALUE)).isEqualTo(Times.EARLIEST);
    }

    @Test
    void parseRefusesYearsBeyond9999() {
        assertThat(Times.parse("9999-12-31T23:59:59.999Z")).isEqualTo(Times.LATEST);
        assertThat(Times.parse("0001-01-01T00:00:00Z")).isEqualTo(Times.EARLIEST);
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> Times.parse("+10000-01-01T00:00:00Z")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("not a time from year 1 to 9999: +10000-01-01T00:00:00Z");
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> Times.parse("+999999999-12-31T23:59:59Z")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("not an RFC 3339 time: +999999999-12-31T23:59:59Z");
    }
}
