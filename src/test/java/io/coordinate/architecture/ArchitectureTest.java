package io.coordinate.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import io.coordinate.architecture.PackageDependencies.Reference;
import io.coordinate.engine.Engine;
import io.coordinate.engine.state.CoordinateState;
import io.coordinate.engine.state.db.EngineState;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Guards the boundaries of the architecture: the engine is deterministic and knows nothing of Kafka; the app's
 * runtime output knows nothing of the development tools.
 */
class ArchitectureTest {

    /** The app's runtime output, target/classes (the tests compile the development tools into test-classes). */
    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.coordinate");

    /** The app and its development tools (the embedded broker, dev, the bench: target/dev-classes). */
    private static final JavaClasses WITH_TOOLS = new ClassFileImporter()
            .importPaths(Path.of("target", "classes"), existingDirectory(Path.of("target", "dev-classes")));

    @Test
    void theEngineDoesNotDependOnKafkaOrThePlumbing() {
        noClasses()
                .that()
                .resideInAnyPackage("io.coordinate.engine..", "io.coordinate.protocol..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "org.apache.kafka..",
                        "io.coordinate.streams..",
                        "io.coordinate.query..",
                        "io.coordinate.app..",
                        "io.coordinate.config..",
                        "io.coordinate.cli..",
                        "io.coordinate.broker..",
                        "io.javalin..")
                .check(MAIN);
    }

    @Test
    void theEngineNeverReadsTheClock() {
        noClasses()
                .that()
                .resideInAnyPackage("io.coordinate.engine..")
                .should()
                .callMethod(System.class, "currentTimeMillis")
                .orShould()
                .callMethod(System.class, "nanoTime")
                .orShould()
                .callMethod(java.time.Instant.class, "now")
                .check(MAIN);
    }

    @Test
    void onlyTheStateLayerTouchesTheStore() {
        noClasses()
                .that()
                .resideOutsideOfPackages(
                        "io.coordinate.engine.state..",
                        "io.coordinate.engine",
                        "io.coordinate.storage..",
                        "io.coordinate.streams..",
                        "io.coordinate.bench..")
                .should()
                .callMethod(io.coordinate.storage.KeyValueStore.class, "put", byte[].class, byte[].class)
                .check(WITH_TOOLS);
    }

    /**
     * Handlers, job trees and replication get the state modules they use, never the whole state: only the engine's
     * entry point holds it, with the command's transaction (its listener, its flush, its commit).
     */
    @Test
    void onlyTheEnginesEntryPointHoldsTheWholeState() {
        noClasses()
                .that()
                .resideOutsideOfPackage("io.coordinate.engine.state..")
                .and()
                .doNotBelongToAnyOf(Engine.class)
                .should()
                .dependOnClassesThat()
                .belongToAnyOf(CoordinateState.class, EngineState.class)
                .check(WITH_TOOLS);
    }

    /** The key-value stack under the state layer is plain plumbing: it knows nothing of the engine or the app. */
    @Test
    void theStorageKnowsNothingAboveIt() {
        noClasses()
                .that()
                .resideInAPackage("io.coordinate.storage..")
                .should()
                .dependOnClassesThat()
                .resideOutsideOfPackages("io.coordinate.storage..", "java..")
                .check(MAIN);
    }

    @Test
    void queriesDoNotDependOnStreamsPlumbing() {
        noClasses()
                .that()
                .resideInAPackage("io.coordinate.query..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.coordinate.streams..", "io.coordinate.cli..")
                .check(MAIN);
    }

    /**
     * The client library ships on its own (client/pom.xml): it may use only the protocol, Kafka's client, Jackson and
     * SLF4J, never the engine, Kafka Streams, RocksDB, the HTTP server or the broker. Its examples keep to the same.
     */
    @Test
    void theClientNeedsOnlyTheProtocolAndKafkasClient() {
        classes()
                .that()
                .resideInAnyPackage("io.coordinate.client..", "io.coordinate.protocol..", "io.coordinate.examples..")
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage(
                        "io.coordinate.client..",
                        "io.coordinate.protocol..",
                        "io.coordinate.examples..",
                        "java..",
                        "javax..",
                        "org.apache.kafka.clients..",
                        "org.apache.kafka.common..",
                        "com.fasterxml.jackson..",
                        "org.slf4j..")
                .check(MAIN);
    }

    /** Every package is its own slice, so a package and its subpackage may not depend on each other either. */
    @Test
    void thePackagesAreFreeOfCycles() {
        slices().matching("io.coordinate.(**)").should().beFreeOfCycles().check(WITH_TOOLS);
    }

