package io.coordinate.engine.state.checklist;

import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.engine.state.model.WorkUnitRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * THE FIELD CHECKLIST, PROVEN: adds a dummy field to a unit, {@code label} (a string that {@code add_work_units} sets
 * and the unit view shows), by following only the steps of docs/architecture.md#where-do-i-add-a-field, each a
 * small patch named after its step. The patched sources compile into a temporary directory, against the build's
 * classes, and run in a class loader that prefers them: the record copies' test that step 1 names, then
 * {@link LabelScenario}, which checks after every command that the unit's stored record, its view and its events
 * still hold the label, through every transition; then the golden-bytes test, patched by its step too, writes its
 * next fixture there and reads every fixture back. A step missing from the checklist shows as a field dropped on the
 * way; {@code -Dchecklist.skip=<step>} leaves one step out to see it fail. Nothing of this reaches the build's own
 * classes or sources.
 */
class FieldChecklistTest {

    private static final Path MAIN = Path.of("src/main/java/io/coordinate");
    private static final Path TEST = Path.of("src/test/java/io/coordinate");
    private static final String GOLDEN_TEST = "io.coordinate.engine.state.db.StoredValuesGoldenTest";
    /** Step 1 names it: it checks the builder's copies by reflection, so it checks the patched record unchanged. */
    private static final String COPIES_TEST = "io.coordinate.engine.state.model.RecordCopiesTest";

    /** One edit of a source file: {@code anchor} (found exactly {@code times} times) becomes {@code replacement}. */
    record Patch(String step, Path file, String anchor, String replacement, int times) {
        Patch(String step, Path file, String anchor, String replacement) {
            this(step, file, anchor, replacement, 1);
        }

        String applyTo(String source) {
            int found = source.split(Pattern.quote(anchor), -1).length - 1;
            assertThat(found)
                    .as(
                            "step %s: occurrences of %s in %s (the code moved: follow the checklist again)",
                            step, anchor, file)
                    .isEqualTo(times);
            return source.replace(anchor, replacement);
        }
    }

