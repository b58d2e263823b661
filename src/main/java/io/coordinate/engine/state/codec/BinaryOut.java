package io.coordinate.engine.state.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.CharConversionException;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

/** The writer of {@link BinaryRecords}' layout: a growing buffer; the writes of an absent (null) field write nothing. */
final class BinaryOut {
    private byte[] bytes = new byte[256];
    private int length;

    void header() {
        bytes[length++] = BinaryRecords.FORMAT;
        bytes[length++] = BinaryRecords.VERSION;
    }

    void byte8(int value) {
        ensure(1);
        bytes[length++] = (byte) value;
    }

    void fixed64(long value) {
        ensure(8);
        for (int shift = 56; shift >= 0; shift -= 8) {
            bytes[length++] = (byte) (value >>> shift);
        }
    }

    void varlong(Long value) {
        if (value != null) {
            varlong(value.longValue());
        }
    }

    /** Zigzag, so that small negatives stay short too. */
    void varlong(long value) {
        unsigned((value << 1) ^ (value >> 63));
    }

    /** Counts and lengths: plain varints. */
    void unsigned(long value) {
        ensure(10);
        byte[] out = bytes;
        int at = length;
        while ((value & ~0x7FL) != 0) {
            out[at++] = (byte) (value | 0x80);
            value >>>= 7;
        }
        out[at++] = (byte) value;
        length = at;
    }

    void string(String value) throws CharConversionException {
        if (value == null) {
            return;
        }
        // Most strings are ASCII (names, ids): the JDK's encoder copies those whole, where the loops below take
        // them char by char.
        byte[] encoded = value.getBytes(StandardCharsets.UTF_8);
        if (encoded.length == value.length() && hasNoQuestionMark(encoded)) {
            raw(encoded);
            return;
        }
        int chars = value.length();
        int utf8 = utf8Length(value);
        unsigned(utf8);
        ensure(utf8);
        byte[] out = bytes;
        int at = length;
        for (int i = 0; i < chars; i++) {
            char c = value.charAt(i);
            if (c < 0x80) {
                out[at++] = (byte) c;
            } else if (c < 0x800) {
                out[at++] = (byte) (0xC0 | c >> 6);
                out[at++] = (byte) (0x80 | c & 0x3F);
            } else if (Character.isHighSurrogate(c)) { // paired: utf8Length checked it
                int code = Character.toCodePoint(c, value.charAt(++i));
                out[at++] = (byte) (0xF0 | code >> 18);
                out[at++] = (byte) (0x80 | code >> 12 & 0x3F);
                out[at++] = (byte) (0x80 | code >> 6 & 0x3F);
                out[at++] = (byte) (0x80 | code & 0x3F);
            } else {
                out[at++] = (byte) (0xE0 | c >> 12);
                out[at++] = (byte) (0x80 | c >> 6 & 0x3F);
                out[at++] = (byte) (0x80 | c & 0x3F);
            }
        }
        length = at;
    }

    /**
     * As many UTF-8 bytes as chars means every char is ASCII or an unpaired surrogate, which the JDK's encoder
     * replaces by '?' (and {@link #utf8Length} refuses): without a '?', all ASCII.
     */
    private static boolean hasNoQuestionMark(byte[] encoded) {
        for (byte b : encoded) {
            if (b == '?') {
                return false;
            }
        }
        return true;
    }

    /**
     * The UTF-8 length of a string. An unpaired surrogate has no UTF-8 form: the Smile format refused it, and so
     * does this one (the JDK's encoder would store a '?').
     */
    private static int utf8Length(String value) throws CharConversionException {
        int chars = value.length();
        int utf8 = chars;
        for (int i = 0; i < chars; i++) {
            char c = value.charAt(i);
            if (c < 0x80) {
                continue;
            }
            if (c < 0x800) {
                utf8 += 1;
            } else if (!Character.isSurrogate(c)) {
                utf8 += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < chars && Character.isLowSurrogate(value.charAt(i + 1))) {
                utf8 += 2; // 4 bytes for the two chars
                i++;
            } else {
                throw new CharConversionException("unpaired surrogate at index " + i);
            }
        }
        return utf8;
    }

    void json(JsonNode value) throws IOException {
        if (value == null) {
            return;
        }
        LastJson last = LastJson.mine();
        if (last.node == value) {
            ensure(last.encoded.length);
            System.arraycopy(last.encoded, 0, bytes, length, last.encoded.length);
            length += last.encoded.length;
            return;
        }
        int start = length;
        if (!tree(value, 1)) {
            length = start;
            byte8(BinaryRecords.J_SMILE);
            raw(ValueCodec.SMILE.writeValueAsBytes(value));
        }
    }

    /** Writes a node of the known classes; false (with part of it written) for anything else. */
    private boolean tree(JsonNode node, int depth) throws IOException {
        Class<?> type = node.getClass();
        if (type == ObjectNode.class || type == ArrayNode.class) {
            if (depth > BinaryRecords.MAX_DEPTH) {
                return false;
            }
            byte8(type == ObjectNode.class ? BinaryRecords.J_OBJECT : BinaryRecords.J_ARRAY);
            unsigned(node.size());
            if (type == ObjectNode.class) {
                for (Map.Entry<String, JsonNode> field : node.properties()) {
                    string(field.getKey());
                    if (!tree(field.getValue(), depth + 1)) {
                        return false;
                    }
                }
            } else {
                for (JsonNode element : node) {
                    if (!tree(element, depth + 1)) {
                        return false;
                    }
                }
            }
        } else if (type == TextNode.class && node.textValue() != null) {
            byte8(BinaryRecords.J_TEXT);
            string(node.textValue());
        } else if (type == BooleanNode.class) {
            byte8(node.booleanValue() ? BinaryRecords.J_TRUE : BinaryRecords.J_FALSE);
        } else if (type == NullNode.class) {
            byte8(BinaryRecords.J_NULL);
        } else if (type == IntNode.class || type == LongNode.class) {
            byte8(BinaryRecords.J_INTEGER);
            varlong(node.longValue());
        } else if (type == DecimalNode.class && node.decimalValue() != null) {
            BigDecimal decimal = node.decimalValue();
            BigInteger unscaled = decimal.unscaledValue();
            boolean small = unscaled.bitLength() < 64;
            byte8(small ? BinaryRecords.J_DECIMAL : BinaryRecords.J_BIG_DECIMAL);
            varlong(decimal.scale());
            if (small) {
                varlong(unscaled.longValue());
            } else {
                raw(unscaled.toByteArray());
            }
        } else {
            return false;
        }
        return true;
    }

    /** Bytes with their varint length. */
    private void raw(byte[] value) {
        unsigned(value.length);
        ensure(value.length);
        System.arraycopy(value, 0, bytes, length, value.length);
        length += value.length;
    }

    byte[] toBytes() {
        return Arrays.copyOf(bytes, length);
    }

    private void ensure(int extra) {
        if (length + extra > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + extra));
        }
    }
}
