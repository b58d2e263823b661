package io.coordinate.engine.state.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * How a replica of a replicated unit ended (docs/replication.md#outcomes-and-validate-states, BOINC's result
 * {@code outcome}). A replica still running has none (null).
 */
public enum ReplicaOutcome {
    /** Finished ({@code finish_attempt}). */
    SUCCESS("success"),
    /** Failed ({@code fail_attempt}). */
    CLIENT_ERROR("client_error"),
    /** Past its deadline ({@code delay_bound}), expired or retried. */
    NO_REPLY("no_reply"),
    /** Still running when its unit was decided: not needed any more (it may still report, and is validated). */
    DIDNT_NEED("didnt_need");

    private final String wireName;

    ReplicaOutcome(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    @JsonCreator
    public static ReplicaOutcome fromWireName(String name) {
        for (ReplicaOutcome outcome : values()) {
            if (outcome.wireName.equals(name)) {
                return outcome;
            }
        }
        return null;
    }
}
