package io.coordinate.engine.state.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * What the validator made of a replica (docs/replication.md#outcomes-and-validate-states, BOINC's result
 * {@code validate_state}).
 */
public enum ValidateState {
    /** Not validated (yet): every replica starts here; only successes move on. */
    INIT("init"),
    /** Matches the canonical result. */
    VALID("valid"),
    /** Does not match the canonical result. */
    INVALID("invalid"),
    /** Compared without consensus: waits for one more replica. */
    INCONCLUSIVE("inconclusive"),
    /** Its unit failed (an error bit) before it could be validated. */
    NO_CHECK("no_check"),
    /** BOINC's "arrived after the canonical result was deleted": never produced (a purged unit's replicas are gone). */
    TOO_LATE("too_late");

    private final String wireName;

    ValidateState(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    @JsonCreator
    public static ValidateState fromWireName(String name) {
        for (ValidateState state : values()) {
            if (state.wireName.equals(name)) {
                return state;
            }
        }
        return null;
    }
}
