package io.coordinate.engine.state.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.engine.state.model.ChildState;
import io.coordinate.engine.state.model.UnitRef;
import io.coordinate.engine.state.model.UnitStatus;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Keys as bytes written by an earlier version of the code, checked in under {@code src/test/resources/golden/}: a
 * sample key of every key family. Stored state is found by its keys, so today's code must build exactly those bytes
 * and parse each back into its parts. A key layout never changes in place (that is a migration); a new family adds
 * its sample here and its line to the fixture with {@code mvn test -Dtest=StoredKeysGoldenTest -Dgolden.write=true},
 * which appends the lines missing from the file and never rewrites one.
 */
class StoredKeysGoldenTest {

  private static final String FIXTURE = "golden/keys-v1.txt";
  private static final HexFormat HEX = HexFormat.of();
  private static final String NS = "ns";
  /** A name with a zero byte and non-ASCII characters: the escaped path of {@link KeyWriter#string}. */
  private static final String ODD = "\u00fc\u0000n\u540d";
  private static final UnitRef PARENT = new UnitRef("jobs", "parent");
  private static final UnitRef CHILD = new UnitRef("etl", ODD);

  /** A key: how today's code builds it, the parts it holds, and how they are read back from its bytes. */
  private record Sample(Supplier<byte[]> build, List<Object> parts, Function<byte[], List<Object>> parse) {}

  private static Sample sample(Supplier<byte[]> build, List<Object> parts, Function<byte[], List<Object>> parse) {
    return new Sample(build, parts, parse);
  }

  /** The string after a {@code 10 [ns] tag} prefix, and the rest of the key as KeyReader reads it. */
  private static KeyReader afterTag(byte[] key) {
    KeyReader reader = new KeyReader(key, 1);
    reader.string();
    reader.tag();
    return reader;
  }

