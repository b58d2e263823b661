package io.coordinate.client;

import java.time.Duration;

/**
 * Thrown by a {@link Worker.Handler} when the unit should run again later (a rate limit, a service that is down):
 * the worker gives the attempt back with {@code retry_attempt}, and the unit is not handed out before the delay.
 */
public class RetryLaterException extends Exception {

    private final Duration delay;

    public RetryLaterException(String message, Duration delay) {
        super(message);
        this.delay = delay;
    }

    public Duration delay() {
        return delay;
    }
}
