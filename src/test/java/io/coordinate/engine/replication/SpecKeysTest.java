package io.coordinate.engine.replication;

import static io.coordinate.engine.EngineHarness.assertJson;
import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.engine.EngineHarness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The replication keys and {@code retention} of a work spec (docs/replication.md#spec-keys): defaults and refusals. */
class SpecKeysTest {

    private final EngineHarness h = new EngineHarness();

    @Test
    void aReplicatedSpecShowsItsSettingsWithTheDefaults() {
        h.setSpec("{\"name\":\"s\",\"min_quorum\":2}");

        assertJson(
                h.meta("s").get("replication"),
                "{\"min_quorum\":2,\"target_nresults\":2,\"max_error_results\":3,"
                        + "\"max_total_results\":10,\"max_success_results\":6,\"delay_bound\":null,\"validator\":\"exact\"}");
        assertThat(h.meta("s").has("retention")).isFalse();
    }

    @Test
    void everyKeyCanBeGiven() {
        h.setSpec("{\"name\":\"s\",\"min_quorum\":3,\"target_nresults\":4,\"max_error_results\":0,"
                + "\"max_total_results\":4,\"max_success_results\":3,\"delay_bound\":90.5,\"validator\":\"exact\","
                + "\"retention\":3600}");

        assertJson(
                h.meta("s").get("replication"),
                "{\"min_quorum\":3,\"target_nresults\":4,\"max_error_results\":0,"
                        + "\"max_total_results\":4,\"max_success_results\":3,\"delay_bound\":90.5,\"validator\":\"exact\"}");
        assertThat(h.meta("s").get("retention").asInt()).isEqualTo(3600);
    }

    @Test
    void targetNresultsAloneMakesASpecReplicated() {
        h.setSpec("{\"name\":\"s\",\"target_nresults\":2}");

        assertThat(h.meta("s").get("replication").get("min_quorum").asInt()).isEqualTo(1);
    }

    @Test
    void aQuorumOfOneIsAnOrdinarySpecAndItsViewIsUnchanged() {
        h.setSpec("{\"name\":\"s\",\"min_quorum\":1,\"target_nresults\":1,\"delay_bound\":30}");
        h.setSpec("{\"name\":\"plain\"}");

        assertThat(h.meta("s").has("replication")).isFalse();
        assertThat(h.meta("plain").has("replication")).isFalse();
        h.addUnits("s", "u");
        assertThat(h.requestOne("lifetime", 100)
                        .assignmentItem()
                        .get("expiration_time")
                        .asText())
                .as("delay_bound is for replicas only")
                .isEqualTo("2026-11-22T10:01:40.000Z");
        assertThat(h.unit("s", "u").has("replication")).isFalse();
    }

    @Test
    void setWorkSpecMetaKeepsTheReplicationSettings() {
        h.setSpec("{\"name\":\"s\",\"min_quorum\":2,\"retention\":5}");
        h.setSpecMeta("s", "{\"priority\":3}");

        assertThat(h.meta("s").get("replication").get("min_quorum").asInt()).isEqualTo(2);
        assertThat(h.meta("s").get("retention").asInt()).isEqualTo(5);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "\"min_quorum\":0                               | Expected min_quorum >= 1, but min_quorum is 0",
                "\"min_quorum\":7                               | Expected max_success_results >= min_quorum, but max_success_results is 6 and min_quorum 7",
                "\"min_quorum\":3,\"target_nresults\":2         | Expected target_nresults >= min_quorum, but target_nresults is 2 and min_quorum 3",
                "\"target_nresults\":11                         | Expected max_total_results >= target_nresults, but max_total_results is 10 and target_nresults 11",
                "\"min_quorum\":2,\"max_total_results\":1       | Expected max_total_results >= target_nresults, but max_total_results is 1 and target_nresults 2",
                "\"min_quorum\":2,\"max_success_results\":1     | Expected max_success_results >= min_quorum, but max_success_results is 1 and min_quorum 2",
                "\"max_error_results\":-1                       | Expected max_error_results >= 0, but max_error_results is -1",
                "\"min_quorum\":2.5                             | Expected work spec key \"min_quorum\" to be a whole number, but it is 2.5",
                "\"min_quorum\":\"2\"                           | Expected work spec key \"min_quorum\" to be a whole number, but it is \"2\"",
                "\"delay_bound\":0                              | Expected work spec key \"delay_bound\" to be a number of seconds > 0, but it is 0",
                "\"validator\":\"fuzzy\"                        | Expected work spec key \"validator\" to be \"exact\", but it is \"fuzzy\"",
                "\"retention\":-1                               | Expected work spec key \"retention\" to be a number of seconds >= 0, but it is -1",
            })
    void inconsistentSettingsAreRefused(String keys, String message) {
        EngineHarness.Reply reply =
                h.send("set_work_spec", "work_spec", EngineHarness.json("{\"name\":\"s\"," + keys + "}"));

        assertThat(reply.errorCode()).isEqualTo("bad_command");
        assertThat(reply.json().get("error").get("message").asText()).isEqualTo(message);
        assertThat(h.specNames()).isEmpty();
    }

    @Test
    void wholeNumbersMayBeWrittenWithADecimalPoint() {
        h.setSpec("{\"name\":\"s\",\"min_quorum\":2.0}");

        assertThat(h.meta("s").get("replication").get("min_quorum").asInt()).isEqualTo(2);
    }
}