  private static Map<String, Sample> samples() {
    Map<String, Sample> s = new LinkedHashMap<>();
    // --- top-level spaces ---
    s.put("namespace", sample(() -> Keys.namespace(NS), List.of(NS), k -> List.of(Keys.namespaceName(k))));
    s.put("namespace-odd", sample(() -> Keys.namespace(ODD), List.of(ODD), k -> List.of(Keys.namespaceName(k))));
    s.put("sequence", sample(() -> Keys.sequence(NS), List.of(NS), k -> List.of(new KeyReader(k, 1).string())));
    s.put("delayed-unit", sample(() -> Keys.delayedUnit(1_800_000_000_000L, NS, "spec", ODD),
        List.of(new Keys.DelayedUnitKey(1_800_000_000_000L, NS, "spec", ODD)),
        k -> List.of(Keys.parseDelayedUnit(k))));
    s.put("attempt-deadline-block", sample(() -> Keys.attemptDeadlineBlock(-5L, NS, 3),
        List.of(new Keys.AttemptDeadlineBlockKey(-5L, NS, 3)), k -> List.of(Keys.parseAttemptDeadlineBlock(k))));
    s.put("purge", sample(() -> Keys.purge(1_900_000_000_000L, NS, "spec", "unit"),
        List.of(new Keys.PurgeKey(1_900_000_000_000L, NS, "spec", "unit")), k -> List.of(Keys.parsePurge(k))));
    s.put("state-version", sample(Keys::stateVersion, List.of(), k -> List.of()));
    s.put("index-version", sample(Keys::indexVersion, List.of(), k -> List.of()));
    s.put("index-layout", sample(Keys::indexLayout, List.of(), k -> List.of()));
    s.put("answer-expiry", sample(() -> Keys.answerExpiry(1_800_000_000_000L, NS, "w1", "finish_attempt", "r-1"),
        List.of(new Keys.AnswerKey(1_800_000_000_000L, NS, "w1", "finish_attempt", "r-1")),
        k -> List.of(Keys.parseAnswerExpiry(k))));
    // --- one namespace's data ---
    s.put("spec", sample(() -> Keys.spec(NS, "spec"), List.of(NS, "spec"),
        k -> List.of(Keys.dataNamespace(k), Keys.stringAfter(k, Keys.allSpecs(NS)))));
    s.put("count", sample(() -> Keys.count(NS, "spec", UnitStatus.PENDING), List.of(NS, "spec", UnitStatus.PENDING),
        k -> List.of(Keys.dataNamespace(k), afterTag(k).string(), Keys.countStatus(k))));
    s.put("unit", sample(() -> Keys.unit(NS, "spec", "plain"), List.of(NS, "spec", "plain"),
        k -> List.of(Keys.dataNamespace(k), afterTag(k).string(), Keys.stringAfter(k, Keys.units(NS, "spec")))));
    s.put("unit-odd", sample(() -> Keys.unit(ODD, ODD, ODD), List.of(ODD, ODD, ODD),
        k -> List.of(Keys.dataNamespace(k), afterTag(k).string(), Keys.stringAfter(k, Keys.units(ODD, ODD)))));
    s.put("available", sample(() -> Keys.available(NS, "spec", -2.5, "unit"), List.of(NS, "spec", -2.5, "unit"),
        k -> {
          KeyReader reader = afterTag(k);
          return List.of(Keys.dataNamespace(k), reader.string(), reader.float64Descending(),
              Keys.availableUnitName(k, NS, "spec"));
        }));
    s.put("available-since", sample(() -> Keys.availableSince(NS, "spec", 1_800_000_000_456L),
        List.of(NS, "spec", 1_800_000_000_456L),
        k -> List.of(Keys.dataNamespace(k), afterTag(k).string(), Keys.availableSinceTime(k, NS, "spec"))));
    s.put("available-since-unknown", sample(() -> Keys.availableSince(NS, "spec", null),
        List.of(NS, "spec", Long.MIN_VALUE),
        k -> List.of(Keys.dataNamespace(k), afterTag(k).string(), Keys.availableSinceTime(k, NS, "spec"))));
    s.put("unit-attempt", sample(() -> Keys.unitAttempt(NS, "spec", "unit", 65), List.of(NS, "spec", "unit", 65L),
        k -> {
          KeyReader reader = afterTag(k);
          return List.of(Keys.dataNamespace(k), reader.string(), reader.string(), Keys.trailingSeq(k));
        }));
    s.put("attempt", sample(() -> Keys.attempt(NS, 99), List.of(NS, 99L),
        k -> List.of(Keys.dataNamespace(k), Keys.trailingSeq(k))));
    s.put("attempt-units-block", sample(() -> Keys.attemptUnitsBlock(NS, 2), List.of(NS, 2L),
        k -> List.of(Keys.dataNamespace(k), Keys.trailingSeq(k))));
    s.put("started-units-block", sample(() -> Keys.startedUnitsBlock(NS, 2), List.of(NS, 2L),
        k -> List.of(Keys.dataNamespace(k), Keys.trailingSeq(k))));
    s.put("answer", sample(() -> Keys.answer(NS, "w1", "request_attempts", "r-2"),
        List.of(new Keys.AnswerKey(7L, NS, "w1", "request_attempts", "r-2")), k -> List.of(Keys.parseAnswer(k, 7L))));
    s.put("worker", sample(() -> Keys.worker(NS, "w1"), List.of(NS, "w1"),
        k -> List.of(Keys.dataNamespace(k), Keys.stringAfter(k, Keys.allWorkers(NS)))));
    s.put("worker-child", sample(() -> Keys.workerChild(NS, "w1", "w2"), List.of(NS, "w1", "w2"),
        k -> List.of(Keys.dataNamespace(k), afterTag(k).string(), Keys.stringAfter(k, Keys.workerChildren(NS, "w1")))));
    s.put("worker-active-block", sample(() -> Keys.workerActiveBlock(NS, "w1", 4), List.of(NS, "w1", 4L),
        k -> List.of(Keys.dataNamespace(k), afterTag(k).string(), Keys.trailingSeq(k))));
    s.put("worker-attempt-block", sample(() -> Keys.workerAttemptBlock(NS, "w1", 4), List.of(NS, "w1", 4L),
        k -> List.of(Keys.dataNamespace(k), afterTag(k).string(), Keys.trailingSeq(k))));
    for (ChildState state : ChildState.values()) {
      s.put("child-" + state.name().toLowerCase(), sample(() -> Keys.child(NS, PARENT, state, 42, CHILD),
          List.of(NS, CHILD), k -> List.of(Keys.dataNamespace(k), Keys.childRef(k, Keys.children(NS, PARENT, state),
              state))));
    }
    s.put("heir", sample(() -> Keys.heir(NS, PARENT, CHILD), List.of(NS, CHILD),
        k -> List.of(Keys.dataNamespace(k), Keys.heirRef(k, Keys.heirs(NS, PARENT)))));
    s.put("family-count-open", sample(() -> Keys.familyCount(NS, PARENT, ChildState.OPEN.code()),
        List.of(NS, PARENT, ChildState.OPEN.code()), Parts::familyCount));
    s.put("family-count-heirs", sample(() -> Keys.familyCount(NS, PARENT, Keys.HEIRS_KIND),
        List.of(NS, PARENT, Keys.HEIRS_KIND), Parts::familyCount));
    return s;
  }

