package io.coordinate.engine.state.codec;

import static io.coordinate.engine.state.codec.NamespaceKeys.dataNamespace;
import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.engine.state.codec.AnswerKeys.AnswerKey;
import io.coordinate.engine.state.codec.TimeIndexKeys.AttemptDeadlineBlockKey;
import io.coordinate.engine.state.codec.TimeIndexKeys.DelayedUnitKey;
import io.coordinate.engine.state.codec.TimeIndexKeys.PurgeKey;
import io.coordinate.engine.state.codec.TimeIndexKeys.ScheduleFireKey;
import io.coordinate.engine.state.model.ChildState;
import io.coordinate.engine.state.model.UnitRef;
import io.coordinate.engine.state.model.UnitStatus;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Keys as bytes written by an earlier version of the code, checked in under {@code src/test/resources/golden/}: a
 * sample key of every key family, with the store it lives in. Stored state is found by its keys, so today's code must
 * build exactly those bytes, parse each back into its parts and route it to the same store. A key layout or a
 * family's store never changes in place (that is a migration); a new {@link KeyFamily} adds its sample here and its
 * line to the fixture with {@code mvn test -Dtest=StoredKeysGoldenTest -Dgolden.write=true}, which appends the lines
 * missing from the file and never rewrites one.
 */
class StoredKeysGoldenTest {

    private static final String FIXTURE = "golden/keys-v1.txt";
    private static final HexFormat HEX = HexFormat.of();
    private static final String NS = "ns";
    private static final long TIME = 1_800_000_000_000L;
    /** A name with a zero byte and non-ASCII characters: the escaped path of {@link KeyWriter#string}. */
    private static final String ODD = "\u00fc\u0000n\u540d";

    private static final UnitRef PARENT = new UnitRef("jobs", "parent");
    private static final UnitRef CHILD = new UnitRef("etl", ODD);

    /** A key: how today's code builds it, the parts it holds, and how they are read back from its bytes. */
    private record Sample(Supplier<byte[]> build, List<Object> parts, Function<byte[], List<Object>> parse) {}

    /** A stored key: its bytes and the store it lives in. */
    private record Stored(String store, byte[] key) {}

    private static Sample sample(Supplier<byte[]> build, List<Object> parts, Function<byte[], List<Object>> parse) {
        return new Sample(build, parts, parse);
    }

    /** What follows {@code 10 [ns] tag} in a key, for KeyReader to read on. */
    private static KeyReader afterTag(byte[] key) {
        KeyReader reader = new KeyReader(key, 1);
        reader.string();
        reader.tag();
        return reader;
    }

