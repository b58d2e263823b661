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

    public static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .setNodeFactory(JsonNodeFactory.withExactBigDecimals(true));

    private Json() {}

    public static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    /** Parses bytes as JSON; throws {@link IOException} for anything that is not one JSON value in UTF-8. */
    public static JsonNode parse(byte[] bytes) throws IOException {
        requireUtf8(bytes);
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

    /**
     * Refuses what Jackson would read in another encoding than UTF-8: it skips a UTF-8 byte order mark, and reads
     * a value with a UTF-16 or UTF-32 one, or with a zero byte in its first four bytes, as UTF-16 or UTF-32. JSON in
     * UTF-8 never has a zero byte there (a raw NUL is neither whitespace nor allowed in a string): no valid value is
     * refused.
     */
    private static void requireUtf8(byte[] bytes) throws IOException {
        int b0 = bytes.length > 0 ? bytes[0] & 0xFF : -1;
        int b1 = bytes.length > 1 ? bytes[1] & 0xFF : -1;
        if (b0 == 0xEF && b1 == 0xBB && bytes.length > 2 && (bytes[2] & 0xFF) == 0xBF) {
            throw new IOException("starts with a byte order mark (EF BB BF): the value must be UTF-8 without one");
        }
        if ((b0 == 0xFE && b1 == 0xFF) || (b0 == 0xFF && b1 == 0xFE)) {
            throw new IOException("starts with a UTF-16 or UTF-32 byte order mark: the value must be UTF-8");
        }
        for (int i = 0; i < Math.min(4, bytes.length); i++) {
            if (bytes[i] == 0) {
                throw new IOException(
                        "a zero byte in its first four bytes (UTF-16 or UTF-32?): the value must be UTF-8");
            }
        }
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

    public static String text(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
