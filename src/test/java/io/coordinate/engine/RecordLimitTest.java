package io.coordinate.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.RecordLimit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** No command may need a record Kafka refuses: events are split, and what still would not fit is refused whole. */
class RecordLimitTest {

    private final EngineHarness engine = new EngineHarness();

    private static ArrayNode units(int count, String prefix) {
        ArrayNode units = Json.MAPPER.createArrayNode();
        for (int i = 0; i < count; i++) {
            units.addObject().put("name", prefix + String.format("%06d", i));
        }
        return units;
    }

    @Test
    void theEventsOfAnAddOf11000UnitsComeInSeveralRecordsEachUnderTheLimit() {
        engine.setSpec("{\"name\":\"spec\"}");
        EngineHarness.Reply reply =
                engine.send("add_work_units", "work_spec_name", "spec", "work_units", units(11_000, "v"));

        assertThat(reply.ok().get("added").asInt()).isEqualTo(11_000);
        List<OutRecord> records = reply.result().events();
        assertThat(records).hasSize(5);
        List<String> added = new ArrayList<>();
        for (OutRecord record : records) {
            assertThat(record.key()).isEqualTo("ns");
            assertThat(record.json().length)
                    .isLessThanOrEqualTo(Output.EVENT_RECORD_SPLIT_BYTES + 1024)
                    .isLessThan(RecordLimit.MAX_RECORD_BYTES);
            for (JsonNode event : record.value().get("events")) {
                added.add(event.get("type").asText() + ":"
                        + event.get("work_unit_name").asText());
            }
        }
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 11_000; i++) {
            expected.add("unit_added:v" + String.format("%06d", i));
        }
        assertThat(added).isEqualTo(expected);
        assertThat(engine.status("spec", "v010999")).isEqualTo("available");
    }

    @Test
    void aUnitWhoseStoredRecordWouldBeOverTheLimitIsRefusedAndNothingChanges() {
        engine.setSpec("{\"name\":\"spec\"}");
        Map<String, String> before = engine.snapshot();
        String longName = "x".repeat(600_000);

        EngineHarness.Reply reply = engine.send(
                "add_work_units",
                "work_spec_name",
                "spec",
                "work_units",
                Json.MAPPER.createArrayNode().add(Json.object().put("name", longName)));

        assertThat(reply.errorCode()).isEqualTo("too_large");
        assertThat(reply.json().get("error").get("message").asText())
                .startsWith("the command would store a record of ")
                .endsWith(" bytes; at most 1000000 (shorter names or " + "smaller data)");
        assertThat(reply.result().events()).isEmpty();
        assertThat(engine.snapshot()).isEqualTo(before);
    }

    @Test
    void aCommandWhoseReplyWouldBeOverTheLimitIsRefusedAndNothingChanges() {
        engine.setSpec("{\"name\":\"spec\"}");
        Map<String, String> before = engine.snapshot();
        // 60 names of 20,000 characters: each unit fits, the reply listing the 60 names (1.2 MB) does not
        EngineHarness.Reply reply =
                engine.send("add_work_units", "work_spec_name", "spec", "work_units", units(60, "y".repeat(20_000)));

        assertThat(reply.errorCode()).isEqualTo("too_large");
        assertThat(reply.json().get("error").get("message").asText())
                .matches("the command's reply would be a record of 12\\d{5} bytes; at most 1000000: split the command");
        assertThat(reply.result().events()).isEmpty();
        assertThat(engine.snapshot()).isEqualTo(before);
    }

    @Test
    void anErrorMessageQuotingAHugeNameIsCut() {
        EngineHarness.Reply reply =
                engine.send("add_work_units", "work_spec_name", "s".repeat(5_000), "work_units", units(1, "u"));

        assertThat(reply.errorCode()).isEqualTo("no_such_work_spec");
        String original = "no work spec \"" + "s".repeat(5_000) + "\"";
        assertThat(reply.json().get("error").get("message").asText())
                .isEqualTo(original.substring(0, 1_000) + "... (5015 characters)");
    }
}
