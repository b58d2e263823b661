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
    FAILED("failed", 'x');

    private final String wireName;
    private final byte code;

    UnitStatus(String wireName, char code) {
        this.wireName = wireName;
        this.code = (byte) code;
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
