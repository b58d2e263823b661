package io.coordinate.engine.state;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.dataformat.smile.databind.SmileMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

/**
 * Stored values: records in Smile (binary JSON: compact, fast, and the same data model as the wire's JSON,
 * so unit data round-trips exactly), counters as 8 big-endian bytes.
 */
public final class ValueCodec {

  private static final ObjectMapper SMILE =
      SmileMapper.builder()
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
          .build();

  static final byte[] EMPTY = new byte[0];

  private ValueCodec() {}

  public static byte[] encode(Object value) {
    try {
      return SMILE.writeValueAsBytes(value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static <T> T decode(byte[] bytes, Class<T> type) {
    if (bytes == null) {
      return null;
    }
    try {
      return SMILE.readValue(bytes, type);
    } catch (IOException e) {
      throw new UncheckedIOException("corrupt " + type.getSimpleName() + " value", e);
    }
  }

  public static byte[] encodeLong(long value) {
    return ByteBuffer.allocate(8).putLong(value).array();
  }

  public static long decodeLong(byte[] bytes) {
    return bytes == null ? 0 : ByteBuffer.wrap(bytes).getLong();
  }
}
