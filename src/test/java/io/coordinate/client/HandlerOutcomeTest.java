package io.coordinate.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HandlerOutcomeTest {

    @Test
    void anExceptionFailsAsRetryableWithItsStackTrace() {
        IllegalStateException boom = new IllegalStateException("boom");
        HandlerOutcome outcome = HandlerOutcome.of(boom, false);
        assertThat(outcome).isInstanceOf(HandlerOutcome.Fail.class);
        HandlerOutcome.Fail fail = (HandlerOutcome.Fail) outcome;
        assertThat(fail.retryable()).isTrue();
        assertThat(fail.data()).isEqualTo(Map.of("traceback", HandlerOutcome.stackTrace(boom)));
        assertThat((String) fail.data().get("traceback"))
                .startsWith("java.lang.IllegalStateException: boom\n\tat io.coordinate.client.HandlerOutcomeTest");
    }

    @Test
    void aFailAttemptExceptionIsPermanentUnlessItSaysRetryable() {
        assertThat(HandlerOutcome.of(new FailAttemptException("no", Map.of("traceback", "bad input")), false))
                .isEqualTo(new HandlerOutcome.Fail(Map.of("traceback", "bad input"), false));
        assertThat(HandlerOutcome.of(new FailAttemptException("no", Map.of("traceback", "busy"), true), false))
                .isEqualTo(new HandlerOutcome.Fail(Map.of("traceback", "busy"), true));
    }

    @Test
    void retryLaterGivesBackAfterItsDelay() {
        assertThat(HandlerOutcome.of(new RetryLaterException("rate limited", Duration.ofSeconds(7)), false))
                .isEqualTo(
                        new HandlerOutcome.GiveBack(Map.of("traceback", "rate limited"), Duration.ofSeconds(7), false));
    }

    @Test
    void anInterruptedHandlerGivesBackAtOnceCounted() {
        IllegalStateException wrapped = new IllegalStateException("shutting down", new InterruptedException());
        assertThat(HandlerOutcome.of(wrapped, false))
                .isEqualTo(new HandlerOutcome.GiveBack(
                        Map.of(
                                "traceback",
                                "the handler was interrupted: java.lang.IllegalStateException: shutting down"),
                        Duration.ZERO,
                        false));
    }

    @Test
    void onceTheStopBeganWhateverAHandlerThrowsIsARelease() {
        assertThat(HandlerOutcome.of(new java.io.IOException("could not start the command: x"), true))
                .isEqualTo(new HandlerOutcome.GiveBack(
                        Map.of("traceback", "the worker stopped: java.io.IOException: could not start the command: x"),
                        Duration.ZERO,
                        true));
        assertThat(HandlerOutcome.of(new FailAttemptException("no", Map.of("traceback", "bad input")), true))
                .isEqualTo(new HandlerOutcome.GiveBack(
                        Map.of("traceback", "the worker stopped: io.coordinate.client.FailAttemptException: no"),
                        Duration.ZERO,
                        true));
        assertThat(HandlerOutcome.of(new RetryLaterException("stopped by SIGTERM", Duration.ZERO), true))
                .isEqualTo(new HandlerOutcome.GiveBack(Map.of("traceback", "stopped by SIGTERM"), Duration.ZERO, true));
    }
}
