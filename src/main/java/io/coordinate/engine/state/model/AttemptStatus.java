package io.coordinate.engine.state.model;

import com.fasterxml.jackson.annotation.JsonValue;

/** The status of an attempt (docs/reference.md#attempt-statuses). */
public enum AttemptStatus {
    PENDING("pending"),
    FINISHED("finished"),
    FAILED("failed"),
    EXPIRED("expired"),
    RETRYABLE("retryable"),
    CANCELLED("cancelled");

    private final String wireName;

    AttemptStatus(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }
}
