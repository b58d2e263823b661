package io.coordinate.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coordinate.protocol.Command;
import io.coordinate.protocol.CommandParser;
import io.coordinate.protocol.ErrorCode;
import io.coordinate.storage.BatchWrites;
import io.coordinate.storage.InMemoryKeyValueStore;
import io.coordinate.storage.KeyValueIterator;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A store that cannot take a command's writes is the task's failure, not the command's: the engine throws, so
 * that Kafka Streams aborts the transaction and the command is processed again once the state is back.
 */
class EngineStoreFailureTest {

    private static final long NOW = 1_800_000_000_000L;

    /** Takes writes until told to fail. */
    private static final class FailingStore implements BatchWrites {
        final InMemoryKeyValueStore map = new InMemoryKeyValueStore();
        boolean failing;

        @Override
        public byte[] get(byte[] key) {
            return map.get(key);
        }

        @Override
        public KeyValueIterator range(byte[] from, byte[] to) {
            return map.range(from, to);
        }

        @Override
        public void putAll(List<KeyValueIterator.Entry> writes) {
            if (failing && !writes.isEmpty()) {
                throw new IllegalStateException("disk full");
            }
            map.putAll(writes);
        }
    }

    private static Command command(String json) {
        return CommandParser.parse("ns", json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aFailedWriteIsThrownNotAnsweredAsARejection() {
        FailingStore store = new FailingStore();
        Engine engine = new Engine(store, new Random(1));
        EngineResult set = engine.process(
                command("{\"command\":\"set_work_spec\",\"namespace\":\"ns\",\"work_spec\":{\"name\":\"s\"}}"), NOW);
        assertThat(set.rejected()).isFalse();
        int stored = store.map.size();

        store.failing = true;
        assertThatThrownBy(() -> engine.process(
                        command("{\"command\":\"add_work_units\",\"namespace\":\"ns\","
                                + "\"work_spec_name\":\"s\",\"work_units\":[{\"name\":\"u\"}],\"reply_to\":\"r\"}"),
                        NOW))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("disk full");
        assertThat(store.map.size()).isEqualTo(stored);

        // a command that writes nothing is still answered: its rejection is the command's own
        EngineResult rejected = engine.process(
                command("{\"command\":\"add_work_units\",\"namespace\":\"ns\","
                        + "\"work_spec_name\":\"missing\",\"work_units\":[{\"name\":\"u\"}],\"reply_to\":\"r\"}"),
                NOW);
        assertThat(rejected.rejection().code()).isEqualTo(ErrorCode.NO_SUCH_WORK_SPEC);
        assertThat(rejected.replies()).hasSize(1);
    }
}
