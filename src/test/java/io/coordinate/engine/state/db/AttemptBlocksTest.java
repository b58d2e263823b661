package io.coordinate.engine.state.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coordinate.engine.state.codec.AttemptKeys;
import io.coordinate.engine.state.codec.TimeIndexKeys;
import io.coordinate.storage.InMemoryKeyValueStore;
import io.coordinate.storage.RecordingStore;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The block entries' values, and a command's changes to them written once. */
class AttemptBlocksTest {

    private final InMemoryKeyValueStore store = new InMemoryKeyValueStore();

    @Test
    void attemptNumbersMapToBlocksOf64() {
        assertThat(AttemptBlocks.block(1)).isZero();
        assertThat(AttemptBlocks.block(63)).isZero();
        assertThat(AttemptBlocks.block(64)).isEqualTo(1);
        assertThat(AttemptBlocks.block(130)).isEqualTo(2);
    }

    @Test
    void aBitmapListsItsAttemptsAscendingWithTheHighestBitToo() {
        long bits = (1L << 63) | (1L << 5) | 1L;
        List<Long> seqs = new ArrayList<>();
        AttemptBlockValues.addSeqs(2, AttemptBlockValues.encodeBits(bits), seqs);
        assertThat(seqs).containsExactly(128L, 133L, 191L);
        assertThat(AttemptBlockValues.decodeBits(AttemptBlockValues.encodeBits(bits)))
                .isEqualTo(bits);
        assertThat(AttemptBlockValues.decodeBits(null)).isZero();
    }

    @Test
    void aUnitsEntryFindsEachKeyByItsAttemptAndIsNullWhenEmpty() {
        byte[][] keys = new byte[64][];
        keys[3] = bytes("unit-three");
        keys[63] = bytes("");
        keys[10] = bytes("unit-ten");
        byte[][] values = new byte[64][];
        values[3] = bytes("value of three");
        values[4] = bytes("no key: not written");
        byte[] value = AttemptBlockValues.encodeUnits(keys, values);

        assertThat(AttemptBlockValues.unitKeyIn(value, 64 + 3)).isEqualTo(bytes("unit-three"));
        assertThat(AttemptBlockValues.unitKeyIn(value, 64 + 10)).isEqualTo(bytes("unit-ten")); // after a carried value
        assertThat(AttemptBlockValues.unitKeyIn(value, 64 + 63)).isEmpty();
        assertThat(AttemptBlockValues.unitKeyIn(value, 64 + 4)).isNull();
        assertThat(AttemptBlockValues.unitKeyIn(null, 4)).isNull();
        byte[][] decodedKeys = new byte[64][];
        byte[][] decodedValues = new byte[64][];
        AttemptBlockValues.decodeUnits(value, decodedKeys, decodedValues);
        assertThat(decodedKeys).isEqualTo(keys);
        byte[][] expectedValues = new byte[64][];
        expectedValues[3] = bytes("value of three");
        assertThat(decodedValues).isEqualTo(expectedValues);
        // the layout's version, then per entry: offset, key length, key, and the carried value's length and bytes
        assertThat(value[0]).isEqualTo(AttemptBlockValues.UNITS_VERSION);
        assertThat(value)
                .hasSize(1 + 3 * 5 + "unit-three".length() + "unit-ten".length() + 4 + "value of three".length());
        assertThat(AttemptBlockValues.encodeUnits(new byte[64][], values)).isNull();
    }