    private static Map<String, Sample> samples() {
        Map<String, Sample> s = new LinkedHashMap<>();
        // --- top-level spaces ---
        s.put(
                "namespace",
                sample(() -> NamespaceKeys.namespace(NS), List.of(NS), k -> List.of(NamespaceKeys.namespaceName(k))));
        s.put(
                "namespace-odd",
                sample(() -> NamespaceKeys.namespace(ODD), List.of(ODD), k -> List.of(NamespaceKeys.namespaceName(k))));
        s.put(
                "sequence",
                sample(() -> AttemptKeys.sequence(NS), List.of(NS), k -> List.of(new KeyReader(k, 1).string())));
        s.put(
                "delayed-unit",
                sample(
                        () -> TimeIndexKeys.delayedUnit(TIME, NS, "spec", ODD),
                        List.of(new DelayedUnitKey(TIME, NS, "spec", ODD)),
                        k -> List.of(TimeIndexKeys.parseDelayedUnit(k))));
        s.put(
                "attempt-deadline-block",
                sample(
                        () -> TimeIndexKeys.attemptDeadlineBlock(-5L, NS, 3),
                        List.of(new AttemptDeadlineBlockKey(-5L, NS, 3)),
                        k -> List.of(TimeIndexKeys.parseAttemptDeadlineBlock(k))));
        s.put(
                "purge",
                sample(
                        () -> TimeIndexKeys.purge(1_900_000_000_000L, NS, "spec", "unit"),
                        List.of(new PurgeKey(1_900_000_000_000L, NS, "spec", "unit")),
                        k -> List.of(TimeIndexKeys.parsePurge(k))));
        s.put("state-version", sample(KeySpace::stateVersion, List.of(), k -> List.of()));
        s.put("index-version", sample(KeySpace::indexVersion, List.of(), k -> List.of()));
        s.put("index-layout", sample(KeySpace::indexLayout, List.of(), k -> List.of()));
        s.put(
                "answer-expiry",
                sample(
                        () -> AnswerKeys.answerExpiry(TIME, NS, "w1", "finish_attempt", "r-1"),
                        List.of(new AnswerKey(TIME, NS, "w1", "finish_attempt", "r-1")),
                        k -> List.of(AnswerKeys.parseAnswerExpiry(k))));
        // --- one namespace's data ---
        s.put(
                "spec",
                sample(
                        () -> SpecKeys.spec(NS, "spec"),
                        List.of(NS, "spec"),
                        k -> List.of(dataNamespace(k), KeySpace.stringAfter(k, SpecKeys.allSpecs(NS)))));
        s.put(
                "count",
                sample(
                        () -> UnitKeys.count(NS, "spec", UnitStatus.PENDING),
                        List.of(NS, "spec", UnitStatus.PENDING),
                        k -> List.of(dataNamespace(k), afterTag(k).string(), UnitKeys.countStatus(k))));
        s.put(
                "unit",
                sample(
                        () -> UnitKeys.unit(NS, "spec", "plain"),
                        List.of(NS, "spec", "plain"),
                        k -> List.of(
                                dataNamespace(k),
                                afterTag(k).string(),
                                KeySpace.stringAfter(k, UnitKeys.units(NS, "spec")))));
        s.put(
                "unit-odd",
                sample(
                        () -> UnitKeys.unit(ODD, ODD, ODD),
                        List.of(ODD, ODD, ODD),
                        k -> List.of(
                                dataNamespace(k),
                                afterTag(k).string(),
                                KeySpace.stringAfter(k, UnitKeys.units(ODD, ODD)))));
        s.put(
                "available",
                sample(() -> UnitKeys.available(NS, "spec", -2.5, "unit"), List.of(NS, "spec", -2.5, "unit"), k -> {
                    KeyReader reader = afterTag(k);
                    return List.of(
                            dataNamespace(k),
                            reader.string(),
                            reader.float64Descending(),
                            UnitKeys.availableUnitName(k, NS, "spec"));
                }));
        s.put(
                "available-since",
                sample(
                        () -> UnitKeys.availableSince(NS, "spec", TIME + 456),
                        List.of(NS, "spec", TIME + 456),
                        k -> List.of(
                                dataNamespace(k), afterTag(k).string(), UnitKeys.availableSinceTime(k, NS, "spec"))));
        s.put(
                "available-since-unknown",
                sample(
                        () -> UnitKeys.availableSince(NS, "spec", null),
                        List.of(NS, "spec", Long.MIN_VALUE),
                        k -> List.of(
                                dataNamespace(k), afterTag(k).string(), UnitKeys.availableSinceTime(k, NS, "spec"))));
        s.put(
                "unit-attempt",
                sample(() -> AttemptKeys.unitAttempt(NS, "spec", "unit", 65), List.of(NS, "spec", "unit", 65L), k -> {
                    KeyReader reader = afterTag(k);
                    return List.of(dataNamespace(k), reader.string(), reader.string(), KeySpace.trailingSeq(k));
                }));
        s.put(
                "attempt",
                sample(
                        () -> AttemptKeys.attempt(NS, 99),
                        List.of(NS, 99L),
                        k -> List.of(dataNamespace(k), KeySpace.trailingSeq(k))));
        s.put(
                "attempt-units-block",
                sample(
                        () -> AttemptKeys.attemptUnitsBlock(NS, 2),
                        List.of(NS, 2L),
                        k -> List.of(dataNamespace(k), KeySpace.trailingSeq(k))));
        // Built from the family's prefix, which outlives the builder of single entries once they are only read back.
        s.put(
                "started-units-block",
                sample(
                        () -> new KeyWriter(AttemptKeys.startedUnitsBlocks(NS))
                                .int64(2)
                                .toBytes(),
                        List.of(NS, 2L),
                        k -> List.of(dataNamespace(k), KeySpace.trailingSeq(k))));
        s.put(
                "answer",
                sample(
                        () -> AnswerKeys.answer(NS, "w1", "request_attempts", "r-2"),
                        List.of(new AnswerKey(7L, NS, "w1", "request_attempts", "r-2")),
                        k -> List.of(AnswerKeys.parseAnswer(k, 7L))));
        s.put(
                "worker",
                sample(
                        () -> WorkerKeys.worker(NS, "w1"),
                        List.of(NS, "w1"),
                        k -> List.of(dataNamespace(k), KeySpace.stringAfter(k, WorkerKeys.allWorkers(NS)))));
        s.put(
                "worker-child",
                sample(
                        () -> WorkerKeys.workerChild(NS, "w1", "w2"),
                        List.of(NS, "w1", "w2"),
                        k -> List.of(
                                dataNamespace(k),
                                afterTag(k).string(),
                                KeySpace.stringAfter(k, WorkerKeys.workerChildren(NS, "w1")))));
        s.put(
                "worker-active-block",
                sample(
                        () -> AttemptKeys.workerActiveBlock(NS, "w1", 4),
                        List.of(NS, "w1", 4L),
                        k -> List.of(dataNamespace(k), afterTag(k).string(), KeySpace.trailingSeq(k))));
        s.put(
                "worker-attempt-block",
                sample(
                        () -> AttemptKeys.workerAttemptBlock(NS, "w1", 4),
                        List.of(NS, "w1", 4L),
                        k -> List.of(dataNamespace(k), afterTag(k).string(), KeySpace.trailingSeq(k))));
        for (ChildState state : ChildState.values()) {
            s.put(
                    "child-" + state.name().toLowerCase(),
                    sample(
                            () -> FamilyKeys.child(NS, PARENT, state, 42, CHILD),
                            List.of(NS, CHILD),
                            k -> List.of(
                                    dataNamespace(k),
                                    FamilyKeys.childRef(k, FamilyKeys.children(NS, PARENT, state), state))));
        }
        s.put(
                "heir",
                sample(
                        () -> FamilyKeys.heir(NS, PARENT, CHILD),
                        List.of(NS, CHILD),
                        k -> List.of(dataNamespace(k), FamilyKeys.heirRef(k, FamilyKeys.heirs(NS, PARENT)))));
        s.put(
                "family-count-open",
                sample(
                        () -> FamilyKeys.familyCount(NS, PARENT, ChildState.OPEN.code()),
                        List.of(NS, PARENT, ChildState.OPEN.code()),
                        StoredKeysGoldenTest::familyCountParts));
        s.put(
                "family-count-heirs",
                sample(
                        () -> FamilyKeys.familyCount(NS, PARENT, FamilyKeys.HEIRS_KIND),
                        List.of(NS, PARENT, FamilyKeys.HEIRS_KIND),
                        StoredKeysGoldenTest::familyCountParts));
        s.put(
                "retry-slot",
                sample(
                        () -> SpecKeys.retrySlot(NS, "spec"),
                        List.of(NS, "spec"),
                        k -> List.of(dataNamespace(k), afterTag(k).string())));
        s.put(
                "schedule",
                sample(
                        () -> SpecKeys.schedule(NS, ODD),
                        List.of(NS, ODD),
                        k -> List.of(dataNamespace(k), SpecKeys.scheduleSpec(k))));
        s.put(
                "schedule-fire",
                sample(
                        () -> TimeIndexKeys.scheduleFire(TIME, ODD, "spec"),
                        List.of(new ScheduleFireKey(TIME, ODD, "spec")),
                        k -> List.of(TimeIndexKeys.parseScheduleFire(k))));
        s.put(
                "rate-limit-tokens",
                sample(
                        () -> SpecKeys.rateLimitTokens(NS, "spec"),
                        List.of(NS, "spec"),
                        k -> List.of(dataNamespace(k), afterTag(k).string())));
        s.put(
                "group-rate-limit-tokens",
                sample(() -> SpecKeys.groupRateLimitTokens(NS, "spec", ODD), List.of(NS, "spec", ODD), k -> {
                    KeyReader reader = afterTag(k);
                    return List.of(dataNamespace(k), reader.string(), reader.string());
                }));
        s.put(
                "group-available",
                sample(
                        () -> UnitKeys.groupAvailable(NS, "spec", "group", 1.5, "unit"),
                        List.of(NS, "spec", "group", 1.5, "unit"),
                        k -> {
                            KeyReader reader = afterTag(k);
                            return List.of(
                                    dataNamespace(k),
                                    reader.string(),
                                    reader.string(),
                                    reader.float64Descending(),
                                    UnitKeys.groupAvailableUnitName(
                                            k, UnitKeys.groupAvailableAt(NS, "spec", "group", 1.5)));
                        }));
        s.put(
                "group-ready",
                sample(
                        () -> UnitKeys.readyGroup(NS, "spec", -3, "group"),
                        List.of(NS, "spec", -3.0, "group"),
                        k -> List.of(
                                dataNamespace(k),
                                afterTag(k).string(),
                                UnitKeys.readyGroupPriority(k, UnitKeys.readyGroups(NS, "spec")),
                                UnitKeys.readyGroupName(k, UnitKeys.readyGroups(NS, "spec")))));
        s.put(
                "group-pending",
                sample(() -> UnitKeys.groupPending(NS, "spec", "group"), List.of(NS, "spec", "group"), k -> {
                    KeyReader reader = afterTag(k);
                    return List.of(dataNamespace(k), reader.string(), reader.string());
                }));
        s.put(
                "group-cursor",
                sample(
                        () -> UnitKeys.groupCursor(NS, "spec"),
                        List.of(NS, "spec"),
                        k -> List.of(dataNamespace(k), afterTag(k).string())));
        return s;
    }

