package io.coordinate.protocol;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/** RFC 3339 timestamps in UTC with millisecond precision, as the wire format wants them; epoch millis inside. */
public final class Times {

    private static final DateTimeFormatter FORMAT =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private Times() {}

    /** Years this formatter writes itself; others (never seen in practice) go through {@link DateTimeFormatter}. */
    private static final long FIRST_FAST = -62_135_596_800_000L; // 0001-01-01T00:00:00Z

    private static final long PAST_FAST = 253_402_300_800_000L; // 10000-01-01T00:00:00Z

    /**
     * {@code yyyy-MM-dd'T'HH:mm:ss.SSS'Z'}. Written by hand: every event and attempt carries times, and
     * {@code DateTimeFormatter} was a visible share of the stream thread. The date is Howard Hinnant's
     * days-to-civil conversion (proleptic Gregorian, as {@code java.time}).
     */
    public static String format(long epochMillis) {
        // A command's outputs repeat its few times (a request's attempts share a start and an expiration):
        // the last ones are kept, each in the slot its value hashes to.
        int slot = Long.hashCode(epochMillis * 0x9E3779B97F4A7C15L) >>> (32 - RECENT_BITS);
        Formatted recent = RECENT[slot];
        if (recent != null && recent.epochMillis == epochMillis) {
            return recent.text;
        }
        String text = formatNew(epochMillis);
        RECENT[slot] = new Formatted(epochMillis, text);
        return text;
    }

    /** A time with its text. Immutable, so threads may share the slots without locks (final fields). */
    private record Formatted(long epochMillis, String text) {}

    private static final int RECENT_BITS = 4;
    private static final Formatted[] RECENT = new Formatted[1 << RECENT_BITS];

    private static String formatNew(long epochMillis) {
        if (epochMillis < FIRST_FAST || epochMillis >= PAST_FAST) {
            return FORMAT.format(Instant.ofEpochMilli(epochMillis));
        }
        long days = Math.floorDiv(epochMillis, 86_400_000L);
        int millisOfDay = (int) Math.floorMod(epochMillis, 86_400_000L);
        long z = days + 719_468;
        long era = Math.floorDiv(z, 146_097);
        long dayOfEra = z - era * 146_097;
        long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        long monthIndex = (5 * dayOfYear + 2) / 153;
        int day = (int) (dayOfYear - (153 * monthIndex + 2) / 5 + 1);
        int month = (int) (monthIndex < 10 ? monthIndex + 3 : monthIndex - 9);
        int year = (int) (yearOfEra + era * 400 + (month <= 2 ? 1 : 0));
        byte[] text = new byte[24];
        digits(text, 0, year, 4);
        text[4] = '-';
        digits(text, 5, month, 2);
        text[7] = '-';
        digits(text, 8, day, 2);
        text[10] = 'T';
        digits(text, 11, millisOfDay / 3_600_000, 2);
        text[13] = ':';
        digits(text, 14, millisOfDay / 60_000 % 60, 2);
        text[16] = ':';
        digits(text, 17, millisOfDay / 1000 % 60, 2);
        text[19] = '.';
        digits(text, 20, millisOfDay % 1000, 3);
        text[23] = 'Z';
        return new String(text, java.nio.charset.StandardCharsets.US_ASCII);
    }

    private static void digits(byte[] text, int at, int value, int width) {
        for (int i = at + width - 1; i >= at; i--) {
            text[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
    }

    /** The earliest time the engine keeps: 0001-01-01T00:00:00.000Z, the first that RFC 3339 can write. */
    public static final long EARLIEST = FIRST_FAST;
    /** The latest time the engine keeps: 9999-12-31T23:59:59.999Z, the last that RFC 3339 can write. */
    public static final long LATEST = PAST_FAST - 1;

    /**
     * Parses any RFC 3339 / ISO-8601 instant ("...Z" or with an offset) from {@link #EARLIEST} to {@link #LATEST}.
     *
     * @throws IllegalArgumentException for anything else (java.time also reads years beyond 9999, some of them too
     *     far for epoch milliseconds)
     */
    public static long parse(String text) {
        long millis;
        try {
            millis = java.time.OffsetDateTime.parse(text).toInstant().toEpochMilli();
        } catch (DateTimeParseException | ArithmeticException e) {
            throw new IllegalArgumentException("not an RFC 3339 time: " + shortText(text), e);
        }
        if (millis < EARLIEST || millis > LATEST) {
            throw new IllegalArgumentException("not a time from year 1 to 9999: " + shortText(text));
        }
        return millis;
    }

    /** Seconds (possibly fractional) to whole milliseconds; saturated at the ends of a long, 0 for NaN. */
    public static long secondsToMillis(double seconds) {
        return Math.round(seconds * 1000.0);
    }

    /**
     * {@code time} + {@code seconds}, saturated to [{@link #EARLIEST}, {@link #LATEST}]: no duration, however large,
     * can wrap a lease's expiration around into the past (a huge lifetime once expired at once).
     */
    public static long plus(long time, double seconds) {
        return plusMillis(time, secondsToMillis(seconds));
    }

    /** {@code time} + {@code millis}, saturated as {@link #plus}. */
    public static long plusMillis(long time, long millis) {
        long sum = time + millis;
        if (((time ^ sum) & (millis ^ sum)) < 0) { // overflowed: the sign of both operands differs from the sum's
            sum = millis > 0 ? Long.MAX_VALUE : Long.MIN_VALUE;
        }
        return Math.max(EARLIEST, Math.min(LATEST, sum));
    }

    private static String shortText(String text) {
        return text.length() <= 64 ? text : text.substring(0, 64) + "...";
    }
}
