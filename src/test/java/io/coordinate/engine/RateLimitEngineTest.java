package io.coordinate.engine;

import static io.coordinate.engine.EngineHarness.assertJson;
import static io.coordinate.engine.EngineHarness.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.EngineHarness.Reply;
import io.coordinate.engine.state.codec.KeyFamily;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A spec's {@code rate_limit} (docs/reference.md#rate-limits): attempts started take tokens of a bucket on the engine's
 * clock, a spec out of tokens is passed over, and a request held short by a limit says when the next token comes.
 */
class RateLimitEngineTest {

    private static final String TWENTY_A_SECOND = "{\"name\":\"s\",\"rate_limit\":{\"max\":20,\"per_seconds\":1}}";

    private final EngineHarness h = new EngineHarness();

    private ObjectNode request(int count, Object... more) {
        Object[] fields = new Object[more.length + 4];
        fields[0] = "worker";
        fields[1] = "w";
        fields[2] = "count";
        fields[3] = count;
        System.arraycopy(more, 0, fields, 4, more.length);
        return h.send("request_attempts", fields).ok();
    }

    private static String[] names(String prefix, int count) {
        return IntStream.range(0, count).mapToObj(i -> prefix + i).toArray(String[]::new);
    }

    /** The attempts handed out and the {@code retry_after_ms} of the assignment, "-" when it has none. */
    private static String handedOut(ObjectNode assignment) {
        return assignment.get("attempts").size() + " "
                + (assignment.has("retry_after_ms")
                        ? assignment.get("retry_after_ms").asText()
                        : "-");
    }

    private long rateLimitKeys() {
        return keysOfKind(h, "L");
    }

    /** How many stored keys are of this {@link KeyFamily#kind}. */
    static long keysOfKind(EngineHarness h, String kind) {
        return h.snapshot().keySet().stream()
                .filter(key -> KeyFamily.kind(HexFormat.of().parseHex(key)).equals(kind))
                .count();
    }

    @Test
    void twentyASecondHandsOutTwentyThenOneEveryFiftyMillis() {
        h.setSpec(TWENTY_A_SECOND);
        h.addUnits("s", names("u", 100));

        assertThat(handedOut(request(100))).isEqualTo("20 50");
        assertThat(handedOut(request(1))).isEqualTo("0 50");
        h.advance(Duration.ofMillis(30));
        assertThat(handedOut(request(1))).isEqualTo("0 20");
        h.advance(Duration.ofMillis(20));
        assertThat(handedOut(request(5))).isEqualTo("1 50");
        h.advance(Duration.ofMillis(1000));
        assertThat(handedOut(request(100))).isEqualTo("20 50");
        h.advance(Duration.ofMillis(100));
        assertThat(handedOut(request(2)))
                .as("as many as asked: nothing held it short")
                .isEqualTo("2 -");
        assertThat(h.counts("s").get("pending").asLong()).isEqualTo(43);
    }

    @Test
    void theBurstIsTheCapacity() {
        h.setSpec("{\"name\":\"s\",\"rate_limit\":{\"max\":10,\"per_seconds\":1,\"burst\":30}}");
        h.addUnits("s", names("u", 200));

        assertThat(handedOut(request(100))).isEqualTo("30 100");
        h.advanceSeconds(1);
        assertThat(handedOut(request(100))).isEqualTo("10 100");
        h.advanceSeconds(60);
        assertThat(handedOut(request(100))).isEqualTo("30 100");
    }

    @Test
    void aSpecOutOfTokensIsPassedOverForTheNext() {
        h.setSpec("{\"name\":\"limited\",\"priority\":10,\"rate_limit\":{\"max\":2}}");
        h.setSpec("{\"name\":\"other\"}");
        h.addUnits("limited", names("l", 10));
        h.addUnits("other", names("o", 3));

        assertThat(h.requestOne().spec()).isEqualTo("limited");
        assertThat(h.requestOne().spec()).isEqualTo("limited");
        ObjectNode fromOther = request(5);

        assertThat(fromOther.get("attempts"))
                .extracting(a -> a.get("work_spec_name").asText())
                .containsExactly("other", "other", "other");
        assertThat(fromOther.get("retry_after_ms").asLong()).isEqualTo(500);
        assertThat(handedOut(request(5, "work_specs", List.of("other"))))
                .as("a request that may not take from the limited spec is not held short by it")
                .isEqualTo("0 -");
        h.advance(Duration.ofMillis(500));
        assertThat(h.requestOne().spec()).isEqualTo("limited");
    }