    /** A family count's parts, which the code never parses back. */
    private static List<Object> familyCountParts(byte[] key) {
        KeyReader reader = afterTag(key);
        return List.of(dataNamespace(key), new UnitRef(reader.string(), reader.string()), reader.tag());
    }

    @Test
    void todaysCodeBuildsTheSameKeys() throws IOException {
        if (Boolean.getBoolean("golden.write")) {
            appendMissing(); // into the source tree: the copy on the classpath is the build's, compared on the next run
            return;
        }
        Map<String, Stored> fixture = fixture();
        Map<String, Sample> samples = samples();
        assertThat(fixture.keySet()).containsExactlyInAnyOrderElementsOf(samples.keySet());
        samples.forEach(
                (name, sample) -> assertThat(HEX.formatHex(sample.build().get()))
                        .as("%s: a key layout changed; see this class's comment", name)
                        .isEqualTo(HEX.formatHex(fixture.get(name).key())));
    }

    @Test
    void everyStoredKeyParsesBackIntoItsParts() throws IOException {
        Map<String, Sample> samples = samples();
        fixture()
                .forEach((name, stored) -> assertThat(samples.get(name).parse().apply(stored.key()))
                        .as(name)
                        .isEqualTo(samples.get(name).parts()));
    }

    @Test
    void everyStoredKeyIsRoutedToItsStore() throws IOException {
        fixture().forEach((name, stored) -> {
            KeyFamily family = KeyFamily.of(stored.key());
            assertThat(family).as(name).isNotNull();
            assertThat(family.isIndex() ? "indexes" : "records")
                    .as("the family of %s, %s", name, family)
                    .isEqualTo(stored.store());
            assertThat(KeyFamily.isIndex(stored.key())).as(name).isEqualTo(family.isIndex());
        });
    }

