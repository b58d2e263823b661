package io.coordinate.engine;

import static io.coordinate.engine.EngineHarness.assertJson;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * A spec's {@code group_rate_limit} (docs/reference.md#concurrency-groups): each group's starts take tokens of a
 * bucket of its own on the engine's clock; a group without a token is passed over as one at its cap is, and a request
 * held short by it says when the next token comes.
 */
class GroupRateLimitEngineTest {

    private final EngineHarness h = new EngineHarness();

    /** Units {@code <group>-<i>} of each group, priority 0. */
    private void addGroups(String spec, int perGroup, String... groups) {
        List<String> units = new ArrayList<>();
        for (String group : groups) {
            for (int i = 1; i <= perGroup; i++) {
                units.add("{\"name\":\"" + group + "-" + i + "\",\"group\":\"" + group + "\"}");
            }
        }
        h.addUnitsJson(spec, "[" + String.join(",", units) + "]");
    }

    /** The units handed out, then the {@code retry_after_ms} of the assignment, "-" when it has none. */
    private String request(int count) {
        ObjectNode assignment =
                h.send("request_attempts", "worker", "w", "count", count).ok();
        List<String> handed = new ArrayList<>();
        for (JsonNode attempt : assignment.get("attempts")) {
            handed.add(attempt.get("work_unit_name").asText());
        }
        JsonNode retryAfter = assignment.get("retry_after_ms");
        return String.join(",", handed) + " " + (retryAfter == null ? "-" : retryAfter.asText());
    }

    private long groupTokenKeys() {
        return RateLimitEngineTest.keysOfKind(h, "l");
    }

    @Test
    void eachGroupStartsAtMostItsTokensAndTheRequestSaysWhenTheNextComes() {
        h.setSpec("{\"name\":\"s\",\"group_rate_limit\":{\"max\":2,\"per_seconds\":1}}");
        addGroups("s", 5, "a", "b", "c");

        assertThat(request(10)).isEqualTo("a-1,b-1,c-1,a-2,b-2,c-2 500");
        assertThat(request(1)).isEqualTo(" 500");
        h.advance(Duration.ofMillis(300));
        assertThat(request(1)).isEqualTo(" 200");
        h.advance(Duration.ofMillis(200));
        assertThat(request(10)).isEqualTo("a-3,b-3,c-3 500");
        h.advance(Duration.ofMillis(1000));
        assertThat(request(4)).as("as many as asked: nothing held it short").isEqualTo("a-4,b-4,c-4,a-5 -");
        assertThat(request(4)).as("no unit left: nothing to wait for").isEqualTo("b-5,c-5 -");
        assertThat(h.counts("s").get("pending").asLong()).isEqualTo(15);
    }

    @Test
    void aGroupOutOfTokensIsPassedOverForTheNextGroup() {
        h.setSpec("{\"name\":\"s\",\"group_rate_limit\":{\"max\":1,\"per_seconds\":2,\"burst\":3}}");
        addGroups("s", 4, "a");
        addGroups("s", 1, "b");

        assertThat(request(2)).isEqualTo("a-1,b-1 -");
        assertThat(request(5)).isEqualTo("a-2,a-3 2000");
        h.advance(Duration.ofMillis(2000));
        assertThat(request(5)).isEqualTo("a-4 -");
    }

    @Test
    void unitsWithoutAGroupAreNotLimited() {
        h.setSpec("{\"name\":\"s\",\"group_rate_limit\":{\"max\":1}}");
        addGroups("s", 3, "a");
        h.addUnits("s", "plain-1", "plain-2", "plain-3");

        // the ungrouped lane sorts before every group, then a, which has one token
        assertThat(request(10)).isEqualTo("plain-1,a-1,plain-2,plain-3 1000");
        assertThat(groupTokenKeys()).isEqualTo(1);
    }

    @Test
    void theCapPassesAGroupOverBeforeItsTokensAreAsked() {
        h.setSpec("{\"name\":\"s\",\"group_max_running\":1,\"group_rate_limit\":{\"max\":5}}");
        addGroups("s", 3, "a", "b");

        assertThat(request(10))
                .as("held by the cap, not by tokens: no retry_after")
                .isEqualTo("a-1,b-1 -");
    }

    @Test
    void aSpecLimitWithTokensLeftDoesNotShortenTheGroupsWait() {
        h.setSpec("{\"name\":\"s\",\"rate_limit\":{\"max\":10},\"group_rate_limit\":{\"max\":1,\"per_seconds\":0.8}}");
        addGroups("s", 30, "a");

        assertThat(request(50)).isEqualTo("a-1 800");
        assertThat(h.meta("s").get("rate_limit").get("tokens").asLong()).isEqualTo(9);
    }

    @Test
    void aSpecLimitWithTokensLeftDoesNotCallAGroupCapARateLimit() {
        h.setSpec("{\"name\":\"s\",\"rate_limit\":{\"max\":10},\"group_max_running\":1}");
        addGroups("s", 30, "a");

        assertThat(request(50)).as("held by the cap alone: no retry_after").isEqualTo("a-1 -");
    }

