package io.coordinate.engine.state.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.engine.state.model.ChildState;
import io.coordinate.engine.state.model.UnitRef;
import io.coordinate.engine.state.model.UnitStatus;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Property tests of the key codec: for random values (with the awkward ones always included) the unsigned
 * byte order of the encoded keys equals the logical order of the values, and every part decodes back.
 */
class KeysTest {

    private static final int SAMPLES = 400;

    /** Pieces random strings are made of: NUL, bytes that border the escape and terminator, BMP, astral. */
    private static final String[] PIECES = {
        "",
        "\u0000",
        "\u0001",
        "\u0002",
        "a",
        "b",
        "ab",
        "\u007f",
        "\u0080",
        "\u00ff",
        "\u0100",
        "\u07ff",
        "\u0800",
        "\ud7ff",
        "\ue000",
        "\uffee",
        "\uffff",
        "\ud83d\ude00",
        "\ud800\udc00",
        "\udbff\udfff",
        "é",
        "名"
    };

    private final Random random = new Random(7);

    // --- generators ---

    private String randomString() {
        StringBuilder s = new StringBuilder();
        int parts = random.nextInt(5);
        for (int i = 0; i < parts; i++) {
            s.append(PIECES[random.nextInt(PIECES.length)]);
        }
        return s.toString();
    }

    private List<String> strings() {
        List<String> values = new ArrayList<>(List.of(
                "",
                "\u0000",
                "\u0000\u0000",
                "a",
                "a\u0000",
                "a\u0000b",
                "a\u0001",
                "ab",
                "abc",
                "b",
                "\uffff",
                "\ud83d\ude00",
                "\ue000"));
        while (values.size() < SAMPLES) {
            values.add(randomString());
        }
        return values;
    }

    private List<Long> longs() {
        List<Long> values = new ArrayList<>(List.of(
                Long.MIN_VALUE,
                Long.MIN_VALUE + 1,
                -256L,
                -255L,
                -1L,
                0L,
                1L,
                255L,
                256L,
                Long.MAX_VALUE - 1,
                Long.MAX_VALUE));
        while (values.size() < SAMPLES) {
            values.add(random.nextBoolean() ? random.nextLong() : (long) random.nextInt(2001) - 1000);
        }
        return values;
    }

    private List<Double> doubles() {
        List<Double> values = new ArrayList<>(List.of(
                Double.NEGATIVE_INFINITY,
                -Double.MAX_VALUE,
                -1e300,
                -10.0,
                -1.0,
                -0.5,
                -Double.MIN_NORMAL,
                -Double.MIN_VALUE,
                -0.0,
                0.0,
                Double.MIN_VALUE,
                Double.MIN_NORMAL,
                0.5,
                1.0,
                10.0,
                1e300,
                Double.MAX_VALUE,
                Double.POSITIVE_INFINITY));
        while (values.size() < SAMPLES) {
            double d = switch (random.nextInt(3)) {
                case 0 -> random.nextGaussian() * 100;
                case 1 -> Double.longBitsToDouble(random.nextLong());
                default -> random.nextInt(41) - 20;
            };
            if (!Double.isNaN(d)) {
                values.add(d);
            }
        }
        return values;
    }

    // --- logical orders ---

    /** Strings compare by code point, which is the order of their UTF-8 bytes. */
    private static int compareCodePoints(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }

    /** Numeric order; -0.0 and 0.0 are one key. */
    private static int compareDoubles(double a, double b) {
        return a == 0.0 && b == 0.0 ? 0 : Double.compare(a, b);
    }

    private static <T> void assertOrderPreserved(List<T> values, Comparator<T> logical, Function<T, byte[]> encode) {
        List<byte[]> keys = values.stream().map(encode).toList();
        for (int i = 0; i < values.size(); i++) {
            for (int j = 0; j < values.size(); j++) {
                int expected = Integer.signum(logical.compare(values.get(i), values.get(j)));
                int actual = Integer.signum(Arrays.compareUnsigned(keys.get(i), keys.get(j)));
                assertThat(actual)
                        .as("order of %s vs %s", show(values.get(i)), show(values.get(j)))
                        .isEqualTo(expected);
            }
        }
    }

    private static String show(Object value) {
        if (value instanceof String s) {
            return s.codePoints()
                    .mapToObj(c -> String.format("U+%04X", c))
                    .toList()
                    .toString();
        }
        return String.valueOf(value);
    }

    // --- tests ---