    @Test
    void specGetShowsTheSettingsAndTheTokensNow() {
        h.setSpec("{\"name\":\"s\",\"rate_limit\":{\"max\":20}}");
        h.addUnits("s", names("u", 30));
        assertJson(
                (ObjectNode) h.meta("s").get("rate_limit"),
                "{\"max\":20,\"per_seconds\":1,\"burst\":20,\"tokens\":20}");
        request(25);
        assertThat(h.meta("s").get("rate_limit").get("tokens").asLong()).isZero();
        h.advance(Duration.ofMillis(120));

        assertThat(h.meta("s").get("rate_limit").get("tokens").asLong()).isEqualTo(2);
        h.setSpec("{\"name\":\"plain\"}");
        assertThat(h.meta("plain").has("rate_limit")).isFalse();
    }

    @Test
    void aSpecWithoutALimitReadsAndWritesNoTokensAndItsAssignmentIsUnchanged() {
        h.setSpec("{\"name\":\"s\"}");
        h.addUnits("s", "a", "b");

        ObjectNode assignment = request(10);

        assertThat(assignment.fieldNames())
                .toIterable()
                .containsExactly("namespace", "worker", "request_id", "attempts");
        assertThat(new String(h.assignments().get(0).json(), StandardCharsets.UTF_8))
                .as("the attempts' list ends the record, as before rate limits")
                .endsWith("\"}]}");
        assertThat(rateLimitKeys()).isZero();
    }

    @Test
    void theTokensGoWithTheSpecAndTheNamespace() {
        h.setSpec(TWENTY_A_SECOND);
        h.addUnits("s", "u");
        request(1);
        assertThat(rateLimitKeys()).isEqualTo(1);

        h.send("delete_work_spec", "work_spec_name", "s").ok();
        assertThat(rateLimitKeys()).isZero();
        h.setSpec(TWENTY_A_SECOND);
        h.addUnits("s", "u");
        request(1);
        h.send("destroy_namespace").ok();
        assertThat(rateLimitKeys()).isZero();
    }

    @Test
    void aReplayOfTheSameCommandsGrantsTheSameTokens() {
        Consumer<EngineHarness> setUp = harness -> {
            harness.setSpec("{\"name\":\"s\",\"rate_limit\":{\"max\":7,\"per_seconds\":0.3,\"burst\":3}}");
            harness.addUnits("s", names("u", 100));
        };
        Map<String, String> first = replay(new EngineHarness(7), false, setUp);
        Map<String, String> reopened = replay(new EngineHarness(7), true, setUp);

        assertThat(reopened).isEqualTo(first);
    }

    /**
     * After {@code setUp}, requests over 2 s at uneven times; {@code reopen}: a new engine on the same store half way.
     * The state at the end, with what each request got.
     */
    static Map<String, String> replay(EngineHarness harness, boolean reopen, Consumer<EngineHarness> setUp) {
        setUp.accept(harness);
        StringBuilder handed = new StringBuilder();
        EngineHarness current = harness;
        for (int i = 0; i < 40; i++) {
            if (reopen && i == 20) {
                current = current.reopen();
            }
            current.advance(Duration.ofMillis(17L * (i % 5) + 3));
            ObjectNode assignment = current.send("request_attempts", "worker", "w", "count", 1 + i % 4)
                    .ok();
            handed.append(handedOut(assignment)).append(';');
        }
        Map<String, String> state = current.stateSnapshot();
        state.put("handed out", handed.toString());
        return state;
    }

    @Test
    void badSettingsAreRefusedNamingTheKey() {
        assertThat(error("\"rate_limit\":5")).isEqualTo("work spec key \"rate_limit\" must be an object");
        assertThat(error("\"rate_limit\":{}")).isEqualTo("work spec key \"rate_limit.max\" is missing");
        assertThat(error("\"rate_limit\":{\"max\":0}"))
                .startsWith("work spec key \"rate_limit.max\" must be a whole number from 1 to ");
        assertThat(error("\"rate_limit\":{\"max\":1.5}"))
                .startsWith("work spec key \"rate_limit.max\" must be a whole number from 1 to ");
        assertThat(error("\"rate_limit\":{\"max\":1,\"per_seconds\":0}"))
                .startsWith("work spec key \"rate_limit.per_seconds\" must be a number from 0.001 to ");
        assertThat(error("\"rate_limit\":{\"max\":1,\"burst\":0}"))
                .startsWith("work spec key \"rate_limit.burst\" must be a whole number from 1 to ");
        assertThat(error("\"rate_limit\":{\"max\":1,\"per_second\":1}"))
                .isEqualTo("work spec key \"rate_limit.per_second\" is not a rate limit setting");
    }

    private String error(String limitJson) {
        return settingError(h, limitJson);
    }

    /** The message of the {@code bad_command} that a spec with these keys gets. */
    static String settingError(EngineHarness h, String keysJson) {
        Reply reply = h.send("set_work_spec", "work_spec", json("{\"name\":\"bad\"," + keysJson + "}"));
        assertThat(reply.errorCode()).isEqualTo("bad_command");
        return reply.json().get("error").get("message").asText();
    }
}
