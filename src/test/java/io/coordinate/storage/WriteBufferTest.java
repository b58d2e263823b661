package io.coordinate.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The write buffer: reads and scans see its writes merged over the store; commit applies, discard drops. */
class WriteBufferTest {

    private final InMemoryKeyValueStore base = new InMemoryKeyValueStore();
    private final WriteBuffer buffer = new WriteBuffer(base);

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String s(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    private static Map<String, String> scan(ReadableKeyValueStore store, String from, String to) {
        Map<String, String> out = new LinkedHashMap<>();
        try (KeyValueIterator it = store.range(b(from), b(to))) {
            while (it.hasNext()) {
                KeyValueIterator.Entry e = it.next();
                out.put(s(e.key()), s(e.value()));
            }
        }
        return out;
    }

    @Test
    void readsSeeBufferedWritesOverTheStore() {
        base.put(b("a"), b("1"));
        base.put(b("b"), b("2"));

        buffer.put(b("a"), b("10"));
        buffer.delete(b("b"));
        buffer.put(b("c"), b("3"));

        assertThat(s(buffer.get(b("a")))).isEqualTo("10");
        assertThat(buffer.get(b("b"))).as("tombstone hides the stored value").isNull();
        assertThat(s(buffer.get(b("c")))).isEqualTo("3");
        assertThat(buffer.get(b("d"))).isNull();
        assertThat(s(base.get(b("a"))))
                .as("the store is untouched before commit")
                .isEqualTo("1");
        assertThat(base.get(b("c"))).isNull();
    }

    @Test
    void anEmptyValueIsAValueNotATombstone() {
        buffer.put(b("index"), new byte[0]);

        assertThat(buffer.get(b("index"))).isEmpty();
        assertThat(scan(buffer, "a", "z")).containsExactly(Map.entry("index", ""));
        buffer.commit();
        assertThat(base.get(b("index"))).isEmpty();
    }

    @Test
    void laterWritesOfAKeyWin() {
        buffer.put(b("k"), b("1"));
        buffer.delete(b("k"));
        assertThat(buffer.get(b("k"))).isNull();
        buffer.put(b("k"), b("2"));
        assertThat(s(buffer.get(b("k")))).isEqualTo("2");
    }

    @Test
    void rangeMergesInKeyOrderAndHidesTombstones() {
        base.put(b("a"), b("1"));
        base.put(b("c"), b("3"));
        base.put(b("e"), b("5"));
        base.put(b("g"), b("7"));

        buffer.put(b("b"), b("2"));
        buffer.put(b("c"), b("30"));
        buffer.delete(b("e"));
        buffer.delete(b("f")); // a tombstone of a key the store does not have
        buffer.put(b("h"), b("8"));

        assertThat(scan(buffer, "a", "z"))
                .containsExactly(
                        Map.entry("a", "1"),
                        Map.entry("b", "2"),
                        Map.entry("c", "30"),
                        Map.entry("g", "7"),
                        Map.entry("h", "8"));
        assertThat(scan(buffer, "b", "g"))
                .as("from inclusive, to exclusive")
                .containsExactly(Map.entry("b", "2"), Map.entry("c", "30"));
        assertThat(scan(buffer, "e", "g")).isEmpty();
        assertThat(scan(buffer, "z", "a")).as("an empty range").isEmpty();
    }

    @Test
    void commitAppliesEveryWriteOnceAndEmptiesTheBuffer() {
        base.put(b("gone"), b("x"));
        RecordingStore counting = new RecordingStore(base, WriteBufferTest::s, true);
        WriteBuffer writes = new WriteBuffer(counting);
        writes.put(b("counter"), b("1"));
        writes.put(b("counter"), b("2"));
        writes.put(b("counter"), b("3"));
        writes.delete(b("gone"));
        assertThat(writes.isEmpty()).isFalse();

        writes.commit();

        assertThat(counting.writes).containsExactly("put counter", "delete gone");
        assertThat(s(base.get(b("counter")))).isEqualTo("3");
        assertThat(base.get(b("gone"))).isNull();
        assertThat(writes.isEmpty()).isTrue();
        writes.commit();
        assertThat(counting.writes).as("a second commit writes nothing").hasSize(2);
    }

    @Test
    void commitHandsEachKeysLastWriteOverOnceWhateverTheOrderWritten() {
        RecordingStore recording = new RecordingStore(base, WriteBufferTest::s, true);
        WriteBuffer writes = new WriteBuffer(recording);
        byte[] reused = b("c");
        writes.put(reused, b("3"));
        reused[0] = 'a'; // the caller's array, written again under another key
        writes.put(reused, b("1"));
        writes.delete(b("d"));
        assertThat(scan(writes, "a", "z")).containsExactly(Map.entry("a", "1"), Map.entry("c", "3"));
        writes.put(b("b"), b("2"));
        writes.put(b("c"), b("30"));

        assertThat(scan(writes, "a", "z"))
                .as("a key written after a scan is in the next one")
                .containsExactly(Map.entry("a", "1"), Map.entry("b", "2"), Map.entry("c", "30"));
        writes.commit();

        assertThat(recording.writes).containsExactlyInAnyOrder("put a", "put b", "put c", "delete d");
        assertThat(s(base.get(b("c")))).isEqualTo("30");
    }

    @Test
    void aCommandAsksTheStoreForAKeyOnceAndStillSeesItsOwnWritesFirst() {
        base.put(b("unit"), b("1"));
        RecordingStore counting = new RecordingStore(base, WriteBufferTest::s, true);
        WriteBuffer writes = new WriteBuffer(counting);

        assertThat(s(writes.get(b("unit")))).isEqualTo("1");
        assertThat(s(writes.get(b("unit")))).isEqualTo("1");
        assertThat(writes.get(b("none"))).isNull();
        assertThat(writes.get(b("none"))).isNull();
        writes.put(b("unit"), b("2"));
        writes.delete(b("none"));

        assertThat(s(writes.get(b("unit")))).isEqualTo("2");
        assertThat(writes.get(b("none"))).isNull();
        assertThat(counting.reads).containsExactly("unit", "none");
        writes.commit();
        assertThat(s(writes.get(b("unit"))))
                .as("a commit forgets what was read")
                .isEqualTo("2");
        assertThat(counting.reads).containsExactly("unit", "none", "unit");
    }

    @Test
    void discardLeavesTheStoreAsItWas() {
        base.put(b("a"), b("1"));
        buffer.put(b("a"), b("2"));
        buffer.put(b("b"), b("2"));
        buffer.delete(b("a"));

        buffer.discard();

        assertThat(buffer.isEmpty()).isTrue();
        assertThat(scan(base, "a", "z")).containsExactly(Map.entry("a", "1"));
        assertThat(scan(buffer, "a", "z")).containsExactly(Map.entry("a", "1"));
    }

    @Test
    void randomOperationsMatchAModelMap() {
        Random random = new Random(11);
        for (int round = 0; round < 50; round++) {
            InMemoryKeyValueStore store = new InMemoryKeyValueStore();
            NavigableMap<String, String> model = new TreeMap<>();
            for (int i = 0; i < 30; i++) {
                String key = key(random);
                store.put(b(key), b("base" + i));
                model.put(key, "base" + i);
            }
            WriteBuffer writes = new WriteBuffer(store);
            NavigableMap<String, String> expected = new TreeMap<>(model);
            for (int op = 0; op < 60; op++) {
                String key = key(random);
                if (random.nextInt(3) == 0) {
                    writes.delete(b(key));
                    expected.remove(key);
                } else {
                    writes.put(b(key), b("v" + op));
                    expected.put(key, "v" + op);
                }
                if (random.nextInt(4) == 0) { // a scan now and then, after runs of writes of their own
                    String from = key(random);
                    String to = key(random);
                    Map<String, String> want = from.compareTo(to) < 0 ? expected.subMap(from, to) : Map.of();
                    assertThat(scan(writes, from, to)).containsExactlyEntriesOf(new LinkedHashMap<>(want));
                }
                assertThat(s(writes.get(b(key)))).isEqualTo(expected.get(key));
            }
            if (random.nextBoolean()) {
                writes.commit();
                assertThat(scan(store, "", "~")).containsExactlyEntriesOf(new LinkedHashMap<>(expected));
            } else {
                writes.discard();
                assertThat(scan(store, "", "~")).containsExactlyEntriesOf(new LinkedHashMap<>(model));
            }
        }
    }

    /** Short lower-case ASCII keys (String order = byte order): many collisions between store and buffer. */
    private static String key(Random random) {
        char[] chars = new char[1 + random.nextInt(2)];
        for (int i = 0; i < chars.length; i++) {
            chars[i] = (char) ('a' + random.nextInt(6));
        }
        return new String(chars);
    }
}
