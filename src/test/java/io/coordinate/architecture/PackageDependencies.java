package io.coordinate.architecture;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Which package of the app refers to which, from the bytecode (what ArchUnit sees) and from the sources as written:
 * their {@code import} lines and the fully qualified names of their Javadoc references. The compiler drops an import
 * that only Javadoc uses, so a package can point up to another in its sources without a trace in its classes.
 */
final class PackageDependencies {

    private static final String APP = "io.coordinate";
    private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+)\\s*;");
    private static final Pattern IMPORT = Pattern.compile("^import\\s+(?:static\\s+)?([\\w.]+?)(?:\\.\\*)?\\s*;");
    private static final Pattern JAVADOC_NAME =
            Pattern.compile("(?:\\{@(?:link|linkplain|value)|@see|@throws|@exception)\\s+(io\\.coordinate\\.[\\w.]+)");

    /** A reference of package {@code from} to package {@code to}, and where it is (a source line or a class). */
    record Reference(String from, String to, String where) {}

    private final List<Reference> references;

    PackageDependencies(List<Reference> references) {
        this.references = List.copyOf(references);
    }

    /** The references between the app's packages in {@code classes} and in the sources under {@code sourceRoots}. */
    static PackageDependencies of(JavaClasses classes, List<Path> sourceRoots) {
        List<Reference> references = new ArrayList<>(inClasses(classes));
        for (Path root : sourceRoots) {
            try (Stream<Path> files = Files.walk(root)) {
                files.filter(file -> file.toString().endsWith(".java"))
                        .sorted()
                        .forEach(file -> references.addAll(inSource(file.toString(), read(file))));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return new PackageDependencies(references);
    }

    List<Reference> references() {
        return references;
    }

    static List<Reference> inClasses(JavaClasses classes) {
        List<Reference> references = new ArrayList<>();
        for (JavaClass origin : classes) {
            for (Dependency dependency : origin.getDirectDependenciesFromSelf()) {
                JavaClass target = dependency.getTargetClass().getBaseComponentType();
                add(references, origin.getPackageName(), target.getPackageName(), origin.getName() + " (class)");
            }
        }
        return references;
    }

    /** The references that one source file writes: {@code where} names it in reports. */
    static List<Reference> inSource(String where, String source) {
        List<Reference> references = new ArrayList<>();
        String pkg = "";
        String[] lines = source.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            Matcher packageLine = PACKAGE.matcher(line);
            if (packageLine.find()) {
                pkg = packageLine.group(1);
            }
            Matcher importLine = IMPORT.matcher(line);
            if (importLine.find()) {
                add(references, pkg, packageOf(importLine.group(1)), where + ":" + (i + 1) + " " + line);
            }
            Matcher javadoc = JAVADOC_NAME.matcher(line);
            while (javadoc.find()) {
                add(references, pkg, packageOf(javadoc.group(1)), where + ":" + (i + 1) + " " + javadoc.group());
            }
        }
        return references;
    }

    /** The package of a qualified name: its parts up to the first that starts in upper case (a class). */
    static String packageOf(String qualifiedName) {
        StringBuilder pkg = new StringBuilder();
        for (String part : qualifiedName.split("\\.")) {
            if (part.isEmpty() || Character.isUpperCase(part.charAt(0))) {
                break;
            }
            pkg.append(pkg.length() == 0 ? "" : ".").append(part);
        }
        return pkg.toString();
    }

    private static void add(List<Reference> references, String from, String to, String where) {
        if (!from.equals(to) && inApp(from) && inApp(to)) {
            references.add(new Reference(from, to, where));
        }
    }

    private static boolean inApp(String pkg) {
        return pkg.equals(APP) || pkg.startsWith(APP + ".");
    }

    /**
     * Every set of two or more packages that reach each other, each with the references that tie it, a few per pair
     * of packages; none when the packages form no cycle.
     */
    List<String> cycles() {
        Map<String, Set<String>> edges = new TreeMap<>();
        for (Reference reference : references) {
            edges.computeIfAbsent(reference.from(), k -> new TreeSet<>()).add(reference.to());
            edges.computeIfAbsent(reference.to(), k -> new TreeSet<>());
        }
        List<String> cycles = new ArrayList<>();
        for (Set<String> component : new StronglyConnected(edges).components()) {
            if (component.size() > 1) {
                Map<String, List<String>> ties = new TreeMap<>();
                for (Reference reference : references) {
                    if (component.contains(reference.from()) && component.contains(reference.to())) {
                        String pair = reference.from() + " -> " + reference.to();
                        List<String> where = ties.computeIfAbsent(pair, k -> new ArrayList<>());
                        if (where.size() < 3 && !where.contains(reference.where())) {
                            where.add(reference.where());
                        }
                    }
                }
                StringBuilder text = new StringBuilder("cycle of " + component + ":");
                ties.forEach((pair, where) ->
                        text.append("\n  ").append(pair).append(": ").append(String.join("; ", where)));
                cycles.add(text.toString());
            }
        }
        return cycles;
    }

    /** Tarjan's strongly connected components of a directed graph. */
    private static final class StronglyConnected {
        private final Map<String, Set<String>> edges;
        private final Map<String, Integer> index = new HashMap<>();
        private final Map<String, Integer> lowLink = new HashMap<>();
        private final Deque<String> stack = new ArrayDeque<>();
        private final Set<String> onStack = new TreeSet<>();
        private final List<Set<String>> components = new ArrayList<>();

        StronglyConnected(Map<String, Set<String>> edges) {
            this.edges = edges;
        }

        List<Set<String>> components() {
            for (String node : edges.keySet()) {
                if (!index.containsKey(node)) {
                    visit(node);
                }
            }
            return components;
        }

        private void visit(String node) {
            index.put(node, index.size());
            lowLink.put(node, index.get(node));
            stack.push(node);
            onStack.add(node);
            for (String next : edges.get(node)) {
                if (!index.containsKey(next)) {
                    visit(next);
                    lowLink.put(node, Math.min(lowLink.get(node), lowLink.get(next)));
                } else if (onStack.contains(next)) {
                    lowLink.put(node, Math.min(lowLink.get(node), index.get(next)));
                }
            }
            if (lowLink.get(node).equals(index.get(node))) {
                Set<String> component = new TreeSet<>();
                String member;
                do {
                    member = stack.pop();
                    onStack.remove(member);
                    component.add(member);
                } while (!member.equals(node));
                components.add(component);
            }
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
