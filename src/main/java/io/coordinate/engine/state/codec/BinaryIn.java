package io.coordinate.engine.state.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** The reader of {@link BinaryRecords}' layout. */
final class BinaryIn {

    private static final JsonNodeFactory NODES = ValueCodec.SMILE.getNodeFactory();

    private final byte[] bytes;
    private int pos;

    BinaryIn(byte[] bytes) {
        this.bytes = bytes;
    }

    int remaining() {
        return bytes.length - pos;
    }

    int byte8() {
        return bytes[pos++] & 0xFF;
    }

    long fixed64() {
        long value = 0;
        for (int i = 0; i < 8; i++) {
            value = value << 8 | (bytes[pos++] & 0xFF);
        }
        return value;
    }

    long varlong() throws IOException {
        long raw = unsigned();
        return (raw >>> 1) ^ -(raw & 1);
    }

    int varint() throws IOException {
        long value = varlong();
        if (value != (int) value) {
            throw new IOException("int out of range: " + value);
        }
        return (int) value;
    }

    private long unsigned() throws IOException {
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            byte b = bytes[pos++];
            value |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
                return value;
            }
        }
        throw new IOException("varint longer than 10 bytes");
    }

    private int length() throws IOException {
        long length = unsigned();
        if (length < 0 || length > remaining()) {
            throw new IOException("length " + length + " past the end");
        }
        return (int) length;
    }

    String string() throws IOException {
        int length = length();
        String value = new String(bytes, pos, length, StandardCharsets.UTF_8);
        pos += length;
        return value;
    }

    JsonNode json() throws IOException {
        LastJson last = LastJson.mine();
        int start = pos;
        int known = last.encoded.length;
        // the encoding is self-delimiting: bytes that start with a whole encoding hold that value and no more
        if (known > 0 && known <= remaining() && Arrays.equals(bytes, start, start + known, last.encoded, 0, known)) {
            pos += known;
            return last.node;
        }
        int tag = byte8();
        if (tag != BinaryRecords.J_SMILE) {
            JsonNode value = tree(tag, 1);
            last.remember(bytes, start, pos, value);
            return value;
        }
        int length = length();
        JsonNode value = ValueCodec.SMILE.readTree(bytes, pos, length);
        pos += length;
        return value;
    }

    private JsonNode tree(int tag, int depth) throws IOException {
        if ((tag == BinaryRecords.J_OBJECT || tag == BinaryRecords.J_ARRAY) && depth > BinaryRecords.MAX_DEPTH) {
            throw new IOException("JSON deeper than " + BinaryRecords.MAX_DEPTH);
        }
        switch (tag) {
            case BinaryRecords.J_OBJECT -> {
                ObjectNode object = NODES.objectNode();
                for (int i = count(); i > 0; i--) {
                    String name = string();
                    object.replace(name, tree(byte8(), depth + 1));
                }
                return object;
            }
            case BinaryRecords.J_ARRAY -> {
                int count = count();
                ArrayNode array = NODES.arrayNode(count);
                for (int i = 0; i < count; i++) {
                    array.add(tree(byte8(), depth + 1));
                }
                return array;
            }
            case BinaryRecords.J_TEXT -> {
                return NODES.textNode(string());
            }
            case BinaryRecords.J_TRUE, BinaryRecords.J_FALSE -> {
                return NODES.booleanNode(tag == BinaryRecords.J_TRUE);
            }
            case BinaryRecords.J_NULL -> {
                return NODES.nullNode();
            }
            case BinaryRecords.J_INTEGER -> {
                long value = varlong();
                return value == (int) value ? NODES.numberNode((int) value) : NODES.numberNode(value);
            }
            case BinaryRecords.J_DECIMAL -> {
                int scale = varint();
                return NODES.numberNode(BigDecimal.valueOf(varlong(), scale));
            }
            case BinaryRecords.J_BIG_DECIMAL -> {
                int scale = varint();
                int length = length();
                BigInteger unscaled = new BigInteger(bytes, pos, length);
                pos += length;
                return NODES.numberNode(new BigDecimal(unscaled, scale));
            }
            default -> throw new IOException("unknown JSON tag " + tag);
        }
    }

    /** The size of a list; each member takes at least a byte. */
    int count() throws IOException {
        long count = unsigned();
        if (count < 0 || count > remaining()) {
            throw new IOException("bad count " + count);
        }
        return (int) count;
    }
}
