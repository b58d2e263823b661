package io.coordinate.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Guards the boundaries of the architecture: the engine is deterministic and knows nothing of Kafka; the app's
 * runtime output knows nothing of the development tools.
 */
class ArchitectureTest {

  /** The app's runtime output, target/classes (the tests compile the development tools into test-classes). */
  private static final JavaClasses MAIN =
      new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("io.coordinate");

  /** The app and its development tools (the embedded broker, dev, the bench: target/dev-classes). */
  private static final JavaClasses WITH_TOOLS = new ClassFileImporter()
      .importPaths(Path.of("target", "classes"), existingDirectory(Path.of("target", "dev-classes")));

  @Test
  void theEngineDoesNotDependOnKafkaOrThePlumbing() {
    noClasses().that().resideInAnyPackage("io.coordinate.engine..", "io.coordinate.protocol..")
        .should().dependOnClassesThat().resideInAnyPackage(
            "org.apache.kafka..", "io.coordinate.streams..", "io.coordinate.query..", "io.coordinate.app..",
            "io.coordinate.config..", "io.coordinate.cli..", "io.coordinate.broker..", "io.javalin..")
        .check(MAIN);
  }

  @Test
  void theEngineNeverReadsTheClock() {
    noClasses().that().resideInAnyPackage("io.coordinate.engine..")
        .should().callMethod(System.class, "currentTimeMillis")
        .orShould().callMethod(System.class, "nanoTime")
        .orShould().callMethod(java.time.Instant.class, "now")
        .check(MAIN);
  }

  @Test
  void onlyTheStateLayerTouchesTheStore() {
    noClasses().that().resideOutsideOfPackages("io.coordinate.engine.state..", "io.coordinate.engine",
            "io.coordinate.streams..", "io.coordinate.bench..")
        .should().callMethod(io.coordinate.engine.state.KeyValueStore.class, "put", byte[].class, byte[].class)
        .check(WITH_TOOLS);
  }

  @Test
  void queriesDoNotDependOnStreamsPlumbing() {
    noClasses().that().resideInAPackage("io.coordinate.query..")
        .should().dependOnClassesThat().resideInAnyPackage("io.coordinate.streams..", "io.coordinate.cli..")
        .check(MAIN);
  }

  /**
   * The client library ships on its own (client/pom.xml): it may use only the protocol, Kafka's client, Jackson and
   * SLF4J, never the engine, Kafka Streams, RocksDB, the HTTP server or the broker. Its examples keep to the same.
   */
  @Test
  void theClientNeedsOnlyTheProtocolAndKafkasClient() {
    classes().that()
        .resideInAnyPackage("io.coordinate.client..", "io.coordinate.protocol..", "io.coordinate.examples..")
        .should().onlyDependOnClassesThat().resideInAnyPackage(
            "io.coordinate.client..", "io.coordinate.protocol..", "io.coordinate.examples..", "java..", "javax..",
            "org.apache.kafka.clients..", "org.apache.kafka.common..", "com.fasterxml.jackson..", "org.slf4j..")
        .check(MAIN);
  }

  /** Every package is its own slice, so a package and its subpackage may not depend on each other either. */
  @Test
  void thePackagesAreFreeOfCycles() {
    slices().matching("io.coordinate.(**)").should().beFreeOfCycles().check(WITH_TOOLS);
  }

  private static Path existingDirectory(Path dir) {
    if (!Files.isDirectory(dir)) {
      throw new IllegalStateException(dir + " is missing: the build compiles the development tools into it");
    }
    return dir;
  }
}
