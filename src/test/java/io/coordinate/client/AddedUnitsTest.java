package io.coordinate.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.protocol.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link AddedUnits} read from {@code add_work_units}' reply, with and without {@code if_exists}. */
class AddedUnitsTest {

    @Test
    void aPlainReplyHasTheCountAndNoLists() {
        assertThat(AddedUnits.from(Json.parse("{\"added\":2,\"work_unit_names\":[\"a\",\"b\"]}")))
                .isEqualTo(new AddedUnits(2, List.of("a", "b"), List.of(), List.of(), List.of()));
    }

    @Test
    void aReplyWithIfExistsNamesTheUnitsAndCountsTheOnesWritten() {
        AddedUnits reply = AddedUnits.from(Json.parse("{\"added\":[\"c\"],\"replaced\":[\"b\"],\"kept\":[\"a\",\"d\"],"
                + "\"work_unit_names\":[\"a\",\"b\",\"c\",\"d\"]}"));

        assertThat(reply)
                .isEqualTo(
                        new AddedUnits(2, List.of("a", "b", "c", "d"), List.of("c"), List.of("b"), List.of("a", "d")));
    }

    @Test
    void twoBatchesAddUpInOrder() {
        AddedUnits first = AddedUnits.from(
                Json.parse("{\"added\":[\"a\"],\"replaced\":[],\"kept\":[\"b\"],\"work_unit_names\":[\"a\",\"b\"]}"));
        AddedUnits second = AddedUnits.from(
                Json.parse("{\"added\":[],\"replaced\":[\"c\"],\"kept\":[\"d\"],\"work_unit_names\":[\"c\",\"d\"]}"));

        assertThat(first.plus(second))
                .isEqualTo(
                        new AddedUnits(2, List.of("a", "b", "c", "d"), List.of("a"), List.of("c"), List.of("b", "d")));
    }
}
