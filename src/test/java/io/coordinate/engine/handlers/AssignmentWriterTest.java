package io.coordinate.engine.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.engine.EngineHarness;
import io.coordinate.engine.EngineHarness.Attempt;
import io.coordinate.protocol.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An assignment is one Kafka record: a request stops handing out attempts once the record is full. */
class AssignmentWriterTest {

    private final EngineHarness engine = new EngineHarness();

    @Test
    void aRequestHandsOutNoMoreAttemptsThanFillTheRecord() {
        engine.setSpec("{\"name\":\"spec\"}");
        StringBuilder units = new StringBuilder("[");
        for (int i = 0; i < 10; i++) {
            units.append(i == 0 ? "" : ",")
                    .append("{\"name\":\"u")
                    .append(i)
                    .append("\",\"data\":{\"b\":\"")
                    .append("x".repeat(200_000))
                    .append("\"}}");
        }
        engine.addUnitsJson("spec", units.append("]").toString());

        List<Attempt> first = engine.request("count", 10);

        // 200 KB each: full after the third (600 KB >= 512 KiB); the other seven stay available
        assertThat(first).extracting(Attempt::unit).containsExactly("u0", "u1", "u2");
        EngineHarness.assertJson(engine.counts("spec"), "{\"available\":7,\"pending\":3}");
        assertThat(engine.request("count", 10)).extracting(Attempt::unit).containsExactly("u3", "u4", "u5");
    }

    @Test
    void smallAttemptsAreAllHandedOut() {
        engine.setSpec("{\"name\":\"spec\"}");
        engine.addUnits("spec", "a", "b", "c");

        List<Attempt> attempts = engine.request("count", 5);

        assertThat(attempts).extracting(Attempt::unit).containsExactly("a", "b", "c");
        assertThat(attempts.get(0).assignmentItem().get("data")).isEqualTo(Json.object());
    }
}