    @Test
    void everyFamilyHasAStoredSample() throws IOException {
        Set<KeyFamily> sampled = new HashSet<>(); // with null for a key of no family
        fixture().values().forEach(stored -> sampled.add(KeyFamily.of(stored.key())));
        assertThat(sampled).as("families with a key in %s", FIXTURE).isEqualTo(EnumSet.allOf(KeyFamily.class));
    }

    private static Map<String, Stored> fixture() throws IOException {
        try (InputStream in = StoredKeysGoldenTest.class.getClassLoader().getResourceAsStream(FIXTURE)) {
            assertThat(in).as(FIXTURE).isNotNull();
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    private static Map<String, Stored> parse(String text) {
        Map<String, Stored> keys = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (!line.isBlank() && !line.startsWith("#")) {
                String[] parts = line.strip().split(" ", 3);
                keys.put(parts[0], new Stored(parts[1], HEX.parseHex(parts[2])));
            }
        }
        return keys;
    }

    /** Appends the samples the fixture lacks, built by today's code, to the file in the source tree. */
    private static void appendMissing() throws IOException {
        Path file = Path.of("src/test/resources").resolve(FIXTURE);
        String text = Files.readString(file);
        Map<String, Stored> known = parse(text);
        StringBuilder appended = new StringBuilder(text);
        samples().forEach((name, sample) -> {
            if (!known.containsKey(name)) {
                byte[] key = sample.build().get();
                appended.append(name)
                        .append(KeyFamily.isIndex(key) ? " indexes " : " records ")
                        .append(HEX.formatHex(key))
                        .append('\n');
            }
        });
        Files.writeString(file, appended);
    }
}
