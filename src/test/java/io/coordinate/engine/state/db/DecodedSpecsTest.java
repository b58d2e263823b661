package io.coordinate.engine.state.db;

import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.engine.state.codec.SpecKeys;
import io.coordinate.engine.state.codec.ValueCodec;
import io.coordinate.engine.state.model.WorkSpecRecord;
import io.coordinate.protocol.Json;
import org.junit.jupiter.api.Test;

/** Specs kept decoded across commands, used only while their stored bytes are unchanged. */
class DecodedSpecsTest {

    private final DecodedSpecs specs = new DecodedSpecs();
    private final byte[] key = SpecKeys.spec("ns", "s");

    @Test
    void theSameBytesGiveTheKeptSpecAndChangedBytesADecodedOne() {
        byte[] first = ValueCodec.encode(spec(1));
        WorkSpecRecord decoded = specs.decode(key, first);
        assertThat(decoded.data().get("priority").asInt()).isEqualTo(1);
        assertThat(specs.decode(key, first.clone())).isSameAs(decoded);

        WorkSpecRecord changed = specs.decode(key, ValueCodec.encode(spec(2)));
        assertThat(changed.data().get("priority").asInt()).isEqualTo(2);
        assertThat(specs.decode(key, null)).isNull();
        assertThat(specs.size()).isEqualTo(1);
    }

    @Test
    void atMost1024SpecsAreKept() {
        byte[] value = ValueCodec.encode(spec(1));
        for (int i = 0; i < 1100; i++) {
            specs.decode(SpecKeys.spec("ns", "s" + i), value);
        }
        assertThat(specs.size()).isEqualTo(1024);
    }

    private static WorkSpecRecord spec(int priority) {
        return new WorkSpecRecord("s", Json.object().put("name", "s").put("priority", priority), null);
    }
}
