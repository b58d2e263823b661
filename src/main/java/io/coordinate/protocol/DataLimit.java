package io.coordinate.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Map;

/**
 * The largest {@code data} object a command may carry: 256 KiB of JSON. A unit's stored value holds its data and
 * its latest attempt's (twice the data while it runs), and every stored value is one record of the changelog,
 * which Kafka refuses above 1 MiB ({@code max.request.size}): a larger value would fail the task at every try
 * and stop the namespace, even with data well below that limit. Checked when a command is parsed, so
 * only a command larger than the limit pays for it: no field of a smaller one can exceed it.
 */
public final class DataLimit {

    public static final int MAX_DATA_BYTES = 256 * 1024;

    private DataLimit() {}

    /** Rejects the command with {@code too_large} if any {@code data} object in it is larger than the limit. */
    static void check(JsonNode body, int commandBytes) {
        if (commandBytes > MAX_DATA_BYTES) {
            check(body, "");
        }
    }

    private static void check(JsonNode node, String path) {
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                String at = path.isEmpty() ? field.getKey() : path + "." + field.getKey();
                if (field.getKey().equals("data") && field.getValue().isContainerNode()) {
                    int size = Json.bytes(field.getValue()).length;
                    if (size > MAX_DATA_BYTES) {
                        throw new CommandRejection(
                                ErrorCode.TOO_LARGE,
                                "\"" + at + "\" is " + size + " bytes of JSON; at most " + MAX_DATA_BYTES);
                    }
                } else {
                    check(field.getValue(), at);
                }
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                check(node.get(i), path + "[" + i + "]");
            }
        }
    }
}
