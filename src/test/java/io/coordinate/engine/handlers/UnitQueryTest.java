package io.coordinate.engine.handlers;

import static io.coordinate.engine.EngineHarness.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.node.ArrayNode;
import io.coordinate.engine.EngineHarness;
import io.coordinate.protocol.CommandRejection;
import io.coordinate.protocol.ErrorCode;
import io.coordinate.protocol.Json;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The query object: parsing, name order (the store's byte order) and paging over many units. */
class UnitQueryTest {

    private final EngineHarness h = new EngineHarness();

    @Test
    void malformedQueriesAreBadCommands() {
        for (String query : List.of(
                "[]",
                "{\"names\":\"a\"}",
                "{\"names\":[1]}",
                "{\"statuses\":[\"running\"]}",
                "{\"limit\":-1}",
                "{\"limit\":\"ten\"}",
                "{\"previous_name\":5}")) {
            CommandRejection e = catchThrowableOfType(CommandRejection.class, () -> UnitQuery.parse(json(query)));
            assertThat(e).as(query).isNotNull();
            assertThat(e.code()).isEqualTo(ErrorCode.BAD_COMMAND);
        }
        assertThat(UnitQuery.parse(null)).isEqualTo(UnitQuery.ALL);
        assertThat(UnitQuery.parse(json("null"))).isEqualTo(UnitQuery.ALL);
    }

    /** A misspelt key would filter nothing and select every unit: each command that takes a query refuses it. */
    @Test
    void anUnknownKeyIsRefusedNamingItAndChangesNothing() {
        h.setSpec("{\"name\":\"spec\"}");
        h.addUnits("spec", "a", "b");
        var before = h.snapshot();

        for (String command : List.of("delete_work_units", "reset_work_units", "prioritize_work_units")) {
            EngineHarness.Reply reply =
                    h.send(command, "work_spec_name", "spec", "query", json("{\"name\":[\"a\"]}"), "priority", 5);

            assertThat(reply.errorCode()).as(command).isEqualTo("bad_command");
            assertThat(reply.json().get("error").get("message").asText())
                    .as(command)
                    .isEqualTo("unknown key \"name\" in \"query\" (known: names, statuses, previous_name, limit)");
        }
        assertThat(h.snapshot()).isEqualTo(before);
        assertThat(h.units(
                        "spec", "{\"names\":[\"a\"],\"statuses\":[\"available\"],\"previous_name\":\"\",\"limit\":1}"))
                .containsExactly("a");
    }

    @Test
    void namesOrderAsTheirUtf8BytesOnEveryPath() {
        h.setSpec("{\"name\":\"spec\"}");
        String bmp = "\uffff";
        String astral = "\ud83d\ude00";
        h.addUnits("spec", astral, bmp, "z");

        assertThat(h.units("spec", "{}")).containsExactly("z", bmp, astral);
        String names = "{\"names\":[\"" + astral + "\",\"" + bmp + "\",\"z\"]";
        assertThat(h.units("spec", names + "}")).containsExactly("z", bmp, astral);
        assertThat(h.units("spec", names + ",\"limit\":2}")).containsExactly("z", bmp);
        assertThat(h.units("spec", names + ",\"previous_name\":\"" + bmp + "\"}"))
                .containsExactly(astral);
        assertThat(h.units("spec", "{\"previous_name\":\"" + bmp + "\"}")).containsExactly(astral);
    }

    @Test
    void pagesThroughManyUnits() {
        h.setSpec("{\"name\":\"spec\"}");
        ArrayNode units = Json.MAPPER.createArrayNode();
        List<String> all = new ArrayList<>();
        for (int i = 0; i < 1300; i++) {
            String name = String.format("u%04d", i);
            units.addObject().put("name", name).put("priority", i % 2);
            all.add(name);
        }
        h.send("add_work_units", "work_spec_name", "spec", "work_units", units).ok();

        assertThat(h.units("spec", "{}")).containsExactlyElementsOf(all);
        assertThat(h.units("spec", "{\"previous_name\":\"u0511\",\"limit\":3}"))
                .containsExactly("u0512", "u0513", "u0514");
        assertThat(h.units("spec", "{\"previous_name\":\"u1000\"}")).hasSize(299);
        assertThat(h.units("spec", "{\"limit\":1000}")).hasSize(1000).last().isEqualTo("u0999");
        h.finish(h.requestOne()).ok(); // u0001: the best priority, then name
        assertThat(h.units("spec", "{\"statuses\":[\"finished\"]}")).containsExactly("u0001");
        assertThat(h.units("spec", "{\"statuses\":[\"available\"],\"previous_name\":\"u1297\"}"))
                .containsExactly("u1298", "u1299");
    }
}
