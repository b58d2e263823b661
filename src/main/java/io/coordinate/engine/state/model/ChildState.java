package io.coordinate.engine.state.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * Where a child stands under its parent (docs/children-and-heirs.md#children). The code byte is stored in keys: never
 * reuse one.
 *
 * <ul>
 *   <li>{@code PARKED}: added while the parent had not finished its attempt; blocked until it does
 *   <li>{@code OPEN}: released; the parent waits for it (it may be available, delayed, pending, waiting...)
 *   <li>{@code CLOSED}: finished or failed; the parent's bookkeeping has counted it
 * </ul>
 */
public enum ChildState {
    PARKED("parked", 'p'),
    OPEN("open", 'o'),
    CLOSED("closed", 'c');

    private final String wireName;
    private final byte code;

    ChildState(String wireName, char code) {
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
    public static ChildState fromWireName(String name) {
        for (ChildState state : values()) {
            if (state.wireName.equals(name)) {
                return state;
            }
        }
        return null;
    }
}