    @Test
    void aUnitsEntryOfAnUnknownLaterVersionIsRefusedNotMisread() {
        byte[] later = {(byte) 0xC2, 3, 0, 0, 0, 2, 'k', '3'};
        assertThatThrownBy(() -> AttemptBlockValues.unitKeyIn(later, 3))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("a units entry of an unknown layout version: 194 (written by a later version of the app?)");
        assertThatThrownBy(() -> AttemptBlockValues.decodeUnits(later, new byte[64][], new byte[64][]))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aUnitsEntryWrittenBeforeValuesWereCarriedStillReads() {
        // offset 3, key "k3"; offset 9, key "k9": the layout without the carried-value bit
        byte[] old = {3, 0, 0, 0, 2, 'k', '3', 9, 0, 0, 0, 2, 'k', '9'};

        assertThat(AttemptBlockValues.unitKeyIn(old, 9)).isEqualTo(bytes("k9"));
        byte[][] keys = new byte[64][];
        byte[][] values = new byte[64][];
        AttemptBlockValues.decodeUnits(old, keys, values);
        assertThat(keys[3]).isEqualTo(bytes("k3"));
        assertThat(keys[9]).isEqualTo(bytes("k9"));
        assertThat(values).isEqualTo(new byte[64][]);
    }

    @Test
    void aCarriedValueIsDroppedWithItsKey() {
        AttemptBlocks blocks = new AttemptBlocks(store);
        blocks.setUnitKey("ns", 5, bytes("u5"));
        blocks.setUnitValue("ns", 5, bytes("v5"));
        blocks.flush();
        AttemptBlocks next = new AttemptBlocks(store);
        assertThat(next.unitValue("ns", 5)).isEqualTo(bytes("v5"));

        next.setUnitKey("ns", 5, null);

        assertThat(next.unitValue("ns", 5)).isNull();
        next.flush();
        assertThat(store.get(AttemptKeys.attemptUnitsBlock("ns", 0))).isNull();
    }

    @Test
    void changesReachTheStoreOnlyAtFlushAndAnEmptiedEntryIsDeleted() {
        AttemptBlocks blocks = new AttemptBlocks(store);
        for (long seq = 60; seq <= 66; seq++) {
            blocks.markWorker(AttemptBlocks.Kind.WORKER_ACTIVE, "ns", "w", seq, true);
            blocks.setUnitKey("ns", seq, bytes("u" + seq));
        }
        assertThat(store.size()).isZero();
        assertThat(blocks.unitKey("ns", 65)).isEqualTo(bytes("u65"));

        blocks.flush();

        assertThat(AttemptBlockValues.decodeBits(store.get(AttemptKeys.workerActiveBlock("ns", "w", 0))))
                .isEqualTo(0xFL << 60);
        assertThat(AttemptBlockValues.decodeBits(store.get(AttemptKeys.workerActiveBlock("ns", "w", 1))))
                .isEqualTo(0x7L);
        assertThat(AttemptBlockValues.unitKeyIn(store.get(AttemptKeys.attemptUnitsBlock("ns", 1)), 66))
                .isEqualTo(bytes("u66"));
        assertThat(store.size()).isEqualTo(4);

        AttemptBlocks next = new AttemptBlocks(store);
        for (long seq = 64; seq <= 66; seq++) {
            next.markWorker(AttemptBlocks.Kind.WORKER_ACTIVE, "ns", "w", seq, false);
            next.setUnitKey("ns", seq, null);
        }
        next.flush();
        assertThat(store.get(AttemptKeys.workerActiveBlock("ns", "w", 1))).isNull();
        assertThat(store.get(AttemptKeys.attemptUnitsBlock("ns", 1))).isNull();
        assertThat(store.size()).isEqualTo(2);
    }

    @Test
    void theEntriesOfABlockWhoseFirstAttemptStartsNowAreNotLookedFor() {
        RecordingStore counting = new RecordingStore(store);
        AttemptBlocks blocks = new AttemptBlocks(counting);
        for (long seq = 62; seq <= 66; seq++) {
            blocks.starting("ns", seq);
            blocks.markWorker(AttemptBlocks.Kind.WORKER_ATTEMPTS, "ns", "w", seq, true);
            blocks.markDeadline("ns", 1000, seq, true);
            blocks.setUnitKey("ns", seq, bytes("u" + seq));
        }
        assertThat(counting.reads)
                .as("block 0's three entries; block 1 starts at 64")
                .containsExactly(
                        hex(AttemptKeys.workerAttemptBlock("ns", "w", 0)),
                        hex(TimeIndexKeys.attemptDeadlineBlock(1000, "ns", 0)),
                        hex(AttemptKeys.attemptUnitsBlock("ns", 0)));

        blocks.flush();
        counting.reads.clear();
        blocks.markWorker(AttemptBlocks.Kind.WORKER_ACTIVE, "ns", "w", 65, true);
        assertThat(counting.reads)
                .as("after a flush the block's entries are in the store")
                .hasSize(1);
    }

    private static String hex(byte[] key) {
        return HexFormat.of().formatHex(key);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
