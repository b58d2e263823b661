package io.coordinate.engine.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.protocol.CommandRejection;
import java.util.Iterator;
import java.util.Set;

/**
 * A work spec key whose value is an object of settings, as {@code retry} and {@code rate_limit}: a key it does not
 * know is refused, since a misspelt one would silently keep its default.
 */
final class SettingsObject {

    private SettingsObject() {}

    /**
     * The object under {@code key} of the spec's data, or null when absent or null.
     *
     * @param kind how a refused field is named, e.g. {@code "a retry setting"}
     */
    static JsonNode of(JsonNode data, String key, Set<String> fields, String kind) {
        JsonNode value = data.get(key);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isObject()) {
            throw CommandRejection.badCommand("work spec key \"" + key + "\" must be an object");
        }
        for (Iterator<String> names = value.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!fields.contains(name)) {
                throw CommandRejection.badCommand("work spec key \"" + key + "." + name + "\" is not " + kind);
            }
        }
        return value;
    }
}
