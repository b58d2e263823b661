package io.coordinate.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The attempt commands' JSON as it goes on the wire. */
class AttemptCommandsTest {

    @Test
    void aRetryableFailureSaysSoAndAPermanentOneLeavesTheWiresDefault() {
        assertThat(AttemptCommands.fail("3", Map.of("traceback", "t"), true).toString())
                .isEqualTo("{\"command\":\"fail_attempt\",\"attempt_id\":\"3\",\"data\":{\"traceback\":\"t\"},"
                        + "\"retryable\":true}");
        assertThat(AttemptCommands.fail("3", Map.of("traceback", "t"), false).toString())
                .isEqualTo("{\"command\":\"fail_attempt\",\"attempt_id\":\"3\",\"data\":{\"traceback\":\"t\"}}");
    }

    @Test
    void aReleaseIsARetryWithReleaseTrue() {
        assertThat(AttemptCommands.retry("3", Map.of("traceback", "stop"), Duration.ZERO, true)
                        .toString())
                .isEqualTo("{\"command\":\"retry_attempt\",\"attempt_id\":\"3\",\"data\":{\"traceback\":\"stop\"},"
                        + "\"delay\":0.0,\"release\":true}");
        assertThat(AttemptCommands.retry("3", null, Duration.ofMillis(1500), false)
                        .toString())
                .isEqualTo("{\"command\":\"retry_attempt\",\"attempt_id\":\"3\",\"delay\":1.5}");
    }

    @Test
    void aRenewalCarriesProgressWithTheFieldsGiven() {
        assertThat(AttemptCommands.renew("3", Duration.ofSeconds(30), null, new AttemptProgress(0.25, "a quarter"))
                        .toString())
                .isEqualTo("{\"command\":\"renew_attempt\",\"attempt_id\":\"3\",\"extend\":30.0,"
                        + "\"progress\":{\"fraction\":0.25,\"message\":\"a quarter\"}}");
        assertThat(AttemptCommands.renew("3", Duration.ofSeconds(30), null, new AttemptProgress(null, "m"))
                        .toString())
                .isEqualTo("{\"command\":\"renew_attempt\",\"attempt_id\":\"3\",\"extend\":30.0,"
                        + "\"progress\":{\"message\":\"m\"}}");
        assertThat(AttemptCommands.renew("3", Duration.ofSeconds(30), null, null)
                        .toString())
                .isEqualTo("{\"command\":\"renew_attempt\",\"attempt_id\":\"3\",\"extend\":30.0}");
    }
}
