package io.coordinate.engine.state.codec;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Arrays;

/**
 * The JSON value this thread read last in the tree format, with its encoding. A unit's data is most often its
 * attempt's too: a finish reads the attempt then the unit, and writes them; a request reads the unit, then writes
 * it and its attempt. Reading those bytes again gives this instance, as a started attempt gets its unit's data:
 * records treat their JSON as immutable, and nothing changes a node once it is in one. Writing this instance
 * copies the bytes: the tree format is canonical, so a node read from it writes the same bytes again (a node from
 * elsewhere, a LongNode(7), say, may not read back as itself, so writes are not remembered).
 */
final class LastJson {
    byte[] encoded = new byte[0];
    JsonNode node;

    /** Kept only if small: a unit's data may be up to a MiB, which each thread would hold a copy of. */
    static final int MAX_BYTES = 4096;

    void remember(byte[] bytes, int from, int to, JsonNode value) {
        if (to - from <= MAX_BYTES) {
            encoded = Arrays.copyOfRange(bytes, from, to);
            node = value;
        }
    }

    /**
     * One per thread, never shared: the codec is called statically from everywhere (records, rebuilds, queries), so
     * there is no instance that one thread owns to keep it in.
     */
    private static final ThreadLocal<LastJson> MINE = ThreadLocal.withInitial(LastJson::new);

    static LastJson mine() {
        return MINE.get();
    }
}