    @Test
    void stringOrderIsCodePointOrderAndRoundTrips() {
        List<String> values = strings();
        assertOrderPreserved(
                values,
                KeysTest::compareCodePoints,
                s -> new KeyWriter().string(s).toBytes());
        for (String s : values) {
            byte[] key = new KeyWriter().string(s).string("tail").toBytes();
            KeyReader reader = new KeyReader(key, 0);
            assertThat(reader.string()).isEqualTo(s);
            assertThat(reader.string()).isEqualTo("tail");
        }
    }

    @Test
    void compositeStringKeysOrderByFirstPartThenSecond() {
        List<String[]> pairs = new ArrayList<>();
        List<String> values = strings().subList(0, 120);
        for (String a : values.subList(0, 40)) {
            pairs.add(new String[] {a, values.get(random.nextInt(values.size()))});
            pairs.add(new String[] {a + "\u0000", values.get(random.nextInt(values.size()))});
        }
        Comparator<String[]> logical = (x, y) -> {
            int first = compareCodePoints(x[0], y[0]);
            return first != 0 ? first : compareCodePoints(x[1], y[1]);
        };
        assertOrderPreserved(
                pairs, logical, p -> new KeyWriter().string(p[0]).string(p[1]).toBytes());
    }

    @Test
    void longOrderRoundTripsAscendingAndDescending() {
        List<Long> values = longs();
        assertOrderPreserved(
                values, Long::compare, v -> new KeyWriter().int64(v).toBytes());
        assertOrderPreserved(
                values,
                Comparator.<Long>naturalOrder().reversed(),
                v -> new KeyWriter().int64Descending(v).toBytes());
        for (long v : values) {
            byte[] key = new KeyWriter().int64(v).int64Descending(v).toBytes();
            KeyReader reader = new KeyReader(key, 0);
            assertThat(reader.int64()).isEqualTo(v);
            assertThat(reader.int64Descending()).isEqualTo(v);
        }
    }

    @Test
    void doubleOrderRoundTripsAscendingAndDescending() {
        List<Double> values = doubles();
        assertOrderPreserved(
                values,
                KeysTest::compareDoubles,
                v -> new KeyWriter().float64(v).toBytes());
        assertOrderPreserved(
                values,
                (a, b) -> compareDoubles(b, a),
                v -> new KeyWriter().float64Descending(v).toBytes());
        for (double v : values) {
            byte[] key = new KeyWriter().float64(v).float64Descending(v).toBytes();
            KeyReader reader = new KeyReader(key, 0);
            double expected = v == 0.0 ? 0.0 : v; // -0.0 is stored as 0.0
            assertThat(reader.float64()).isEqualTo(expected);
            assertThat(reader.float64Descending()).isEqualTo(expected);
        }
        assertThat(new KeyWriter().float64(-0.0).toBytes())
                .isEqualTo(new KeyWriter().float64(0.0).toBytes());
        assertThat(Arrays.compareUnsigned(
                        new KeyWriter().float64(Double.NaN).toBytes(),
                        new KeyWriter().float64(Double.POSITIVE_INFINITY).toBytes()))
                .as("NaN after +inf")
                .isPositive();
        assertThat(new KeyReader(new KeyWriter().float64(Double.NaN).toBytes(), 0).float64())
                .isNaN();
    }

    @Test
    void availableByTimeOrdersByTimeWithUnknownTimesFirst() {
        List<Long> times = new ArrayList<>(longs());
        times.add(null);
        Comparator<Long> logical = Comparator.comparingLong(time -> time == null ? Long.MIN_VALUE : time);
        assertOrderPreserved(times, logical, time -> UnitKeys.availableSince("ns", "spec", time));
        byte[] known = UnitKeys.availableSinceKnown("ns", "spec");
        for (Long time : times) {
            byte[] key = UnitKeys.availableSince("ns", "spec", time);
            assertThat(key).startsWith(UnitKeys.availableSinceUnits("ns", "spec"));
            boolean unknown = time == null || time == Long.MIN_VALUE;
            assertThat(Arrays.compareUnsigned(key, known) >= 0)
                    .as("%s at or past the known times' start", time)
                    .isEqualTo(!unknown);
            if (!unknown) {
                assertThat(UnitKeys.availableSinceTime(key, "ns", "spec")).isEqualTo(time);
            }
        }
    }