    @Test
    void theEarliestNextTokenOfTheGroupsAndTheSpecsIsTold() {
        h.setSpec("{\"name\":\"s\",\"group_rate_limit\":{\"max\":1,\"per_seconds\":0.3}}");
        h.setSpec("{\"name\":\"t\",\"rate_limit\":{\"max\":1,\"per_seconds\":0.5}}");
        addGroups("s", 5, "a");
        h.addUnits("t", "t-1", "t-2");
        assertThat(h.requestOne("work_specs", List.of("t")).unit()).isEqualTo("t-1");
        assertThat(h.requestOne("work_specs", List.of("s")).unit()).isEqualTo("a-1");

        assertThat(request(5)).as("a's token in 300 ms, t's in 500 ms").isEqualTo(" 300");
        h.advance(Duration.ofMillis(300));
        assertThat(request(5)).as("a's next token in 300 ms, t's in 200 ms").isEqualTo("a-2 200");
    }

    @Test
    void onlyTheGroupsThatStartedKeepTokensAndTheyGoWithTheSpecAndTheNamespace() {
        String spec = "{\"name\":\"s\",\"group_rate_limit\":{\"max\":1}}";
        h.setSpec(spec);
        String[] groups = new String[200];
        for (int i = 0; i < groups.length; i++) {
            groups[i] = String.format("g%03d", i);
        }
        addGroups("s", 1, groups);

        assertThat(request(2)).isEqualTo("g000-1,g001-1 -");
        assertThat(groupTokenKeys()).isEqualTo(2);
        h.send("delete_work_spec", "work_spec_name", "s").ok();
        assertThat(groupTokenKeys()).isZero();
        h.setSpec(spec);
        addGroups("s", 1, "a");
        request(1);
        assertThat(groupTokenKeys()).isEqualTo(1);
        h.send("destroy_namespace").ok();
        assertThat(groupTokenKeys()).isZero();
    }

    @Test
    void specGetShowsTheSettingsWithTheirDefaults() {
        h.setSpec("{\"name\":\"s\",\"group_rate_limit\":{\"max\":20}}");
        assertJson((ObjectNode) h.meta("s").get("group_rate_limit"), "{\"max\":20,\"per_seconds\":1,\"burst\":20}");
        addGroups("s", 1, "a");
        h.setSpec("{\"name\":\"s\",\"group_rate_limit\":{\"max\":3,\"per_seconds\":0.5,\"burst\":1}}");
        assertJson((ObjectNode) h.meta("s").get("group_rate_limit"), "{\"max\":3,\"per_seconds\":0.5,\"burst\":1}");
        h.setSpec("{\"name\":\"s\"}");
        assertThat(h.meta("s").has("group_rate_limit")).isFalse();
    }

    @Test
    void aContinuousSpecWithGroupsStartsItsNewUnit() {
        h.setSpec("{\"name\":\"s\",\"continuous\":true,\"group_max_running\":1,\"group_rate_limit\":{\"max\":1}}");

        assertThat(h.requestOne().spec()).isEqualTo("s");
        assertThat(groupTokenKeys()).isZero();
    }

    @Test
    void aReplayOfTheSameCommandsGrantsTheSameTokens() {
        Consumer<EngineHarness> setUp = harness -> {
            harness.setSpec("{\"name\":\"s\",\"group_rate_limit\":{\"max\":7,\"per_seconds\":0.9,\"burst\":2}}");
            StringBuilder units = new StringBuilder("[");
            for (int i = 0; i < 60; i++) {
                units.append(i == 0 ? "" : ",").append(String.format("{\"name\":\"u%d\",\"group\":\"g%d\"}", i, i % 3));
            }
            harness.addUnitsJson("s", units.append("]").toString());
        };
        Map<String, String> first = RateLimitEngineTest.replay(new EngineHarness(7), false, setUp);
        Map<String, String> reopened = RateLimitEngineTest.replay(new EngineHarness(7), true, setUp);

        assertThat(reopened).isEqualTo(first);
    }

    @Test
    void badSettingsAreRefusedNamingTheKey() {
        assertThat(error("\"group_rate_limit\":5")).isEqualTo("work spec key \"group_rate_limit\" must be an object");
        assertThat(error("\"group_rate_limit\":{}")).isEqualTo("work spec key \"group_rate_limit.max\" is missing");
        assertThat(error("\"group_rate_limit\":{\"max\":0}"))
                .startsWith("work spec key \"group_rate_limit.max\" must be a whole number from 1 to ");
        assertThat(error("\"group_rate_limit\":{\"max\":1,\"per_seconds\":0}"))
                .startsWith("work spec key \"group_rate_limit.per_seconds\" must be a number from 0.001 to ");
        assertThat(error("\"group_rate_limit\":{\"max\":1,\"burst\":0}"))
                .startsWith("work spec key \"group_rate_limit.burst\" must be a whole number from 1 to ");
        assertThat(error("\"group_rate_limit\":{\"max\":1,\"per_second\":1}"))
                .isEqualTo("work spec key \"group_rate_limit.per_second\" is not a rate limit setting");
    }

    private String error(String limitJson) {
        return RateLimitEngineTest.settingError(h, limitJson);
    }
}