    /** The checklist's steps for {@code label}, in its order; the comment of each step says what it does. */
    static List<Patch> checklist() {
        Path record = MAIN.resolve("engine/state/model/WorkUnitRecord.java");
        Path codec = MAIN.resolve("engine/state/codec/BinaryRecords.java");
        Path golden = TEST.resolve("engine/state/db/StoredValuesGoldenTest.java");
        Path newUnit = MAIN.resolve("engine/handlers/NewUnit.java");
        Path commands = MAIN.resolve("engine/handlers/WorkUnitCommands.java");
        Path events = MAIN.resolve("engine/EventRecorder.java");
        Path views = MAIN.resolve("engine/view/StateViews.java");
        return List.of(
                // 1. The record: its component, a field and a setter in its Builder.
                new Patch("1-record", record, "String group) {", "String group, String label) {"),
                new Patch("1-record", record, "null, null, null, null)", "null, null, null, null, null)"),
                new Patch(
                        "1-record",
                        record,
                        "private Long availableSince = WorkUnitRecord.this.availableSince;",
                        "private Long availableSince = WorkUnitRecord.this.availableSince;"
                                + " private String label = WorkUnitRecord.this.label;"),
                new Patch(
                        "1-record",
                        record,
                        "public WorkUnitRecord build() {",
                        "public Builder label(String value) { label = value; return this; }"
                                + " public WorkUnitRecord build() {"),
                new Patch("1-record", record, "group);", "group, label);"),
                // 2. Its binary codec: a mask bit, written and read.
                new Patch(
                        "2-codec",
                        codec,
                        "U_GROUP = 1 << 10;",
                        "U_GROUP = 1 << 10; private static final int U_LABEL = 1 << 11;"),
                new Patch(
                        "2-codec",
                        codec,
                        "| bit(unit.group(), U_GROUP);",
                        "| bit(unit.group(), U_GROUP) | bit(unit.label(), U_LABEL);"),
                new Patch(
                        "2-codec",
                        codec,
                        "out.string(unit.group());",
                        "out.string(unit.group()); out.string(unit.label());"),
                new Patch(
                        "2-codec",
                        codec,
                        "String group = has(mask, U_GROUP) ? in.string() : null;",
                        "String group = has(mask, U_GROUP) ? in.string() : null;"
                                + " String label = has(mask, U_LABEL) ? in.string() : null;"),
                new Patch("2-codec", codec, "group);", "group, label);"),
                // 3. The golden fixtures: a new sample that sets it; the layout's new version; the next fixture.
                new Patch(
                        "3-golden",
                        golden,
                        "samples.put(\"unit-available-since\", record(WAITING_UNIT));",
                        "samples.put(\"unit-available-since\", record(WAITING_UNIT));"
                                + " samples.put(\"unit-label\", record(PLAIN_UNIT.toBuilder().label(\"golden\").build()));"),
                new Patch("3-golden", codec, "static final byte VERSION = 4;", "static final byte VERSION = 5;"),
                new Patch(
                        "3-golden",
                        golden,
                        "\"golden/stored-values-v6.txt\");",
                        "\"golden/stored-values-v6.txt\", \"golden/stored-values-v7.txt\");"),
                // 4. Where a command sets it: an add, and a re-add that builds the unit afresh (a continuous unit has
                // none); the transitions that change it (none changes a label); its event; its view. reference.md,
                // the last item, is prose.
                new Patch("4-command", newUnit, "String group) {", "String group, String label) {"),
                new Patch(
                        "4-command",
                        newUnit,
                        "group(item));",
                        "group(item), item.hasNonNull(\"label\") ? item.get(\"label\").asText()" + " : null);"),
                new Patch(
                        "4-command",
                        commands,
                        ".notBefore(unit.notBefore())",
                        ".notBefore(unit.notBefore()).label(unit.label())",
                        2),
                new Patch(
                        "4-event",
                        events,
                        "private static final SerializableString STATUS = Json.encoded(\"status\");",
                        "private static final SerializableString STATUS = Json.encoded(\"status\");"
                                + " private static final SerializableString LABEL = Json.encoded(\"label\");"),
                new Patch(
                        "4-event",
                        events,
                        "event.node(PRIORITY, Numbers.node(unit.priority()));",
                        "event.node(PRIORITY, Numbers.node(unit.priority())); if (unit.label() != null) {"
                                + " event.string(LABEL, unit.label()); }"),
                new Patch(
                        "4-view",
                        views,
                        "node.set(\"priority\", Numbers.node(unit.priority()));",
                        "node.set(\"priority\", Numbers.node(unit.priority())); node.put(\"label\", unit.label());"));
    }

    @Test
    void aFieldAddedByTheChecklistAloneIsKeptEverywhere(@TempDir Path dir) throws Exception {
        String skipped = System.getProperty("checklist.skip", "");
        Path sources = dir.resolve("src");
        Path classes = dir.resolve("classes");
        Path resources = dir.resolve("resources");
        List<Path> patched = patch(
                checklist().stream().filter(p -> !p.step().equals(skipped)).toList(), sources);
        compile(patched, classes);
        Files.createDirectories(resources);
        try (URLClassLoader loader = new PreferringLoader(
                new URL[] {
                    url(classes),
                    url(resources),
                    url(location(FieldChecklistTest.class)),
                    url(location(WorkUnitRecord.class))
                },
                getClass().getClassLoader())) {
            Class<?> unit = loader.loadClass(WorkUnitRecord.class.getName());
            run(loader, COPIES_TEST, "anUnchangedCopyKeepsEveryComponent", unit);
            run(loader, COPIES_TEST, "eachSetterChangesExactlyItsComponent", unit);
            run(loader, LabelScenario.class.getName(), "run");
            goldenFixtureRoundTrip(loader, resources);
        }
    }