    /**
     * The classes of {@link #WITH_TOOLS} as their sources write them too: ArchUnit reads bytecode, from which the
     * compiler drops an import that only Javadoc uses, so these count the sources' imports and the fully qualified
     * names of their Javadoc references as well.
     */
    private static final PackageDependencies DEPENDENCIES = PackageDependencies.of(
            WITH_TOOLS,
            List.of(Path.of("src", "main", "java"), Path.of("src", "dev", "java"), Path.of("src", "bench", "java")));

    @Test
    void thePackagesAreFreeOfCyclesInTheirSourcesToo() {
        assertThat(DEPENDENCIES.cycles())
                .as("cycles through imports and Javadoc references")
                .isEmpty();
    }

    /**
     * The state layer's records (model) know nothing of the engine above them; its codec knows only the records (and
     * the storage beneath): neither points up to the state modules (engine.state.db) or their interfaces, not even for
     * Javadoc. A comment that must name a class above writes it in {@code {@code ...}}.
     */
    @Test
    void theStateRecordsAndCodecPointOnlyDown() {
        assertThat(DEPENDENCIES.references())
                .filteredOn(ArchitectureTest::pointsUpFromTheRecordsOrCodec)
                .extracting(reference -> reference.from() + " -> " + reference.to() + " at " + reference.where())
                .isEmpty();
    }

    private static final String ENGINE = "io.coordinate.engine";
    private static final String MODEL = "io.coordinate.engine.state.model";
    private static final String CODEC = "io.coordinate.engine.state.codec";

    private static boolean pointsUpFromTheRecordsOrCodec(Reference reference) {
        boolean toTheEngine = within(reference.to(), ENGINE);
        if (within(reference.from(), MODEL)) {
            return toTheEngine && !within(reference.to(), MODEL);
        }
        if (within(reference.from(), CODEC)) {
            return toTheEngine && !within(reference.to(), CODEC) && !within(reference.to(), MODEL);
        }
        return false;
    }

    private static boolean within(String pkg, String parent) {
        return pkg.equals(parent) || pkg.startsWith(parent + ".");
    }

    /**
     * What the image ships (target/classes) uses none of the development tools (src/dev and src/bench: the bench, the
     * embedded broker, {@code dev}), nor what is provided for them only: Kafka's server, its metadata and Raft, Scala.
     */
    @Test
    void theAppDoesNotDependOnTheDevelopmentTools() {
        noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "io.coordinate.bench..",
                        "io.coordinate.broker..",
                        "kafka..",
                        "scala..",
                        "org.apache.kafka.metadata..",
                        "org.apache.kafka.raft..",
                        "org.apache.kafka.server.common..")
                .orShould()
                .dependOnClassesThat()
                .haveNameMatching("io\\.coordinate\\.cli\\.(Dev|Bench)[A-Za-z]*")
                .check(MAIN);
    }

    /**
     * Every class the image's classes use is one of them, the JDK's or in a jar of the runtime class path
     * (target/runtime-classpath.txt: the image's lib/), never in a provided or test jar that only compiling sees.
     */
    @Test
    void theAppNeedsNothingBeyondItsRuntimeClassPath() throws IOException {
        Path classes = Path.of("target", "classes").toAbsolutePath().normalize();
        Set<Path> jars = Arrays.stream(Files.readString(Path.of("target", "runtime-classpath.txt"))
                        .strip()
                        .split(":"))
                .map(jar -> Path.of(jar).toAbsolutePath().normalize())
                .collect(Collectors.toSet());
        classes()
                .should(new ArchCondition<JavaClass>("use only the JDK, target/classes and the runtime class path") {
                    @Override
                    public void check(JavaClass item, ConditionEvents events) {
                        for (Dependency dependency : item.getDirectDependenciesFromSelf()) {
                            JavaClass target = dependency.getTargetClass().getBaseComponentType();
                            String location = target.getSource()
                                    .map(source -> source.getUri().toString())
                                    .orElse("nowhere");
                            if (!target.isPrimitive() && !onTheRuntimeClassPath(location, classes, jars)) {
                                events.add(SimpleConditionEvent.violated(
                                        dependency, dependency.getDescription() + ", from " + location));
                            }
                        }
                    }
                })
                .check(MAIN);
    }

    /** {@code location}: a class file's URI, {@code jrt:/...}, {@code file:/...} or {@code jar:file:/...!/...}. */
    private static boolean onTheRuntimeClassPath(String location, Path classes, Set<Path> jars) {
        if (location.startsWith("jrt:/")) {
            return true;
        }
        if (location.startsWith("file:/")) {
            return Path.of(URI.create(location)).normalize().startsWith(classes);
        }
        if (location.startsWith("jar:file:/")) {
            String jar = location.substring("jar:".length(), location.indexOf("!/"));
            return jars.contains(Path.of(URI.create(jar)).normalize());
        }
        return false;
    }

    private static Path existingDirectory(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new IllegalStateException(dir + " is missing: the build compiles the development tools into it");
        }
        return dir;
    }
}
