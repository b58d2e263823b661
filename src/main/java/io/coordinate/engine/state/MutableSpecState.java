package io.coordinate.engine.state;

import io.coordinate.engine.state.model.WorkSpecRecord;

public interface MutableSpecState extends SpecState {

    void write(String ns, WorkSpecRecord before, WorkSpecRecord after);

    /** A retry of the spec took its slot: the next one is free at {@code next} (epoch millis). No event. */
    void moveRetrySlot(String ns, String spec, long next);

    /** Deletes a spec with its retry slot, all its units, their attempts and every index entry of them. */
    void delete(String ns, WorkSpecRecord spec);
}
