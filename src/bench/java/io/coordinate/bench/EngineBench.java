package io.coordinate.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.Engine;
import io.coordinate.engine.EngineResult;
import io.coordinate.protocol.CommandParser;
import io.coordinate.protocol.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** What the benchmarks share: commands to the engine alone, in namespace "bench", and their temporary files. */
final class EngineBench {

    private static final Logger LOG = LoggerFactory.getLogger(EngineBench.class);

    static final String NAMESPACE = "bench";

    private EngineBench() {}

    /** A command of namespace {@link #NAMESPACE}, its other fields to be added. */
    static ObjectNode command(String name) {
        ObjectNode command = Json.object();
        command.put("command", name);
        command.put("namespace", NAMESPACE);
        return command;
    }

    /** Applies a command from its bytes, as the app would; a rejection fails the benchmark. */
    static EngineResult send(Engine engine, long now, ObjectNode body) {
        EngineResult result = engine.process(CommandParser.parse(NAMESPACE, Json.bytes(body)), now);
        if (result.rejected()) {
            throw new IllegalStateException(result.rejection().getMessage());
        }
        return result;
    }

    static Path tempDir(String prefix) {
        try {
            return Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes a temporary directory; what cannot be deleted is logged, not thrown: a cleanup fails no run. */
    static void deleteRecursively(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            LOG.warn("could not delete {}: {}", dir, e.toString());
        }
    }
}
