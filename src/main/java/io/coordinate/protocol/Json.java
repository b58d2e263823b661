package io.coordinate.protocol;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;

/** The one JSON mapper of the wire format. Numbers keep their exact form (no float rounding of big values). */
public final class Json {

  public static final ObjectMapper MAPPER =
      new ObjectMapper()
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
          .setNodeFactory(JsonNodeFactory.withExactBigDecimals(true));

  private Json() {}

  public static ObjectNode object() {
    return MAPPER.createObjectNode();
  }

  /** Parses bytes as JSON; throws {@link IOException} for anything that is not one JSON value. */
  public static JsonNode parse(byte[] bytes) throws IOException {
    JsonNode node;
    try {
      node = MAPPER.readTree(bytes);
    } catch (IllegalArgumentException | ArithmeticException e) {
      // Jackson throws NumberFormatException for a number it cannot hold ("1E+9999999997": exponent overflow)
      throw new IOException(e.getMessage(), e);
    }
    if (node == null || node.isMissingNode()) {
      throw new IOException("empty record");
    }
    return node;
  }

  public static JsonNode parse(String text) {
    try {
      return MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(e.getOriginalMessage(), e);
    }
  }

  /** The JSON of a tree, as {@link #MAPPER} writes it (see {@link TreeWriter}: the outputs' hot path). */
  public static byte[] bytes(JsonNode node) {
    return TreeWriter.bytes(node);
  }

  /** Writes JSON into a generator of {@link #MAPPER}'s factory. */
  @FunctionalInterface
  public interface Writing {
    void write(JsonGenerator out) throws IOException;
  }

  /** The JSON that {@code writing} writes, as bytes; {@code sizeHint}: the bytes expected, to size the buffer. */
  public static byte[] bytes(int sizeHint, Writing writing) {
    try (ByteArrayBuilder bytes = new ByteArrayBuilder(sizeHint);
        JsonGenerator out = MAPPER.getFactory().createGenerator(bytes)) {
      writing.write(out);
      out.flush();
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A field name, or a value from a small fixed set, in its encoded form: written by copying, not escaped again.
   * Names repeat in every record, so the first few thousand are kept.
   */
  public static SerializableString encoded(String text) {
    return TreeWriter.encoded(text);
  }

  /** Writes a tree into a generator made by {@link #MAPPER}'s factory, as {@link #bytes} would. */
  public static void write(JsonGenerator generator, JsonNode node) throws IOException {
    TreeWriter.write(node, generator);
  }

  public static String text(JsonNode node) {
    try {
      return MAPPER.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
