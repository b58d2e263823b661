package io.coordinate.engine.state.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** The status of a work unit (docs/reference.md#unit-statuses). The code byte is stored in keys: never reuse one. */
public enum UnitStatus {
    BLOCKED("blocked", 'b'),
    DELAYED("delayed", 'd'),
    AVAILABLE("available", 'a'),
    PENDING("pending", 'p'),
    WAITING("waiting", 'w'),
    FINISHED("finished", 'f'),
    FAILED("failed", 'x'),
    CANCELLED("cancelled", 'c');

    private final String wireName;
    private final byte code;

    UnitStatus(String wireName, char code) {
        this.wireName = wireName;
        this.code = (byte) code;
    }

    /** Finished, failed or cancelled: the unit runs no more until a reset or a re-add brings it back. */
    public boolean isFinal() {
        return this == FINISHED || this == FAILED || this == CANCELLED;
    }

    /** Failed or cancelled: what its parent and heirs treat as a failure (docs/children-and-heirs.md). */
    public boolean isFailure() {
        return this == FAILED || this == CANCELLED;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    public byte code() {
        return code;
    }

    @JsonCreator
    public static UnitStatus fromWireName(String name) {
        for (UnitStatus status : values()) {
            if (status.wireName.equals(name)) {
                return status;
            }
        }
        return null;
    }

    public static UnitStatus fromCode(byte code) {
        for (UnitStatus status : values()) {
            if (status.code == code) {
                return status;
            }
        }
        throw new IllegalArgumentException("unknown status code " + code);
    }
}
