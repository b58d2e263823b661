package io.coordinate.engine.state.model;

/**
 * What a spec's retry policy decided when an attempt of a unit failed as retryable or expired
 * (docs/reference.md#retries): the events carry it.
 *
 * @param attemptCount the unit's attempts so far, the one that ended included
 * @param maxAttempts the policy's {@code max_attempts}
 * @param retryAt epoch millis when the unit runs again; null = the attempts are exhausted and the unit fails
 */
public record RetryDecision(int attemptCount, int maxAttempts, Long retryAt) {

    public boolean exhausted() {
        return retryAt == null;
    }
}
