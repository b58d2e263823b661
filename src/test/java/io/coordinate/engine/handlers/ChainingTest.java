package io.coordinate.engine.handlers;

import static io.coordinate.engine.EngineHarness.json;
import static io.coordinate.engine.EngineHarness.normalized;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.Times;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The forms of a finished unit's {@code output} (docs/reference.md#finish_attempt), as {@code add_work_units} unit
 * objects. The chained command writes priorities as floating-point numbers (0.0), as the topology tests pin it.
 */
class ChainingTest {

    private static final long NOW = Times.parse("2026-11-22T10:00:00Z");

    private static Map<String, ObjectNode> parse(String output) {
        return Chaining.parseOutput(json(output), NOW);
    }

    private static String units(String output) {
        return normalized(Json.MAPPER.valueToTree(parse(output).values())).toString();
    }

    @Test
    void objectFormMapsNamesToData() {
        assertThat(units("{\"a\":{\"k\":\"v\"},\"b\":{}}"))
                .isEqualTo("[{\"name\":\"a\",\"data\":{\"k\":\"v\"},\"priority\":0},"
                        + "{\"name\":\"b\",\"data\":{},\"priority\":0}]");
        assertThat(units("{\"a\":{\"k\":\"v\"},\"bad\":\"not an object\"}"))
                .as("a malformed entry is skipped")
                .isEqualTo("[{\"name\":\"a\",\"data\":{\"k\":\"v\"},\"priority\":0}]");
    }

    @Test
    void listFormTakesNamesAndTuples() {
        assertThat(units("[\"a\",[\"b\",{\"x\":1}],[\"c\",{},{\"priority\":5,\"delay\":90}],[\"d\",{},null,7]]"))
                .isEqualTo("[{\"name\":\"a\",\"data\":{},\"priority\":0},"
                        + "{\"name\":\"b\",\"data\":{\"x\":1},\"priority\":0},"
                        + "{\"name\":\"c\",\"data\":{},\"not_before\":\"2026-11-22T10:01:30.000Z\",\"priority\":5},"
                        + "{\"name\":\"d\",\"data\":{},\"priority\":7}]");
    }

    @Test
    void aFourthItemOverridesTheMetaPriority() {
        assertThat(units("[[\"a\",{},{\"priority\":5},2.5]]"))
                .isEqualTo("[{\"name\":\"a\",\"data\":{},\"priority\":2.5}]");
    }

    @Test
    void malformedItemsAreSkipped() {
        assertThat(parse("[[\"short\"],[],[1,{}],[\"data\",\"x\"],[\"meta\",{},5],[\"prio\",{},{},\"high\"],"
                        + "{\"name\":\"obj\"},7,null,\"ok\"]"))
                .containsOnlyKeys("ok");
        assertThat(parse("\"just a string\"")).isEmpty();
        assertThat(parse("42")).isEmpty();
        assertThat(Chaining.parseOutput(null, NOW)).isEmpty();
    }

    @Test
    void laterDuplicatesWinAndTakeTheLaterPlace() {
        assertThat(units("[\"key\",\"other\",[\"key\",{\"data\":\"x\"},{\"priority\":10}]]"))
                .isEqualTo("[{\"name\":\"other\",\"data\":{},\"priority\":0},"
                        + "{\"name\":\"key\",\"data\":{\"data\":\"x\"},\"priority\":10}]");
    }
}
