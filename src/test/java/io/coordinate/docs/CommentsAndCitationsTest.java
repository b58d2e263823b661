package io.coordinate.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.MalformedInputException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What comments and docs may cite and say (docs/architecture.md#docs-that-run):
 *
 * <ul>
 *   <li>Nothing under src/, docs/, topics/ or README.md cites the design's spec files outside the project (their
 *       names in capitals, or a path into the shared folder): a reader of the project has only its own docs.
 *       {@link #SPEC_CITATION} is the rule. Class names such as {@code ConformanceIT} are not capitals.
 *   <li>Every {@code docs/<page>.md#<anchor>} cited under src/ or topics/, and every link of docs/*.md and
 *       README.md, names a file that exists and a heading of it (GitHub's anchors: lower case, punctuation dropped,
 *       spaces as hyphens) or an {@code <a id>}.
 *   <li>No comment of src/main/java holds a measured figure: measurements go to docs/performance.md, with their
 *       date, machine and commit, and a comment says why. A measurement is recognised by its shape, one of
 *       {@link #MEASUREMENTS}: an estimate ({@code ~4 MB}), a size in decimal units ({@code 600 KB}: settings are
 *       written in KiB, MiB, GiB), a range ({@code 42-67 s}, a spread of runs), a percentage or a factor
 *       ({@code 4%}, {@code 2x}), a rate ({@code 40,000 units/s}), a time below a millisecond ({@code 24.3 µs}), a
 *       share of a cost ({@code a sixth of the stream thread}), a change ({@code halved}, {@code 3 times faster})
 *       or the issue it came from ({@code issue 4}). A setting's value (a default, a limit, Kafka's own) has none
 *       of these shapes and may stay: {@code 30 s by default}, {@code 256 MiB in all}.
 * </ul>
 */
class CommentsAndCitationsTest {

    /**
     * The design's spec files, by the names they are cited by in capitals; kept in lower case here so that this rule
     * is not itself a citation.
     */
    static final List<String> SPEC_NAMES = Stream.of("protocol", "semantics", "conformance")
            .map(name -> name.toUpperCase(Locale.ROOT))
            .toList();

    /** A spec file's name in capitals (as in "NAME §5" or NAME "Events"), or a path into the shared folder. */
    static final Pattern SPEC_CITATION = Pattern.compile(
            "\\b(?:" + String.join("|", SPEC_NAMES) + ")\\b|\\.\\./" + "shared\\b|\\b" + "shared/spec\\b");

    static final List<Pattern> MEASUREMENTS = List.of(
            Pattern.compile("~\\s*\\d"),
            Pattern.compile("\\b\\d+(?:[.,]\\d+)?\\s*(?:kB|KB|MB|GB)\\b"),
            Pattern.compile(
                    "\\b\\d+(?:\\.\\d+)?\\s*[-–]\\s*\\d+(?:\\.\\d+)?\\s*(?:ns|µs|ms|s|min|bytes|KiB|MiB|GiB)\\b"),
            Pattern.compile("\\b\\d+(?:\\.\\d+)?\\s*(?:%|×|x\\b)"),
            Pattern.compile("\\b\\d[\\d,.]*\\s*k?\\s*[a-z]+/s\\b"),
            Pattern.compile("\\b\\d+(?:\\.\\d+)?\\s*(?:ns|µs)\\b"),
            Pattern.compile(
                    "\\b(?:a|one)\\s+(?:third|quarter|fourth|fifth|sixth|seventh|eighth|ninth|tenth)\\s+of\\b"
                            + ".{0,40}?\\b(?:thread|cost|time|CPU|profile|writing|work)",
                    Pattern.CASE_INSENSITIVE),
            Pattern.compile(
                    "\\b(?:halved|doubled|tripled|(?:\\d+|two|three|several)\\s+times\\s+(?:faster|slower))\\b",
                    Pattern.CASE_INSENSITIVE),
            Pattern.compile("\\bissue\\s+#?\\d+\\b", Pattern.CASE_INSENSITIVE));

    private static final Pattern CODE_CITATION = Pattern.compile("\\bdocs/([\\w-]+\\.md)(?:#([\\w-]+))?");
    private static final Pattern MARKDOWN_LINK = Pattern.compile("\\]\\(([^)\\s#]*)(?:#([^)\\s]+))?\\)");
    private static final Pattern HEADING = Pattern.compile("^#+\\s+(.+)$");
    private static final Pattern HTML_ANCHOR = Pattern.compile("<a (?:id|name)=\"([^\"]+)\"");
    private static final Path THIS_FILE = Path.of("src/test/java/io/coordinate/docs/CommentsAndCitationsTest.java");

    @Test
    void nothingCitesTheSpecFilesOutsideTheProject() {
        List<String> found = new ArrayList<>();
        for (Path file : textFiles(Path.of("src"), Path.of("docs"), Path.of("topics"), Path.of("README.md"))) {
            if (!file.equals(THIS_FILE)) {
                List<String> lines = readLines(file);
                for (int i = 0; i < lines.size(); i++) {
                    if (SPEC_CITATION.matcher(lines.get(i)).find()) {
                        found.add(file + ":" + (i + 1) + ": " + lines.get(i).strip());
                    }
                }
            }
        }
        assertThat(found).as("cite docs/*.md instead").isEmpty();
    }

    @Test
    void everyCitedDocAndAnchorExists() {
        List<String> missing = new ArrayList<>();
        for (Path file : textFiles(Path.of("src"), Path.of("topics"))) {
            Matcher citation = CODE_CITATION.matcher(String.join("\n", readLines(file)));
            while (citation.find()) {
                check(file, Path.of("docs", citation.group(1)), citation.group(2), missing);
            }
        }
        for (Path page : textFiles(Path.of("docs"), Path.of("README.md"))) {
            if (page.toString().endsWith(".md")) {
                Matcher link = MARKDOWN_LINK.matcher(String.join("\n", readLines(page)));
                while (link.find()) {
                    String target = link.group(1);
                    if (!target.contains(":")) { // http:, https:, mailto: are not checked
                        check(
                                page,
                                target.isEmpty()
                                        ? page
                                        : page.resolveSibling(target).normalize(),
                                link.group(2),
                                missing);
                    }
                }
            }
        }
        assertThat(missing).isEmpty();
    }

    @Test
    void noCommentOfTheAppHoldsAMeasuredFigure() {
        List<String> found = new ArrayList<>();
        for (Path file : textFiles(Path.of("src", "main", "java"))) {
            for (JavaComments.Line line : JavaComments.of(String.join("\n", readLines(file)))) {
                if (isMeasurement(line.text())) {
                    found.add(file + ":" + line.number() + ": " + line.text().strip());
                }
            }
        }
        assertThat(found)
                .as("say why in the comment; the figure goes to docs/performance.md")
                .isEmpty();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "took a sixth of the stream thread",
                "scan to ~1,000 entries (~4 MB)",
                "so 45 s made failover take 42-67 s",
                "(a fifth of a finish's cost)",
                "seen: a unit of 600 KB of data",
                "the p99 at half load nearly halved",
                "which doubled the p99",
                "4% of the stream thread",
                "ran 2x faster",
                "went from 29.0k to 33.9k units/s",
                "27.9 µs per unit",
                "keys of 30-50 bytes",
                "cost (issue 4)",
                "a load went several times slower",
                "escaping strings was a third of writing an assignment"
            })
    void theseAreMeasurements(String comment) {
        assertThat(isMeasurement(comment)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "(default 30 s)",
                "{@link #TOTAL_BYTES} = 256 MiB in all",
                "refuses above 1 MiB",
                "a third of the session, as Kafka recommends",
                "escaped as 0x00 0xFF",
                "at most 5 s, never below the app's",
                "(p%)",
                "an encoded {@code /} ({@code %2F})",
                "a request of 100 attempts writes 2-3 entries per index",
                "10 [ns] 'U' [spec][unit]",
                "from {@code min} (100 ms), doubling up to {@code max} (5 s)"
            })
    void theseAreNot(String comment) {
        assertThat(isMeasurement(comment)).isFalse();
    }

    @Test
    void specCitationsAreRecognised() {
        String protocol = SPEC_NAMES.get(0);
        assertThat(Stream.of(
                                "(" + SPEC_NAMES.get(1) + " §5)",
                                protocol + ".md \"Topics\"",
                                "(" + protocol + " \"Events\")",
                                SPEC_NAMES.get(2) + ".md",
                                "../" + "shared/spec/x.md")
                        .filter(text -> SPEC_CITATION.matcher(text).find()))
                .hasSize(5);
        assertThat(Stream.of("ConformanceIT", "SECURITY_PROTOCOL_CONFIG", "security.protocol", "semantics")
                        .filter(text -> SPEC_CITATION.matcher(text).find()))
                .isEmpty();
    }

    @Test
    void anchorsAreGitHubs() {
        assertThat(anchor("Restart after kill -9")).isEqualTo("restart-after-kill--9");
        assertThat(anchor("Workers' reliability")).isEqualTo("workers-reliability");
        assertThat(anchor("set_work_spec")).isEqualTo("set_work_spec");
        assertThat(anchor("`POST /api/namespaces/{ns}/commands`")).isEqualTo("post-apinamespacesnscommands");
    }

    static boolean isMeasurement(String comment) {
        return MEASUREMENTS.stream()
                .anyMatch(pattern -> pattern.matcher(comment).find());
    }

    static String anchor(String heading) {
        return heading.strip()
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^\\p{L}\\p{N}_ -]", "")
                .replace(' ', '-');
    }

    private static void check(Path from, Path target, String anchor, List<String> missing) {
        if (!Files.exists(target)) {
            missing.add(from + " links to " + target + ", which does not exist");
        } else if (anchor != null
                && target.toString().endsWith(".md")
                && !anchors(target).contains(anchor)) {
            missing.add(from + " links to " + target + "#" + anchor + ", which is no heading there");
        }
    }

    private static Set<String> anchors(Path page) {
        Set<String> anchors = new HashSet<>();
        boolean inFence = false;
        for (String line : readLines(page)) {
            inFence ^= line.startsWith("```");
            Matcher heading = HEADING.matcher(line);
            if (!inFence && heading.matches()) {
                anchors.add(anchor(heading.group(1)));
            }
            HTML_ANCHOR.matcher(line).results().forEach(match -> anchors.add(match.group(1)));
        }
        return anchors;
    }

    /** The files under these paths that read as UTF-8 text, in a stable order. */
    private static List<Path> textFiles(Path... roots) {
        List<Path> files = new ArrayList<>();
        for (Path root : roots) {
            try (Stream<Path> walk = Files.walk(root)) {
                walk.filter(Files::isRegularFile)
                        .filter(file -> readLines(file) != null)
                        .sorted()
                        .forEach(files::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return files;
    }

    /** The file's lines, or null when it is not UTF-8 text (an image). */
    private static List<String> readLines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (MalformedInputException e) {
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
