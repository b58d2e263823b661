package io.coordinate.engine.state.db;

import io.coordinate.engine.state.codec.AttemptKeys;
import io.coordinate.engine.state.codec.KeySpace;
import io.coordinate.engine.state.codec.UnitValue;
import io.coordinate.engine.state.codec.ValueCodec;
import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.storage.KeyValueIterator;
import io.coordinate.storage.KeyValueStore;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Folds the started-units entries of stores written by index layout 3 and before into their units' records. Those
 * versions left a unit's record as it was when a request started it and kept what the start added (the worker and
 * the times) in one entry per block of 64 attempts; a unit's record is now its whole value, so the rebuild that a
 * new layout brings writes each such unit's record and deletes the entries.
 */
final class StartEntriesMigration {

    private StartEntriesMigration() {}

    /** Folds every namespace's started-units entries into the records; returns how many units it wrote. */
    static long fold(KeyValueStore records) {
        long folded = 0;
        for (String ns : DbState.reader(records).namespaces().list()) {
            List<KeyValueIterator.Entry> entries = new ArrayList<>();
            try (KeyValueIterator it = records.prefix(AttemptKeys.startedUnitsBlocks(ns))) {
                it.forEachRemaining(entries::add);
            }
            for (KeyValueIterator.Entry entry : entries) {
                long first = KeySpace.trailingSeq(entry.key()) << AttemptBlocks.SHIFT;
                byte[][] unitKeys = new byte[1 << AttemptBlocks.SHIFT][];
                byte[][] deltas = new byte[unitKeys.length][];
                AttemptBlockValues.decodeUnits(entry.value(), unitKeys, deltas);
                for (int offset = 0; offset < unitKeys.length; offset++) {
                    byte[] recorded = unitKeys[offset] == null ? null : records.get(unitKeys[offset]);
                    if (recorded != null) {
                        records.put(unitKeys[offset], value(recorded, first + offset, deltas[offset]));
                        folded++;
                    }
                }
                records.delete(entry.key());
            }
        }
        return folded;
    }

    /**
     * The unit's value once attempt {@code seq} started on it: its record {@code recorded} as the request found it,
     * and what the start added ({@code delta}: the worker's name, the start and the expiration time).
     */
    static byte[] value(byte[] recorded, long seq, byte[] delta) {
        WorkUnitRecord unit = ValueCodec.decode(recorded, WorkUnitRecord.class);
        ByteBuffer in = ByteBuffer.wrap(delta);
        byte[] worker = new byte[in.getInt()];
        in.get(worker);
        AttemptRecord attempt = AttemptRecord.started(
                seq, unit, new String(worker, StandardCharsets.UTF_8), in.getLong(), in.getLong());
        return UnitValue.of(ValueCodec.encode(unit.startedOn(seq)), seq, ValueCodec.encode(attempt));
    }
}
