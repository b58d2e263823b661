package io.coordinate.engine.state.model;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * What a worker last said of its attempt's progress with {@code renew_attempt} (docs/reference.md#renew_attempt).
 *
 * @param fraction how much is done, 0 to 1; null when the worker gave none
 * @param message what it is doing; null when the worker gave none
 * @param time when it said so, epoch millis
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AttemptProgress(Double fraction, String message, long time) {}
