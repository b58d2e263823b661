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

  public static String format(long epochMillis) {
    return FORMAT.format(Instant.ofEpochMilli(epochMillis));
  }

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
