package io.coordinate.engine.state.db;

import io.coordinate.storage.ByteKey;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class KeySeqMapTest {

  private final KeySeqMap map = new KeySeqMap();

  @Test
  void putGetOverwriteAndRemove() {
    byte[] a = key("a");
    map.put(a, ByteKey.hash(a), 7);
    map.put(key("b"), ByteKey.hash(key("b")), 8);

    assertThat(map.get(key("a"), ByteKey.hash(a))).isEqualTo(7);
    map.put(key("a"), ByteKey.hash(a), 9);
    assertThat(map.get(a, ByteKey.hash(a))).isEqualTo(9);
    assertThat(map.size()).isEqualTo(2);
    assertThat(map.remove(a, ByteKey.hash(a))).isEqualTo(9);
    assertThat(map.remove(a, ByteKey.hash(a))).isEqualTo(KeySeqMap.ABSENT);
    assertThat(map.get(a, ByteKey.hash(a))).isEqualTo(KeySeqMap.ABSENT);
    assertThat(map.get(key("b"), ByteKey.hash(key("b")))).isEqualTo(8);
    assertThat(map.size()).isEqualTo(1);
  }

  /**
   * Against a HashMap, with hashes from a small set so that keys collide, probe past the end of the table and are
   * shifted back over holes; the map grows from 16 slots to 4,096 on the way.
   */
  @Test
  void answersAsAHashMapUnderCollisionsGrowthAndRemovals() {
    SplittableRandom random = new SplittableRandom(42);
    Map<String, Long> expected = new HashMap<>();
    for (int step = 0; step < 200_000; step++) {
      String name = "unit-" + random.nextInt(3_000);
      byte[] key = key(name);
      int hash = collidingHash(name);
      int action = random.nextInt(3);
      if (action == 0) {
        long seq = step;
        map.put(key, hash, seq);
        expected.put(name, seq);
      } else if (action == 1) {
        Long removed = expected.remove(name);
        assertThat(map.remove(key, hash)).isEqualTo(removed == null ? KeySeqMap.ABSENT : removed);
      } else {
        Long seq = expected.get(name);
        assertThat(map.get(key, hash)).isEqualTo(seq == null ? KeySeqMap.ABSENT : seq);
      }
    }
    assertThat(map.size()).isEqualTo(expected.size());
    Map<String, Long> listed = new HashMap<>();
    map.forEach((key, hash, seq) -> listed.put(new String(key, StandardCharsets.UTF_8), seq));
    assertThat(listed).isEqualTo(expected);
    for (int i = 0; i < 3_000; i++) {
      String name = "unit-" + i;
      Long seq = expected.get(name);
      assertThat(map.get(key(name), collidingHash(name))).isEqualTo(seq == null ? KeySeqMap.ABSENT : seq);
    }
  }

  @Test
  void clearEmptiesTheMapSmallOrGrown() {
    for (int entries : new int[] {3, 5_000}) {
      for (int i = 0; i < entries; i++) {
        map.put(key("u" + i), ByteKey.hash(key("u" + i)), i);
      }
      assertThat(map.size()).isEqualTo(entries);
      map.clear();
      assertThat(map.size()).isZero();
      assertThat(map.get(key("u1"), ByteKey.hash(key("u1")))).isEqualTo(KeySeqMap.ABSENT);
      map.forEach((key, hash, seq) -> {
        throw new AssertionError("an entry after clear: " + new String(key, StandardCharsets.UTF_8));
      });
      map.put(key("u1"), ByteKey.hash(key("u1")), 9);
      assertThat(map.get(key("u1"), ByteKey.hash(key("u1")))).isEqualTo(9);
      map.clear();
    }
  }

  /** 64 distinct hashes, several of them at the table's last slots. */
  private static int collidingHash(String name) {
    int h = ByteKey.hash(key(name)) & 63;
    return h < 8 ? -1 - h : h * 0x10001;
  }

  private static byte[] key(String name) {
    return name.getBytes(StandardCharsets.UTF_8);
  }
}