    @Test
    void availableIndexOrdersByPriorityDescendingThenName() {
        List<Object[]> entries = new ArrayList<>();
        for (double priority : doubles().subList(0, 60)) {
            for (String name : strings().subList(0, 8)) {
                entries.add(new Object[] {priority, name});
            }
        }
        Comparator<Object[]> logical = (x, y) -> {
            int byPriority = compareDoubles((Double) y[0], (Double) x[0]);
            return byPriority != 0 ? byPriority : compareCodePoints((String) x[1], (String) y[1]);
        };
        assertOrderPreserved(entries, logical, e -> UnitKeys.available("ns", "spec", (Double) e[0], (String) e[1]));
        for (Object[] e : entries) {
            byte[] key = UnitKeys.available("ns", "spec", (Double) e[0], (String) e[1]);
            assertThat(UnitKeys.availableUnitName(key, "ns", "spec")).isEqualTo(e[1]);
            assertThat(key).startsWith(UnitKeys.availableUnits("ns", "spec"));
        }
    }

    @Test
    void timeIndexKeysOrderByTimeAndParseBack() {
        List<Long> times = longs().subList(0, 80);
        assertOrderPreserved(times, Long::compare, t -> TimeIndexKeys.delayedUnit(t, "ns", "spec", "unit"));
        assertOrderPreserved(times, Long::compare, t -> TimeIndexKeys.attemptDeadlineBlock(t, "ns", 1));
        assertOrderPreserved(times, Long::compare, t -> TimeIndexKeys.purge(t, "ns", "spec", "unit"));
        for (long t : times) {
            String ns = randomString();
            String spec = randomString();
            String unit = randomString();
            assertThat(TimeIndexKeys.parseDelayedUnit(TimeIndexKeys.delayedUnit(t, ns, spec, unit)))
                    .isEqualTo(new TimeIndexKeys.DelayedUnitKey(t, ns, spec, unit));
            long block = random.nextLong();
            assertThat(TimeIndexKeys.parseAttemptDeadlineBlock(TimeIndexKeys.attemptDeadlineBlock(t, ns, block)))
                    .isEqualTo(new TimeIndexKeys.AttemptDeadlineBlockKey(t, ns, block));
            assertThat(TimeIndexKeys.parsePurge(TimeIndexKeys.purge(t, ns, spec, unit)))
                    .isEqualTo(new TimeIndexKeys.PurgeKey(t, ns, spec, unit));
            assertThat(Arrays.compareUnsigned(TimeIndexKeys.purge(t, ns, spec, unit), TimeIndexKeys.purgesBefore(t)))
                    .isPositive();
            byte[] due = TimeIndexKeys.delayedUnit(t, ns, spec, unit);
            if (t < Long.MAX_VALUE) {
                assertThat(Arrays.compareUnsigned(due, TimeIndexKeys.delayedUnitsBefore(t + 1)))
                        .isNegative();
            }
            assertThat(Arrays.compareUnsigned(due, TimeIndexKeys.delayedUnitsBefore(t)))
                    .isPositive();
            assertThat(Arrays.compareUnsigned(
                            TimeIndexKeys.attemptDeadlineBlock(t, ns, block), TimeIndexKeys.attemptDeadlinesBefore(t)))
                    .isPositive();
        }
    }

    @Test
    void partsParseBackFromTheirKeys() {
        for (String name : strings().subList(0, 100)) {
            assertThat(NamespaceKeys.namespaceName(NamespaceKeys.namespace(name)))
                    .isEqualTo(name);
            assertThat(KeySpace.stringAfter(
                            WorkerKeys.workerChild("ns", "parent", name), WorkerKeys.workerChildren("ns", "parent")))
                    .isEqualTo(name);
        }
        for (long seq : longs()) {
            assertThat(KeySpace.trailingSeq(AttemptKeys.attempt("ns", seq))).isEqualTo(seq);
            assertThat(KeySpace.trailingSeq(AttemptKeys.unitAttempt("ns", "spec", "unit", seq)))
                    .isEqualTo(seq);
            assertThat(KeySpace.trailingSeq(AttemptKeys.workerActiveBlock("ns", "w", seq)))
                    .isEqualTo(seq);
            assertThat(KeySpace.trailingSeq(AttemptKeys.workerAttemptBlock("ns", "w", seq)))
                    .isEqualTo(seq);
        }
        for (UnitStatus status : UnitStatus.values()) {
            assertThat(UnitKeys.countStatus(UnitKeys.count("ns", "spec", status)))
                    .isEqualTo(status);
        }
    }

