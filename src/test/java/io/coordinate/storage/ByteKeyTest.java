package io.coordinate.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.coordinate.engine.state.codec.UnitKeys;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ByteKeyTest {

    @Test
    void equalBytesAreEqualKeysWithOneHash() {
        byte[] a = UnitKeys.unit("ns", "spec", "unit-17");
        byte[] b = UnitKeys.unit("ns", "spec", "unit-17");
        assertEquals(new ByteKey(a), new ByteKey(b));
        assertEquals(new ByteKey(a).hashCode(), new ByteKey(b).hashCode());
        assertNotEquals(new ByteKey(a), new ByteKey(UnitKeys.unit("ns", "spec", "unit-18")));
    }

    @Test
    void everyByteAndTheLengthCount() {
        byte[] base = UnitKeys.unit("ns", "spec", "a-unit-name-of-some-length");
        Set<Integer> hashes = new HashSet<>();
        hashes.add(ByteKey.hash(base));
        for (int i = 0; i < base.length; i++) {
            byte[] changed = base.clone();
            changed[i] ^= 1;
            hashes.add(ByteKey.hash(changed));
        }
        assertEquals(base.length + 1, hashes.size());

        Set<Integer> zeros = new HashSet<>();
        for (int length = 0; length <= 24; length++) {
            zeros.add(ByteKey.hash(new byte[length]));
        }
        assertEquals(25, zeros.size());
    }

    @Test
    void sequentialUnitNamesSpreadOverTheBuckets() {
        // a HashMap's bucket is the low bits of (hash ^ hash >>> 16): 100,000 keys in 2^17 buckets
        Set<Integer> hashes = new HashSet<>();
        Set<Integer> buckets = new HashSet<>();
        for (int i = 0; i < 100_000; i++) {
            int hash = ByteKey.hash(UnitKeys.unit("bench", "spec", "u" + i));
            hashes.add(hash);
            buckets.add((hash ^ hash >>> 16) & ((1 << 17) - 1));
        }
        assertEquals(100_000, hashes.size());
        // a uniform hash fills 1 - e^(-100000/131072) of them, ~69,950
        assertEquals(69_930, buckets.size());
    }
}
