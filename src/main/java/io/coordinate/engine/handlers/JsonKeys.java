package io.coordinate.engine.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.protocol.CommandRejection;
import java.util.Iterator;
import java.util.List;

/** The keys of an object a command carries (a query, a progress report). */
final class JsonKeys {

    private JsonKeys() {}

    /** Refuses {@code object}, the command's {@code field}, if it has a key not in {@code known}, naming the key. */
    static void requireKnown(JsonNode object, String field, List<String> known) {
        for (Iterator<String> keys = object.fieldNames(); keys.hasNext(); ) {
            String key = keys.next();
            if (!known.contains(key)) {
                throw CommandRejection.badCommand(
                        "unknown key \"" + key + "\" in \"" + field + "\" (known: " + String.join(", ", known) + ")");
            }
        }
    }
}