    @Test
    void familyEntriesParseBackAndStayUnderTheirList() {
        List<String> names = strings().subList(0, 60);
        UnitRef parent = new UnitRef("spec", "parent");
        for (String spec : names) {
            for (String name : names.subList(0, 10)) {
                UnitRef child = new UnitRef(spec, name);
                for (ChildState state : ChildState.values()) {
                    byte[] list = FamilyKeys.children("ns", parent, state);
                    byte[] key = FamilyKeys.child("ns", parent, state, -7, child);
                    assertThat(FamilyKeys.childRef(key, list, state)).isEqualTo(child);
                    assertThat(Arrays.compareUnsigned(key, list) >= 0
                                    && Arrays.compareUnsigned(key, KeySpace.prefixEnd(list)) < 0)
                            .isTrue();
                }
                byte[] parked = FamilyKeys.childrenParkedUnder("ns", parent, 5);
                byte[] underFive = FamilyKeys.child("ns", parent, ChildState.PARKED, 5, child);
                byte[] underSix = FamilyKeys.child("ns", parent, ChildState.PARKED, 6, child);
                assertThat(Arrays.compareUnsigned(underFive, parked) >= 0
                                && Arrays.compareUnsigned(underFive, KeySpace.prefixEnd(parked)) < 0)
                        .isTrue();
                assertThat(Arrays.compareUnsigned(underSix, KeySpace.prefixEnd(parked)))
                        .isGreaterThanOrEqualTo(0);
                byte[] heirs = FamilyKeys.heirs("ns", parent);
                assertThat(FamilyKeys.heirRef(FamilyKeys.heir("ns", parent, child), heirs))
                        .isEqualTo(child);
            }
        }
        // a unit's lists never include those of a unit whose name extends its own
        byte[] list = FamilyKeys.children("ns", new UnitRef("s", "p"), ChildState.OPEN);
        byte[] other = FamilyKeys.child("ns", new UnitRef("s", "p\u0000"), ChildState.OPEN, 0, new UnitRef("s", "c"));
        assertThat(Arrays.compareUnsigned(other, KeySpace.prefixEnd(list)) >= 0
                        || Arrays.compareUnsigned(other, list) < 0)
                .isTrue();
    }

    @Test
    void prefixesCoverTheirKeysAndNothingElse() {
        List<String> names = strings().subList(0, 150);
        for (String a : names) {
            byte[] prefix = NamespaceKeys.namespaceData(a);
            byte[] end = KeySpace.prefixEnd(prefix);
            for (String b : names) {
                byte[] key = UnitKeys.unit(b, "spec", "unit");
                boolean inside = Arrays.compareUnsigned(key, prefix) >= 0 && Arrays.compareUnsigned(key, end) < 0;
                assertThat(inside)
                        .as("unit key of namespace %s under namespace %s", show(b), show(a))
                        .isEqualTo(a.equals(b));
            }
            // a spec's units never include the units of a spec whose name extends it
            byte[] units = UnitKeys.units("ns", a);
            byte[] longer = UnitKeys.unit("ns", a + "x", "unit");
            assertThat(Arrays.compareUnsigned(longer, KeySpace.prefixEnd(units)) >= 0
                            || Arrays.compareUnsigned(longer, units) < 0)
                    .isTrue();
        }
        assertThat(KeySpace.prefixEnd(new byte[] {1, (byte) 0xFF})).isEqualTo(new byte[] {2});
        assertThat(KeySpace.prefixEnd(new byte[] {1, 2})).isEqualTo(new byte[] {1, 3});
    }

    @Test
    void keysOfOtherNamespacesAndSpecsInTurnAreThoseBuiltFromScratch() {
        // keys built in turn for other namespaces and specs: each from its own names, nothing of the key before
        String[][] names = {
            {"ns", "spec"},
            {"ns", "spec2"},
            {"ns2", "spec"},
            {"ns", "spec"},
            {"n", "sspec"},
            {"ns\u0000", "spec"},
            {"ns", "\u00e9t\u00e9"},
            {"ns", "spec"}
        };
        for (String[] n : names) {
            byte[] namespace =
                    new KeyWriter().tag(KeySpace.NAMESPACE_DATA).string(n[0]).toBytes();
            assertThat(UnitKeys.unit(n[0], n[1], "u1"))
                    .isEqualTo(new KeyWriter(namespace)
                            .tag(KeyFamily.UNIT.tag())
                            .string(n[1])
                            .string("u1")
                            .toBytes());
            assertThat(UnitKeys.available(n[0], n[1], 2.5, "u1"))
                    .isEqualTo(new KeyWriter(namespace)
                            .tag(KeyFamily.AVAILABLE.tag())
                            .string(n[1])
                            .float64Descending(2.5)
                            .string("u1")
                            .toBytes());
            assertThat(UnitKeys.availableUnitName(UnitKeys.available(n[0], n[1], 2.5, "u1"), n[0], n[1]))
                    .isEqualTo("u1");
        }
    }
}