    /** The patched golden test writes its new fixture (into {@code resources}), then reads every fixture back. */
    private static void goldenFixtureRoundTrip(ClassLoader loader, Path resources) throws Exception {
        System.setProperty("golden.write", "true");
        System.setProperty("golden.dir", resources.toString());
        try {
            run(loader, GOLDEN_TEST, "todaysCodeWritesTheSameBytes");
        } finally {
            System.clearProperty("golden.write");
            System.clearProperty("golden.dir");
        }
        assertThat(Files.readString(resources.resolve("golden/stored-values-v7.txt")))
                .contains("\nunit-label ");
        run(loader, GOLDEN_TEST, "valuesWrittenByEveryVersionReadBackAsTheirRecords");
        run(loader, GOLDEN_TEST, "todaysCodeWritesTheSameBytes");
    }

    /** Applies the patches to copies of their files under {@code into}; returns the copies. */
    private static List<Path> patch(List<Patch> patches, Path into) throws IOException {
        List<Path> files = patches.stream().map(Patch::file).distinct().toList();
        List<Path> copies = new ArrayList<>();
        for (Path file : files) {
            String source = Files.readString(file);
            for (Patch patch : patches) {
                if (patch.file().equals(file)) {
                    source = patch.applyTo(source);
                }
            }
            Path copy = into.resolve(file.getFileName());
            Files.createDirectories(into);
            Files.writeString(copy, source);
            copies.add(copy);
        }
        return copies;
    }

    /** Compiles the patched files alone, against the build's classes and the test class path. */
    private static void compile(List<Path> files, Path out) throws IOException {
        Files.createDirectories(out);
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager manager =
                compiler.getStandardFileManager(null, Locale.ROOT, StandardCharsets.UTF_8)) {
            List<String> options = List.of(
                    "--release",
                    "17",
                    "-proc:none",
                    "-implicit:none",
                    "-nowarn",
                    "-classpath",
                    System.getProperty("java.class.path"),
                    "-d",
                    out.toString());
            Writer silent = Writer.nullWriter();
            boolean ok = compiler.getTask(
                            silent, manager, diagnostics, options, null, manager.getJavaFileObjectsFromPaths(files))
                    .call();
            assertThat(ok)
                    .as(
                            "the patched sources compile: %s",
                            diagnostics.getDiagnostics().stream()
                                    .filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
                                    .map(d -> d.getSource().getName() + ":" + d.getLineNumber() + " "
                                            + d.getMessage(Locale.ROOT))
                                    .toList())
                    .isTrue();
        }
    }

    /** Calls {@code method} of a new {@code className} as the loader has it, rethrowing its failure. */
    private static void run(ClassLoader loader, String className, String method, Object... args) throws Exception {
        Class<?> type = loader.loadClass(className);
        assertThat(type.getClassLoader())
                .as("%s from the patched build", className)
                .isSameAs(loader);
        var constructor = type.getDeclaredConstructor();
        constructor.setAccessible(true);
        Method m = Arrays.stream(type.getDeclaredMethods())
                .filter(candidate -> candidate.getName().equals(method))
                .findFirst()
                .orElseThrow();
        m.setAccessible(true);
        try {
            m.invoke(constructor.newInstance(), args);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw (Exception) e.getCause();
        }
    }

    private static Path location(Class<?> type) throws Exception {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    private static URL url(Path path) {
        try {
            return path.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Loads the project's classes and resources from its own URLs first, so that the patched ones win. */
    private static final class PreferringLoader extends URLClassLoader {

        PreferringLoader(URL[] urls, ClassLoader parent) {
            super(urls, parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.startsWith("io.coordinate.")) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> type = findLoadedClass(name);
                if (type == null) {
                    try {
                        type = findClass(name);
                    } catch (ClassNotFoundException e) {
                        type = super.loadClass(name, false);
                    }
                }
                if (resolve) {
                    resolveClass(type);
                }
                return type;
            }
        }

        @Override
        public URL getResource(String name) {
            URL own = findResource(name);
            return own != null ? own : super.getResource(name);
        }
    }
}
