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

  /** The last time formatted: a command formats its one {@code now} many times (events, attempts). */
  private static volatile Formatted last = new Formatted(Long.MIN_VALUE, "");

  public static String format(long epochMillis) {
    Formatted cached = last;
    if (cached.millis() == epochMillis) {
      return cached.text();
    }
    String text = FORMAT.format(Instant.ofEpochMilli(epochMillis));
    last = new Formatted(epochMillis, text);
    return text;
  }

  private record Formatted(long millis, String text) {}

  /** Parses any RFC 3339 / ISO-8601 instant ("...Z" or with an offset). */
  public static long parse(String text) {
    try {
      return java.time.OffsetDateTime.parse(text).toInstant().toEpochMilli();
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("not an RFC 3339 time: " + text, e);
    }
  }

  /** Seconds (possibly fractional) to whole milliseconds. */
  public static long secondsToMillis(double seconds) {
    return Math.round(seconds * 1000.0);
  }
}
