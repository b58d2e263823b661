package io.coordinate.engine.state.db;

import io.coordinate.engine.state.codec.ValueCodec;
import io.coordinate.engine.state.model.WorkSpecRecord;
import io.coordinate.storage.ByteKey;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Specs decoded once and kept from one command to the next (the engine's). Every command of a batch reads its
 * spec, and decoding one (Smile, tens of fields) cost as much as a few units' work. A kept spec is used only while
 * the stored bytes are exactly those it was decoded from, so a changed spec is never missed. Bounded: the least
 * recently used go first.
 */
public final class DecodedSpecs {

    private static final int MAX_SPECS = 1024;

    private record Decoded(byte[] stored, WorkSpecRecord spec) {}

    private final Map<ByteKey, Decoded> decoded = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<ByteKey, Decoded> eldest) {
            return size() > MAX_SPECS;
        }
    };

    /** The spec stored under {@code key} as {@code stored} (null: none). */
    WorkSpecRecord decode(byte[] key, byte[] stored) {
        if (stored == null) {
            return null;
        }
        ByteKey id = new ByteKey(key);
        Decoded kept = decoded.get(id);
        if (kept != null && Arrays.equals(kept.stored(), stored)) {
            return kept.spec();
        }
        WorkSpecRecord spec = ValueCodec.decode(stored, WorkSpecRecord.class);
        decoded.put(id, new Decoded(stored, spec));
        return spec;
    }

    int size() {
        return decoded.size();
    }
}
