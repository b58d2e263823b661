package io.coordinate.engine.state.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.coordinate.engine.state.codec.ValueCodec;
import io.coordinate.engine.state.model.RetryPolicy.Backoff;
import io.coordinate.protocol.Json;
import org.junit.jupiter.api.Test;

/** The retry delay as a pure function: exact values for each backoff, the cap, and the hashed jitter. */
class RetryPolicyTest {

    private static RetryPolicy policy(Backoff backoff, double initial, double multiplier, double max, double jitter) {
        return new RetryPolicy(25, backoff, initial, multiplier, max, jitter, 0);
    }

    @Test
    void exponentialDelaysGrowByTheMultiplierFromTheInitialDelay() {
        RetryPolicy policy = policy(Backoff.EXPONENTIAL, 1, 2, 3600, 0);

        assertThat(policy.delayMillis(1, "ns", "s", "u")).isEqualTo(1_000);
        assertThat(policy.delayMillis(2, "ns", "s", "u")).isEqualTo(2_000);
        assertThat(policy.delayMillis(3, "ns", "s", "u")).isEqualTo(4_000);
        assertThat(policy.delayMillis(10, "ns", "s", "u")).isEqualTo(512_000);
    }

    @Test
    void fractionalSecondsAndMultipliersRoundToTheMillisecond() {
        RetryPolicy policy = policy(Backoff.EXPONENTIAL, 0.25, 1.5, 3600, 0);

        assertThat(policy.delayMillis(1, "ns", "s", "u")).isEqualTo(250);
        assertThat(policy.delayMillis(2, "ns", "s", "u")).isEqualTo(375);
        assertThat(policy.delayMillis(3, "ns", "s", "u")).isEqualTo(563); // 562.5 rounds up
    }

    @Test
    void maxDelayCapsEveryDelayEvenWhenThePowerOverflows() {
        RetryPolicy policy = policy(Backoff.EXPONENTIAL, 1, 2, 10, 0);

        assertThat(policy.delayMillis(4, "ns", "s", "u")).isEqualTo(8_000);
        assertThat(policy.delayMillis(5, "ns", "s", "u")).isEqualTo(10_000);
        assertThat(policy.delayMillis(Integer.MAX_VALUE, "ns", "s", "u")).isEqualTo(10_000);
        assertThat(policy(Backoff.EXPONENTIAL, 0, 2, 10, 0).delayMillis(Integer.MAX_VALUE, "ns", "s", "u"))
                .isEqualTo(0);
    }

    @Test
    void fixedBackoffWaitsTheInitialDelayEveryTime() {
        RetryPolicy policy = policy(Backoff.FIXED, 7.5, 2, 3600, 0);

        assertThat(policy.delayMillis(1, "ns", "s", "u")).isEqualTo(7_500);
        assertThat(policy.delayMillis(20, "ns", "s", "u")).isEqualTo(7_500);
        assertThat(policy(Backoff.FIXED, 7.5, 2, 5, 0).delayMillis(1, "ns", "s", "u"))
                .isEqualTo(5_000);
    }

    @Test
    void jitterIsAFixedFractionOfTheHashOfTheUnitAndItsAttemptCount() {
        // pinned: a due time is computed once and stored, but the same inputs must give it on every JVM
        assertThat(RetryPolicy.jitterFraction("ns", "s", "u", 1)).isEqualTo(0.9436133484012379);

        // 1 s × (1 - 0.5 × 0.94361...) = 528.19 ms
        assertThat(policy(Backoff.EXPONENTIAL, 1, 2, 3600, 0.5).delayMillis(1, "ns", "s", "u"))
                .isEqualTo(528);
        assertThat(policy(Backoff.EXPONENTIAL, 1, 2, 3600, 1).delayMillis(1, "ns", "s", "u"))
                .isEqualTo(56);
    }

    @Test
    void jitterFractionsDifferBetweenUnitsAndAttemptsAndStayBelowOne() {
        double first = RetryPolicy.jitterFraction("ns", "s", "u", 1);

        assertThat(RetryPolicy.jitterFraction("ns", "s", "u", 2)).isNotEqualTo(first);
        assertThat(RetryPolicy.jitterFraction("ns", "s", "v", 1)).isNotEqualTo(first);
        assertThat(RetryPolicy.jitterFraction("ns", "su", "", 1))
                .isNotEqualTo(RetryPolicy.jitterFraction("ns", "s", "u", 1));
        for (int count = 1; count <= 1000; count++) {
            assertThat(RetryPolicy.jitterFraction("ns", "s", "u", count))
                    .isGreaterThanOrEqualTo(0)
                    .isLessThan(1);
        }
    }

    @Test
    void slotSpacingIsAMinuteOverMaxPerMinute() {
        assertThat(new RetryPolicy(25, Backoff.FIXED, 1, 2, 3600, 0, 0).slotSpacingMillis())
                .isEqualTo(0);
        assertThat(new RetryPolicy(25, Backoff.FIXED, 1, 2, 3600, 0, 2).slotSpacingMillis())
                .isEqualTo(30_000);
        assertThat(new RetryPolicy(25, Backoff.FIXED, 1, 2, 3600, 0, 0.5).slotSpacingMillis())
                .isEqualTo(120_000);
    }

    @Test
    void aSpecWithAPolicyReadsBackFromItsStoredValue() {
        RetryPolicy policy = new RetryPolicy(4, Backoff.FIXED, 0.5, 3, 60, 0.25, 10);
        WorkSpecMeta meta = WorkSpecMeta.DEFAULTS.toBuilder().retry(policy).build();
        WorkSpecRecord spec = new WorkSpecRecord("s", (ObjectNode) Json.parse("{\"name\":\"s\"}"), meta);

        assertThat(ValueCodec.decode(ValueCodec.encode(spec), WorkSpecRecord.class))
                .isEqualTo(spec);
    }
}