  /** Readers of keys whose parts the code never parses back. */
  private static final class Parts {
    static List<Object> familyCount(byte[] key) {
      KeyReader reader = afterTag(key);
      return List.of(Keys.dataNamespace(key), new UnitRef(reader.string(), reader.string()), reader.tag());
    }
  }

  @Test
  void todaysCodeBuildsTheSameKeys() throws IOException {
    if (Boolean.getBoolean("golden.write")) {
      appendMissing(); // into the source tree: the copy on the classpath is the build's, compared on the next run
      return;
    }
    Map<String, byte[]> fixture = fixture();
    Map<String, Sample> samples = samples();
    assertThat(fixture.keySet()).containsExactlyInAnyOrderElementsOf(samples.keySet());
    samples.forEach((name, sample) -> assertThat(HEX.formatHex(sample.build().get()))
        .as("%s: a key layout changed; see this class's comment", name).isEqualTo(HEX.formatHex(fixture.get(name))));
  }

  @Test
  void everyStoredKeyParsesBackIntoItsParts() throws IOException {
    Map<String, Sample> samples = samples();
    fixture().forEach((name, key) ->
        assertThat(samples.get(name).parse().apply(key)).as(name).isEqualTo(samples.get(name).parts()));
  }

  private static Map<String, byte[]> fixture() throws IOException {
    try (InputStream in = StoredKeysGoldenTest.class.getClassLoader().getResourceAsStream(FIXTURE)) {
      assertThat(in).as(FIXTURE).isNotNull();
      return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
  }

  private static Map<String, byte[]> parse(String text) {
    Map<String, byte[]> keys = new LinkedHashMap<>();
    for (String line : text.split("\n")) {
      if (!line.isBlank() && !line.startsWith("#")) {
        String[] parts = line.split(" ", 2);
        keys.put(parts[0], HEX.parseHex(parts[1].strip()));
      }
    }
    return keys;
  }

  /** Appends the samples the fixture lacks, built by today's code, to the file in the source tree. */
  private static void appendMissing() throws IOException {
    Path file = Path.of("src/test/resources").resolve(FIXTURE);
    String text = Files.exists(file) ? Files.readString(file)
        : "# A key of every family as stored: name, then the bytes in hex.\n"
            + "# Lines are appended by StoredKeysGoldenTest with -Dgolden.write=true; never edit or rewrite one.\n";
    Map<String, byte[]> known = parse(text);
    StringBuilder appended = new StringBuilder(text);
    samples().forEach((name, sample) -> {
      if (!known.containsKey(name)) {
        appended.append(name).append(' ').append(HEX.formatHex(sample.build().get())).append('\n');
      }
    });
    Files.createDirectories(file.getParent());
    Files.writeString(file, appended);
  }
}
