package io.coordinate.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.protocol.Command;
import io.coordinate.protocol.CommandParser;
import io.coordinate.protocol.CommandRejection;
import io.coordinate.protocol.ErrorCode;
import io.coordinate.protocol.Json;
import io.coordinate.storage.KeyValueIterator;
import io.coordinate.testing.CommandFuzzer;
import io.coordinate.testing.CommandFuzzer.Input;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Fuzzing of the decoder and the engine (issue 24, Deliver 3): hostile records from {@link CommandFuzzer} go
 * through {@link CommandParser} and {@link Engine} as the processor sends them. For every record: nothing is
 * thrown; a rejected record is refused with a dead-letter code (by the parser) or a stable error code other than
 * {@code internal_error} (by the engine), answered when it has a {@code reply_to}, and leaves every store exactly
 * as it was (a digest of all records and indexes, before and after); an accepted one is answered ok; every output
 * is JSON. The state starts again from {@link CommandFuzzer#seedCommands} every {@value #EPOCH} records, and then
 * its indexes must be those a rebuild derives from its records.
 *
 * <p>The seed is printed; {@code -Dfuzz.seed=N} replays it, {@code -Dfuzz.inputs=N} sets the count.
 */
class EngineFuzzTest {

    private static final int EPOCH = 500;

    @Test
    void hostileRecordsNeverThrowNeverFailInternallyAndChangeNothingWhenRefused() {
        long seed = Long.getLong("fuzz.seed", System.nanoTime());
        int inputs = Integer.getInteger("fuzz.inputs", 100_000);
        System.out.printf("EngineFuzzTest: %d inputs, seed %d (replay: -Dfuzz.seed=%d)%n", inputs, seed, seed);
        CommandFuzzer fuzzer = new CommandFuzzer(seed);
        Map<String, Integer> outcomes = new java.util.TreeMap<>();
        EngineHarness h = null;
        for (int i = 0; i < inputs; i++) {
            if (i % EPOCH == 0) {
                if (h != null) {
                    h.assertIndexesRebuildable();
                }
                h = seeded(seed + i);
            }
            Input input = fuzzer.next();
            try {
                String outcome = apply(h, input);
                outcomes.merge(outcome, 1, Integer::sum);
            } catch (Throwable e) {
                // described only now: describing every input would cost more than applying it
                throw new AssertionError(
                        "seed " + seed + ", input " + i + ": " + input.describe() + ": "
                                + (e instanceof AssertionError ? "" : "threw ") + e,
                        e);
            }
            h.advance(java.time.Duration.ofMillis(input.value() == null ? 0 : input.value().length % 700));
        }
        System.out.printf("EngineFuzzTest: %d inputs done, seed %d: %s%n", inputs, seed, outcomes);
        assertThat(outcomes.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(inputs);
        assertThat(outcomes).as("valid commands reach the engine too").containsKey("ok");
    }

    /** A harness with the seed state. */
    private static EngineHarness seeded(long seed) {
        EngineHarness h = new EngineHarness(seed).namespace(CommandFuzzer.NAMESPACE);
        for (String command : CommandFuzzer.seedCommands()) {
            h.sendBody(((ObjectNode) Json.parse(command)).put("reply_to", "test-client"))
                    .ok();
        }
        return h;
    }

    /** Applies one record as the processor does and checks the outcome; returns its name, for the counts. */
    private static String apply(EngineHarness h, Input input) {
        h.punctuate(); // what is due now is done first: the command's own time step then has nothing to do
        long before = digest(h);
        Command command;
        try {
            command = CommandParser.parse(input.key(), input.value());
        } catch (CommandRejection rejection) {
            assertThat(rejection.code().deadLetter())
                    .as("a parser rejection is dead-lettered")
                    .isTrue();
            return "parser:" + rejection.code().code();
        }
        EngineResult result = h.engine().process(command, h.now());
        checkOutputs(result);
        if (result.rejected()) {
            ErrorCode code = result.rejection().code();
            if (code == ErrorCode.INTERNAL_ERROR) {
                throw new AssertionError("internal_error: " + result.rejection().getMessage());
            }
            if (digest(h) != before) {
                throw new AssertionError("the store changed under a rejected command (" + code + ")");
            }
            if (!result.events().isEmpty()
                    || !result.assignments().isEmpty()
                    || !result.chained().isEmpty()
                    || !result.results().isEmpty()) {
                throw new AssertionError("a rejected command (" + code + ") produced more than its reply");
            }
            assertReply(result, command, false);
            return "engine:" + code.code();
        }
        assertReply(result, command, true);
        applyChained(h, result);
        return "ok";
    }

    /** Chained commands come back through the commands topic; a worker's output must never make one fail. */
    private static void applyChained(EngineHarness h, EngineResult first) {
        Deque<OutRecord> queue = new ArrayDeque<>(first.chained());
        while (!queue.isEmpty()) {
            OutRecord record = queue.removeFirst();
            Command chained = CommandParser.parse(record.key(), record.json());
            EngineResult result = h.engine().process(chained, h.now());
            checkOutputs(result);
            if (result.rejected() && result.rejection().code() == ErrorCode.INTERNAL_ERROR) {
                throw new AssertionError("chained " + Json.text(record.value()) + ": internal_error: "
                        + result.rejection().getMessage());
            }
            queue.addAll(result.chained());
        }
    }

    private static void assertReply(EngineResult result, Command command, boolean ok) {
        int expected = command.replyTo() == null ? 0 : 1;
        if (result.replies().size() != expected) {
            throw new AssertionError(result.replies().size() + " replies, expected " + expected);
        }
        if (expected == 1 && result.replies().get(0).value().get("ok").asBoolean() != ok) {
            throw new AssertionError("reply " + result.replies().get(0).value() + ", expected ok=" + ok);
        }
    }

    /** Every output is one JSON value (a NaN or infinity written bare would not be). */
    private static void checkOutputs(EngineResult result) {
        for (List<OutRecord> records :
                List.of(result.replies(), result.assignments(), result.events(), result.chained(), result.results())) {
            for (OutRecord record : records) {
                byte[] json = record.json();
                try {
                    Json.parse(json);
                } catch (IOException e) {
                    throw new AssertionError("an output is not JSON: " + e.getMessage(), e);
                }
            }
        }
    }

    /** A digest of every entry of the records' and the indexes' store. */
    static long digest(EngineHarness h) {
        long digest = 1;
        try (KeyValueIterator it = h.store().range(new byte[] {0}, new byte[] {(byte) 0xFF, (byte) 0xFF})) {
            while (it.hasNext()) {
                KeyValueIterator.Entry e = it.next();
                digest = digest * 1_000_003 + Arrays.hashCode(e.key());
                digest = digest * 1_000_003 + Arrays.hashCode(e.value());
            }
        }
        return digest;
    }
}
