package io.coordinate.engine;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.protocol.Json;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * One record the engine wants written: its key and JSON value; the topic is given by the list it is in. The
 * value is a tree, or bytes already written (event batches, see {@link EventBatch}); each form is made from the
 * other only when asked for.
 */
public final class OutRecord {

    private final String key;
    private JsonNode tree;
    private byte[] json;

    public OutRecord(String key, JsonNode value) {
        this.key = key;
        this.tree = value;
    }

    static OutRecord ofJson(String key, byte[] json) {
        OutRecord record = new OutRecord(key, null);
        record.json = json;
        return record;
    }

    public String key() {
        return key;
    }

    /** The value as a tree (parsed from its bytes the first time, for records written as bytes). */
    public JsonNode value() {
        if (tree == null) {
            try {
                tree = Json.parse(json);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return tree;
    }

    /** The value's JSON bytes, as they go to Kafka. */
    public byte[] json() {
        if (json == null) {
            json = Json.bytes(tree);
        }
        return json;
    }

    @Override
    public String toString() {
        return key + " → " + new String(json(), java.nio.charset.StandardCharsets.UTF_8);
    }
}
