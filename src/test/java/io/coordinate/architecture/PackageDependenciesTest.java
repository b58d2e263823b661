package io.coordinate.architecture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.coordinate.architecture.PackageDependencies.Reference;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the source-level rules of {@link ArchitectureTest} read from a source file, and the cycles they find. */
class PackageDependenciesTest {

    private static final String DB = """
      package io.coordinate.engine.state.db;

      import io.coordinate.engine.state.codec.KeySpace;
      import java.util.List;

      final class Rebuild {
        byte[] key = KeySpace.stateVersion();
      }
      """;

    @Test
    void anImportThatOnlyJavadocUsesIsAReferenceAndMakesACycle() {
        String codec = """
        package io.coordinate.engine.state.codec;

        import io.coordinate.engine.state.db.IndexRebuild;

        /** Rebuilt by {@link IndexRebuild}. */
        final class Routing {}
        """;
        List<Reference> references = new ArrayList<>(PackageDependencies.inSource("Routing.java", codec));
        references.addAll(PackageDependencies.inSource("Rebuild.java", DB));

        assertThat(references)
                .containsExactly(
                        new Reference(
                                "io.coordinate.engine.state.codec",
                                "io.coordinate.engine.state.db",
                                "Routing.java:3 import io.coordinate.engine.state.db.IndexRebuild;"),
                        new Reference(
                                "io.coordinate.engine.state.db",
                                "io.coordinate.engine.state.codec",
                                "Rebuild.java:3 import io.coordinate.engine.state.codec.KeySpace;"));
        assertThat(new PackageDependencies(references).cycles()).containsExactly("""
        cycle of [io.coordinate.engine.state.codec, io.coordinate.engine.state.db]:
          io.coordinate.engine.state.codec -> io.coordinate.engine.state.db: \
        Routing.java:3 import io.coordinate.engine.state.db.IndexRebuild;
          io.coordinate.engine.state.db -> io.coordinate.engine.state.codec: \
        Rebuild.java:3 import io.coordinate.engine.state.codec.KeySpace;""");
    }

    @Test
    void aFullyQualifiedJavadocReferenceCountsAndCodeTextDoesNot() {
        String codec = """
        package io.coordinate.engine.state.codec;

        /**
         * Read by {@link io.coordinate.engine.state.db.SplitStore#get}, named in {@code io.coordinate.streams.X}.
         * @see io.coordinate.engine.state.db.IndexRebuild
         */
        final class Routing {}
        """;

        assertThat(PackageDependencies.inSource("Routing.java", codec))
                .extracting(Reference::to, Reference::where)
                .containsExactly(
                        tuple(
                                "io.coordinate.engine.state.db",
                                "Routing.java:4 {@link io.coordinate.engine.state.db.SplitStore"),
                        tuple(
                                "io.coordinate.engine.state.db",
                                "Routing.java:5 @see io.coordinate.engine.state.db.IndexRebuild"));
        assertThat(new PackageDependencies(PackageDependencies.inSource("Routing.java", codec)).cycles())
                .isEmpty();
    }

    @Test
    void importsNameTheirPackageWhateverTheirForm() {
        String source = """
        package io.coordinate.engine;

        import static io.coordinate.engine.state.codec.KeySpace.trailingSeq;
        import io.coordinate.engine.state.codec.TimeIndexKeys.DelayedUnitKey;
        import io.coordinate.engine.state.model.*;
        import io.coordinate.engine.Engine;
        import com.fasterxml.jackson.databind.JsonNode;
        """;

        assertThat(PackageDependencies.inSource("Engine.java", source))
                .extracting(Reference::to)
                .containsExactly(
                        "io.coordinate.engine.state.codec",
                        "io.coordinate.engine.state.codec",
                        "io.coordinate.engine.state.model");
    }
}
