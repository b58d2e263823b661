package io.coordinate.engine.replication;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;

/**
 * The {@code exact} validator (docs/replication.md#spec-keys): two replicas agree when the {@code result} keys of their
 * finish data are equal as canonical JSON — object keys sorted (by UTF-16 code units, as RFC 8785), numbers normalized
 * ({@code 1}, {@code 1.0} and {@code 1e0} are one number), no white space. A missing {@code result} is {@code null}.
 * Only the SHA-256 of the canonical form is kept in the unit, so a validation reads no attempt.
 */
public final class ResultDigest {

    private ResultDigest() {}

    /** The digest of the {@code result} of finish data (null data: no result). */
    public static String of(JsonNode finishData) {
        JsonNode result = finishData == null ? null : finishData.get("result");
        return sha256(canonical(result));
    }

    /** The canonical JSON text of a value; null and a missing value are {@code null}. */
    public static String canonical(JsonNode value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    private static void write(JsonNode value, StringBuilder out) {
        if (value == null || value.isNull() || value.isMissingNode()) {
            out.append("null");
        } else if (value.isObject()) {
            List<String> keys = new ArrayList<>();
            value.fieldNames().forEachRemaining(keys::add);
            keys.sort(null);
            out.append('{');
            for (int i = 0; i < keys.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                string(keys.get(i), out);
                out.append(':');
                write(value.get(keys.get(i)), out);
            }
            out.append('}');
        } else if (value.isArray()) {
            out.append('[');
            for (Iterator<JsonNode> it = value.elements(); it.hasNext(); ) {
                write(it.next(), out);
                if (it.hasNext()) {
                    out.append(',');
                }
            }
            out.append(']');
        } else if (value.isNumber()) {
            out.append(number(value.decimalValue()));
        } else if (value.isTextual()) {
            string(value.textValue(), out);
        } else if (value.isBoolean()) {
            out.append(value.booleanValue());
        } else {
            string(value.asText(), out); // binary or POJO nodes never come from JSON; keep them comparable anyway
        }
    }

    /** Without trailing zeros; plain unless the exponent is far out (then {@code 1E+30}-style, still unique). */
    static String number(BigDecimal value) {
        if (value.signum() == 0) {
            return "0";
        }
        BigDecimal stripped = value.stripTrailingZeros();
        return stripped.scale() >= -21 && stripped.scale() <= 21 ? stripped.toPlainString() : stripped.toString();
    }

    private static void string(String text, StringBuilder out) {
        out.append('"');
        out.append(JsonStringEncoder.getInstance().quoteAsString(text));
        out.append('"');
    }

    private static String sha256(String text) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(digest.digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
