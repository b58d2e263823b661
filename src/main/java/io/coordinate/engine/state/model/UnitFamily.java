package io.coordinate.engine.state.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * A unit's place in Conveyor's job trees (docs/children-and-heirs.md), kept in its record. {@code CoordinateState}
 * derives the children and heirs indexes (and their counters) from these fields, so they are the single truth. A unit
 * that is only a parent or predecessor carries {@link #EMPTY}: a marker that it has members to look after.
 *
 * @param parent the unit this one is a child of; null = none. Fixed when the unit is created
 * @param predecessor the unit this one is an heir of; null = none. Fixed when the unit is created
 * @param childState where it stands under its parent; null without a parent
 * @param parkedUnder while parked: the parent's attempt it was parked under (0 = the parent had none)
 * @param awaitingPredecessor blocked until the predecessor finishes
 * @param failure the data of a failure that came from the family ({@code {"traceback": ...}}); while the
 *     unit is failed it is the data it shows. On a pending unit: a child failed, so it fails when its attempt
 *     ends
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record UnitFamily(
        UnitRef parent,
        UnitRef predecessor,
        ChildState childState,
        Long parkedUnder,
        boolean awaitingPredecessor,
        JsonNode failure) {

    public static final UnitFamily EMPTY = new UnitFamily(null, null, null, null, false, null);

    /** Parked under its parent or waiting for its predecessor: the unit may not run. */
    public boolean blocks() {
        return childState == ChildState.PARKED || awaitingPredecessor;
    }

    /** The predecessor link dropped (its unit was deleted). */
    public UnitFamily withoutPredecessor() {
        return toBuilder().predecessor(null).awaitingPredecessor(false).build();
    }

    /** A builder holding this unit family's fields, for a changed copy (see {@link WorkUnitRecord.Builder}). */
    public Builder toBuilder() {
        return new Builder();
    }

    /** A changed copy in the making; each field starts as the enclosing record's. */
    public final class Builder {
        private UnitRef parent = UnitFamily.this.parent;
        private UnitRef predecessor = UnitFamily.this.predecessor;
        private ChildState childState = UnitFamily.this.childState;
        private Long parkedUnder = UnitFamily.this.parkedUnder;
        private boolean awaitingPredecessor = UnitFamily.this.awaitingPredecessor;
        private JsonNode failure = UnitFamily.this.failure;

        private Builder() {}

        public Builder parent(UnitRef value) {
            parent = value;
            return this;
        }

        public Builder predecessor(UnitRef value) {
            predecessor = value;
            return this;
        }

        public Builder childState(ChildState value) {
            childState = value;
            return this;
        }

        public Builder parkedUnder(Long value) {
            parkedUnder = value;
            return this;
        }

        public Builder awaitingPredecessor(boolean value) {
            awaitingPredecessor = value;
            return this;
        }

        public Builder failure(JsonNode value) {
            failure = value;
            return this;
        }

        public UnitFamily build() {
            return new UnitFamily(parent, predecessor, childState, parkedUnder, awaitingPredecessor, failure);
        }
    }
}
